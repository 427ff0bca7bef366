// Stages urlnorm's npm packages and packs them, offline:
//
//   node packaging/npm/build.mjs ROOT VERSION ARCH...
//
// ARCH is amd64 or arm64: the platform packages to make, from
// ROOT/build/dist/linux-ARCH/urlnorm.duckdb_extension. Writes into ROOT/dist/:
//   urlnorm-VERSION.tgz               the main package (JS, types, README)
//   urlnorm-linux-x64-VERSION.tgz     @urlnorm/linux-x64 (the extension, os/cpu/libc)
//   urlnorm-linux-arm64-VERSION.tgz   @urlnorm/linux-arm64
// Staging directories are under ROOT/build/npm/. build.sh has checked the
// files (packaging/checklib.sh). See docs/node.md.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [root, version, ...arches] = process.argv.slice(2);
if (!root || !version || arches.length === 0) {
  console.error('usage: node build.mjs ROOT VERSION ARCH...');
  process.exit(2);
}
const src = join(root, 'packaging', 'npm');
const stage = join(root, 'build', 'npm');
const dist = join(root, 'dist');

// npm's cpu name of each architecture.
const targets = { amd64: { cpu: 'x64' }, arm64: { cpu: 'arm64' } };

// The DuckDB minor releases the extension is tested with (docs/node.md).
// @duckdb/node-api versions are all pre-releases (1.5.6-r.1), which a range
// matches only through a comparator with a pre-release on the same
// major.minor.patch: so one ~X.Y.Z-0 per patch release 0..9 of each minor,
// plus every release 1.x from 1.3.0 on.
const duckdbMinors = ['1.3', '1.4', '1.5'];
const nodeApiRange = [
  '>=1.3.0 <2.0.0',
  ...duckdbMinors.flatMap((m) => Array.from({ length: 10 }, (_, p) => `~${m}.${p}-0`)),
].join(' || ');

// The license and third-party notices at the top of the repository (the
// wheel takes the same files).
const license = readdirSync(root).filter((f) => /^(LICENSE|NOTICE|THIRD_PARTY)/.test(f)).sort();
const common = {
  version,
  license: 'MIT',
  homepage: 'https://github.com/urlnorm/urlnorm',
  repository: { type: 'git', url: 'git+https://github.com/urlnorm/urlnorm.git' },
};

// stageDir writes a package directory: files maps a name to the file to
// copy, or to { text } to write.
function stageDir(name, pkg, files) {
  const dir = join(stage, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [to, from] of Object.entries(files)) {
    if (typeof from === 'string') copyFileSync(from, join(dir, to));
    else writeFileSync(join(dir, to), from.text);
  }
  for (const f of license) copyFileSync(join(root, f), join(dir, f));
  pkg.files = [...Object.keys(files), ...license];
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
  return dir;
}

function pack(dir) {
  const out = execFileSync('npm', ['pack', '--offline', '--silent', '--pack-destination', dist, dir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  console.log(join(dist, out.trim().split('\n').pop()));
}

mkdirSync(dist, { recursive: true });
const dirs = [];
for (const arch of arches) {
  const t = targets[arch];
  if (!t) throw new Error(`unknown architecture ${arch}`);
  const ext = join(root, 'build', 'dist', `linux-${arch}`, 'urlnorm.duckdb_extension');
  const name = `@urlnorm/linux-${t.cpu}`;
  const readme = `# ${name}\n\nurlnorm's DuckDB extension for Linux ${t.cpu} (glibc), version ${version}. ` +
    'Install [urlnorm](https://www.npmjs.com/package/urlnorm), which depends on this package where it fits.\n';
  dirs.push(stageDir(`linux-${t.cpu}`, {
    name,
    ...common,
    description: `urlnorm's DuckDB extension (urlnorm.duckdb_extension) for Linux ${t.cpu}, glibc`,
    os: ['linux'],
    cpu: [t.cpu],
    libc: ['glibc'],
  }, { 'urlnorm.duckdb_extension': ext, 'README.md': { text: readme } }));
}

const main = {
  name: 'urlnorm',
  ...common,
  description: 'URL canonicalization SQL functions (normalize_url, canonical_hash, url_link_type) for DuckDB in Node',
  keywords: ['url', 'normalization', 'canonicalization', 'duckdb', 'duckdb-extension', 'dedup'],
  main: './index.js',
  types: './index.d.ts',
  exports: {
    '.': { types: './index.d.ts', import: './index.mjs', require: './index.js' },
    './package.json': './package.json',
  },
  engines: { node: '>=18' },
  optionalDependencies: Object.fromEntries(Object.values(targets).map((t) => [`@urlnorm/linux-${t.cpu}`, version])),
  peerDependencies: { '@duckdb/node-api': nodeApiRange },
};
const mainFiles = { 'README.md': join(root, 'docs', 'node.md') };
for (const f of readdirSync(join(src, 'urlnorm'))) mainFiles[f] = join(src, 'urlnorm', f);
dirs.push(stageDir('urlnorm', main, mainFiles));

for (const dir of dirs) pack(dir);
