// Checks urlnorm's peer range on @duckdb/node-api against node-api's
// published versions (all pre-releases): every version on DuckDB 1.3, 1.4
// and 1.5 must satisfy it, none before 1.3 (DuckDB 1.2 refuses the file).
//
// usage: node peer_range.mjs SEMVER_MODULE_DIR INSTALLED_PACKAGE_JSON VERSIONS_JSON
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const [semverDir, pkgJson, versionsJson] = process.argv.slice(2);
const semver = createRequire(semverDir + '/')('./');
const range = JSON.parse(readFileSync(pkgJson, 'utf8')).peerDependencies['@duckdb/node-api'];
const versions = JSON.parse(readFileSync(versionsJson, 'utf8'));
let bad = 0, ok = 0;
for (const v of versions) {
  const want = ['1.3', '1.4', '1.5'].includes(`${semver.major(v)}.${semver.minor(v)}`);
  if (semver.satisfies(v, range) !== want) {
    console.error(`peer_range.mjs: ${v}: satisfies=${!want}, want ${want}`);
    bad++;
  } else if (want) ok++;
}
if (bad || ok === 0) process.exit(1);
console.log(`peer_range.mjs: the range matches the ${ok} node-api versions on DuckDB 1.3-1.5 and none older (${versions.length} published)`);
