// Install test of the urlnorm npm package (run by packaging/npm/test.sh).
//
// test.sh copies this file into a fresh folder where the packed tarballs
// were npm-installed, so 'urlnorm' resolves to the installed package.
// Environment: URLNORM_ROOT (the repository: golden rows, profiles),
// URLNORM_VERSION (the release version).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';

import * as urlnorm from 'urlnorm';

const require = createRequire(import.meta.url);
const { DuckDBInstance } = require('@duckdb/node-api');
const root = process.env.URLNORM_ROOT;
const here = realpathSync(process.cwd());

test('version: package, export and release agree', () => {
  assert.equal(urlnorm.version, process.env.URLNORM_VERSION);
  assert.equal(require('urlnorm/package.json').version, urlnorm.version);
});

test('CommonJS and ES module entry points export the same functions', () => {
  const cjs = require('urlnorm');
  assert.deepEqual(Object.keys(cjs).sort(), ['create', 'extensionPath', 'load', 'loadStatement', 'version']);
  for (const k of Object.keys(cjs)) assert.equal(urlnorm[k], cjs[k], k);
});

test('extensionPath is the installed platform package file', () => {
  const p = urlnorm.extensionPath();
  const cpu = { x64: 'x64', arm64: 'arm64' }[process.arch];
  assert.equal(p, join(here, 'node_modules', '@urlnorm', `linux-${cpu}`, 'urlnorm.duckdb_extension'));
  assert.ok(existsSync(p));
  assert.equal(urlnorm.loadStatement(), `LOAD '${p}'`);
});

test('create: every connection has the functions', async () => {
  const db = await urlnorm.create();
  for (let i = 0; i < 2; i++) {
    const con = await db.connect();
    const rows = (await con.runAndReadAll("SELECT normalize_url('HTTPS://Example.COM/a/./b/')")).getRows();
    assert.deepEqual(rows, [['https://example.com/a/b']]);
  }
});

test('load without allow_unsigned_extensions: an error that says what to do', async () => {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  await assert.rejects(urlnorm.load(con), (e) => {
    assert.match(e.message, /urlnorm\.create\(path, options\)/);
    assert.match(e.message, /allow_unsigned_extensions/);
    assert.ok(e.cause, 'the DuckDB error is kept as the cause');
    return true;
  });
});

test('load returns its connection; a second load is harmless', async () => {
  const db = await DuckDBInstance.create(':memory:', { allow_unsigned_extensions: 'true' });
  const con = await db.connect();
  assert.equal(await urlnorm.load(con), con);
  assert.equal(await urlnorm.load(con), con);
});

// goUnquote returns the bytes of a Go double-quoted literal (golden files
// quote inputs with control bytes or invalid UTF-8 so).
function goUnquote(s) {
  const body = s.slice(1, -1);
  const out = [];
  const simple = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92, '"': 34, "'": 39 };
  for (let i = 0; i < body.length; ) {
    if (body[i] !== '\\') {
      out.push(...Buffer.from(body[i]));
      i++;
    } else if (body[i + 1] in simple) {
      out.push(simple[body[i + 1]]);
      i += 2;
    } else if (body[i + 1] === 'x') {
      out.push(parseInt(body.slice(i + 2, i + 4), 16));
      i += 4;
    } else if ('uU'.includes(body[i + 1])) {
      const n = body[i + 1] === 'u' ? 4 : 8;
      out.push(...Buffer.from(String.fromCodePoint(parseInt(body.slice(i + 2, i + 2 + n), 16))));
      i += 2 + n;
    } else {
      throw new Error(`unsupported escape in ${s}`);
    }
  }
  return Buffer.from(out);
}

// A golden field as a string, or null when it is not valid UTF-8 or holds
// a NUL (DuckDB's VARCHAR cannot carry it).
function field(s) {
  if (!s.startsWith('"')) return s;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(goUnquote(s));
    return text.includes('\0') ? null : text;
  } catch {
    return null;
  }
}

const lit = (s) => `'${s.replaceAll("'", "''")}'`;

test('golden rows of every profile through DuckDB', async () => {
  const db = await urlnorm.create();
  const con = await db.connect();
  const dir = join(root, 'testdata', 'golden');
  let checked = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.tsv'))) {
    const profile = file.slice(0, -4);
    const hash = JSON.parse(readFileSync(join(root, 'normalize', 'profiles', `${profile}.json`), 'utf8')).hash;
    const rows = readFileSync(join(dir, file), 'utf8').split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => l.split('\t'))
      .map(([input, want]) => ({ input: field(input), want: field(want) }))
      .filter((r) => r.input !== null);
    const values = rows.map((r, i) => `(${i}, ${lit(r.input)})`).join(', ');
    const got = (await con.runAndReadAll(
      `SELECT try_normalize_url(u, ${lit(profile)}), try_canonical_hash(u, ${lit(profile)})
       FROM (VALUES ${values}) t(i, u) ORDER BY i`)).getRows();
    for (const [i, { input, want }] of rows.entries()) {
      const where = `${file}: ${JSON.stringify(input)}`;
      if (want.startsWith('!')) {
        assert.equal(got[i][0], null, where);
        await assert.rejects(con.run(`SELECT normalize_url(${lit(input)}, ${lit(profile)})`),
          (e) => e.message.includes(`: ${want.slice(1)}`), where);
      } else {
        assert.equal(got[i][0], want, where);
        if (hash === 'sha256') assert.equal(got[i][1], createHash('sha256').update(want).digest('hex'), where);
        else assert.match(got[i][1], /^[0-9a-f]{16}$/, where);
      }
      checked++;
    }
  }
  assert.ok(checked > 300, `${checked} rows checked`);
});
