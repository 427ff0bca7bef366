// A DuckDB "shell" over @duckdb/node-api for the install tests: runs each
// argument as a statement in a fresh in-memory DuckDB started with
// unsigned extensions allowed (DUCKDB_UNSIGNED=0: not allowed), and
// prints the last statement's rows as tab-separated values ("NULL" for
// NULL). On an
// error it prints "Error: <message>" to stderr and exits 1. Same
// interface as duckdb_host.c, which runs DuckDB's arm64 library.
//
// usage: node duckdb_host.mjs NODE_MODULES_DIR STATEMENT...
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const require = createRequire(resolve(process.argv[2]) + '/');
const { DuckDBInstance } = require('@duckdb/node-api');

const config = process.env.DUCKDB_UNSIGNED === '0' ? {} : { allow_unsigned_extensions: 'true' };
const instance = await DuckDBInstance.create(':memory:', config);
const con = await instance.connect();
let rows = [];
for (const sql of process.argv.slice(3)) {
  try {
    const reader = await con.runAndReadAll(sql);
    rows = reader.getRowsJS ? reader.getRowsJS() : reader.getRows(); // node-api 1.2.0 has getRows only
  } catch (e) {
    process.stderr.write(`Error: ${e.message}\n`);
    process.exit(1);
  }
}
for (const row of rows) {
  process.stdout.write(row.map((v) => (v === null ? 'NULL' : String(v))).join('\t') + '\n');
}
