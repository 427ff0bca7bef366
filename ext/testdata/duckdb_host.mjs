// Node host for ext's tests: opens an in-memory DuckDB through the npm
// package @duckdb/node-api with unsigned extensions allowed (the test then
// sends LOAD like a user would), and answers one JSON request per stdin
// line ({"sql": ...}) with {"rows": [[cell, ...], ...]} or {"error": ...}.
//
// usage: node duckdb_host.mjs NODE_MODULES_DIR
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

const require = createRequire(process.argv[2] + '/');
const { DuckDBInstance } = require('@duckdb/node-api');

const instance = await DuckDBInstance.create(':memory:', { allow_unsigned_extensions: 'true' });
const con = await instance.connect();

// A scalar becomes text; a STRUCT or LIST becomes {"json": value} so the
// test renders it exactly as it renders duckdb-go's values.
function cell(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  return { json: plain(v) };
}

function plain(v) {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === 'object' && !(v instanceof Date)) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  }
  return v;
}

const version = (await con.runAndReadAll('SELECT version()')).getRows()[0][0];
process.stdout.write(JSON.stringify({ ready: version }) + '\n');
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  const req = JSON.parse(line);
  let resp;
  try {
    const reader = await con.runAndReadAll(req.sql);
    resp = { rows: reader.getRowsJS().map((row) => row.map(cell)) };
  } catch (e) {
    resp = { error: e.message };
  }
  process.stdout.write(JSON.stringify(resp) + '\n');
}
