// Runs the statement urlnorm.duckdb.load() executes (written by
// test_urlnorm.py) in a real DuckDB, @duckdb/node-api: the Python duckdb
// package cannot be installed where urlnorm is built, DuckDB's Node client
// can, and LOAD means the same in both.
//
// usage: node duckdb_load.mjs NODE_MODULES_DIR LOAD_SQL_FILE
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const require = createRequire(process.argv[2] + '/');
const { DuckDBInstance } = require('@duckdb/node-api');
const load = readFileSync(process.argv[3], 'utf8');
if (!/^LOAD '.*\/site-packages\/urlnorm\/_ext\/urlnorm\.duckdb_extension'$/.test(load)) {
  throw new Error(`unexpected statement: ${load}`);
}
const db = await DuckDBInstance.create(':memory:', { allow_unsigned_extensions: 'true' });
const con = await db.connect();
await con.run(load);
const rows = (await con.runAndReadAll(
  "SELECT normalize_url('HTTP://Example.COM:80/a/../b/?z=1&a=2#x'), version()")).getRows();
if (rows[0][0] !== 'http://example.com/b?a=2&z=1') throw new Error(`normalize_url gave ${rows[0][0]}`);
console.log(`duckdb_load.mjs: ${load} works in DuckDB ${rows[0][1]}`);
