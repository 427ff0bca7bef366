// A TypeScript user of the urlnorm package: packaging/npm/test.sh
// type-checks it with tsc --strict against the installed package and
// @duckdb/node-api's own types.
import { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { create, extensionPath, load, loadStatement, version } from 'urlnorm';

const db: DuckDBInstance = await create();
const other: DuckDBInstance = await create('pages.duckdb', { threads: '2' });
const con: DuckDBConnection = await load(await db.connect());
const path: string = extensionPath();
const sql: string = loadStatement();
const v: string = version;
// @ts-expect-error DuckDB options are strings
await create(':memory:', { threads: 2 });
// @ts-expect-error load takes a connection
await load(db);
console.log(con, other, path, sql, v);
