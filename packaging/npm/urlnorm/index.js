'use strict';
// urlnorm for Node: the path of the DuckDB extension that the platform
// package (@urlnorm/linux-x64, @urlnorm/linux-arm64) carries, and loading
// it into @duckdb/node-api. See docs/node.md.

const { version } = require('./package.json');

// The package that carries the extension, by `${process.platform}-${process.arch}`.
// npm installs the one whose os, cpu and libc match (optionalDependencies).
const platforms = {
  'linux-x64': '@urlnorm/linux-x64',
  'linux-arm64': '@urlnorm/linux-arm64',
};

const TLS_HINT =
  'the process has no static TLS space left for a Go library; start node with ' +
  'GLIBC_TUNABLES=glibc.rtld.optional_static_tls=4096 in the environment (see urlnorm\'s docs/node.md)';

/** The absolute path of the bundled urlnorm.duckdb_extension for this platform. */
function extensionPath() {
  const key = `${process.platform}-${process.arch}`;
  const pkg = platforms[key];
  if (!pkg) {
    throw new Error(`urlnorm: no DuckDB extension for ${key} (there is one for ${Object.keys(platforms).join(', ')}, glibc)`);
  }
  try {
    return require.resolve(`${pkg}/urlnorm.duckdb_extension`);
  } catch (e) {
    throw new Error(
      `urlnorm: ${pkg} is not installed. It is the optional dependency of urlnorm that carries the ` +
        `extension for ${key} with glibc; npm skips it on musl (Alpine) and with --omit=optional`,
      { cause: e },
    );
  }
}

/** The SQL statement that loads the extension. */
function loadStatement() {
  return `LOAD '${extensionPath().replaceAll("'", "''")}'`;
}

/**
 * Loads urlnorm's SQL functions into the database of connection (a
 * DuckDBConnection of @duckdb/node-api) and returns it. The instance must
 * have been created with { allow_unsigned_extensions: 'true' } (see create).
 */
async function load(connection) {
  const sql = loadStatement();
  try {
    await connection.run(sql);
  } catch (e) {
    const msg = String(e && e.message);
    if (/unsigned|signature/.test(msg)) {
      throw new Error(
        'urlnorm.load: DuckDB refuses unsigned extensions unless the instance is created with them ' +
          "allowed: use urlnorm.create(path, options), or DuckDBInstance.create(path, { allow_unsigned_extensions: 'true' }); " +
          `the setting cannot be changed on an open database (${msg})`,
        { cause: e },
      );
    }
    if (msg.includes('static TLS')) throw new Error(`urlnorm.load: ${msg} (${TLS_HINT})`, { cause: e });
    throw e;
  }
  return connection;
}

/**
 * DuckDBInstance.create(path, options) with allow_unsigned_extensions set
 * and urlnorm loaded (an extension loads into the whole database, so every
 * connection of the instance has the functions).
 */
async function create(path = ':memory:', options = {}) {
  const { DuckDBInstance } = require('@duckdb/node-api');
  const instance = await DuckDBInstance.create(path, { ...options, allow_unsigned_extensions: 'true' });
  const connection = await instance.connect();
  try {
    await load(connection);
  } finally {
    connection.closeSync();
  }
  return instance;
}

module.exports = { version, extensionPath, loadStatement, load, create };
