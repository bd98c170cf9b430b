// The Dolt SQL rewriter's text handling, against a fake engine: what it must leave alone
// (strings, quoted names, comments, other SQL) and where its edits land. What the rewritten
// SQL answers is checked against the real engine in doltSql.test.ts.
import assert from 'node:assert/strict';
import { rewriteDoltSql } from '../../src/hub/doltSql/rewrite';
import type { DoltSqlContext } from '../../src/hub/doltSql/common';
import { hexToDoltHash } from '../../src/hub/doltHash';

const MAIN = 'a'.repeat(40);
const FEAT = 'b'.repeat(40);
const BASE = 'c'.repeat(40);

const fake: DoltSqlContext = {
  resolve: (spec) => ({ main: MAIN, HEAD: MAIN, feat: FEAT, [MAIN]: MAIN, [FEAT]: FEAT })[spec] ?? null,
  mergeBase: () => BASE,
  columns: (sql) => {
    if (/dolt_diff_t"?\(/.test(sql))
      return ['to_id', 'to_commit', 'to_commit_date', 'from_id', 'from_commit', 'from_commit_date', 'diff_type'];
    if (/"dolt_at_t"/.test(sql)) return ['id'];
    if (/"dolt_log"/.test(sql)) return ['commit_hash', 'message'];
    return { error: `no such table: ${sql}` };
  },
  rows: () => [],
  previewMerge: () => ({ error: 'not here' }),
};

const rw = (sql: string): string => {
  const r = rewriteDoltSql(sql, fake);
  if ('error' in r) throw new Error(r.error);
  return r.sql;
};

describe('hub Dolt SQL rewriting (text)', () => {
  it('leaves SQL without Dolt forms exactly as written', () => {
    for (const sql of [
      'SELECT 1',
      "SELECT * FROM products WHERE name = 'DOLT_DIFF(1, 2, 3)' -- AS OF 'main'\n",
      "SELECT `as of`, \"HASHOF('x')\" FROM t /* FROM dolt_log */ WHERE x LIKE 'AS OF %'",
      'SELECT hashof FROM t',
      'SELECT * FROM t AS o JOIN u ON u.id = o.id',
    ]) {
      assert.equal(rw(sql), sql);
    }
  });

  it('rewrites a literal HASHOF to the base32 hash and keeps the column name', () => {
    assert.equal(rw("SELECT HASHOF('main')"), `SELECT '${hexToDoltHash(MAIN)}' AS "HASHOF('main')"`);
    assert.equal(rw("SELECT HASHOF('main') AS h"), `SELECT '${hexToDoltHash(MAIN)}' AS h`);
    assert.equal(rw("SELECT 1 WHERE x = HASHOF('feat')"), `SELECT 1 WHERE x = '${hexToDoltHash(FEAT)}'`);
  });

  it('wraps computed HASHOF and merge-base arguments in the conversion functions, nested calls included', () => {
    assert.equal(rw('SELECT HASHOF(name) FROM b'), 'SELECT dolt_hash32(dolt_hashof(dolt_rev(name))) FROM b');
    assert.equal(
      rw("SELECT dolt_merge_base(a.x, HASHOF('feat')) FROM a"),
      `SELECT dolt_hash32(dolt_merge_base(dolt_rev(a.x), dolt_rev('${hexToDoltHash(FEAT)}'))) FROM a`,
    );
  });

  it('turns DOLT_DIFF into a subquery over dolt_diff_<t> with constant base32 hashes, keeping a given alias', () => {
    const out = rw("SELECT * FROM DOLT_DIFF('main', 'feat', 't') WHERE diff_type = 'added'");
    assert.equal(
      out,
      `SELECT * FROM (SELECT "to_id", '${hexToDoltHash(FEAT)}' AS to_commit, "to_commit_date", "from_id", '${hexToDoltHash(MAIN)}' AS from_commit, "from_commit_date", "diff_type" FROM "dolt_diff_t"('${MAIN}', '${FEAT}')) AS "dolt_diff" WHERE diff_type = 'added'`,
    );
    assert.match(
      rw("SELECT d.to_id FROM dolt_diff('main...feat', 't') d"),
      new RegExp(`FROM "dolt_diff_t"\\('${BASE}', '${FEAT}'\\)\\) d$`),
    );
  });

  it('rewrites AS OF with or without an alias, and qualified names still resolve', () => {
    assert.equal(rw("SELECT t.id FROM t AS OF 'feat'"), `SELECT t.id FROM "dolt_at_t"('${FEAT}') AS "t"`);
    assert.equal(
      rw("SELECT o.id FROM t AS OF 'main' AS o, t AS OF 'feat' n"),
      `SELECT o.id FROM "dolt_at_t"('${MAIN}') AS o, "dolt_at_t"('${FEAT}') n`,
    );
    assert.equal(rw("SELECT * FROM t AS OF HASHOF('feat')"), `SELECT * FROM "dolt_at_t"('${FEAT}') AS "t"`);
  });

  it('reads system tables through a converting subquery, in FROM lists and joins', () => {
    const log =
      '(SELECT dolt_hash32(l."commit_hash") AS "commit_hash", l."message", h.column2 AS commit_order FROM "dolt_log" AS l LEFT JOIN (SELECT NULL AS column1, NULL AS column2 LIMIT 0) AS h ON h.column1 = l."commit_hash")';
    assert.equal(rw('SELECT l.message FROM dolt_log l'), `SELECT l.message FROM ${log} l`);
    assert.equal(rw('SELECT * FROM x JOIN dolt_log ON 1'), `SELECT * FROM x JOIN ${log} AS "dolt_log" ON 1`);
    assert.equal(rw('SELECT * FROM dolt_history_t'), 'SELECT * FROM dolt_history_t', 'left to the engine when it is not a table here');
  });

  it('names the problem in its errors', () => {
    const err = (sql: string): string => {
      const r = rewriteDoltSql(sql, fake);
      assert.ok('error' in r, sql);
      return r.error;
    };
    assert.match(err("SELECT * FROM DOLT_DIFF('main', 'ghost', 't')"), /"ghost"/);
    assert.match(err("SELECT * FROM DOLT_DIFF('main', 'feat', 'nope')"), /table not found: nope/);
    assert.match(err("SELECT * FROM DOLT_DIFF('main', 'feat', concat('t'))"), /argument 3 must be a literal/);
    assert.match(err("SELECT * FROM nope AS OF 'main'"), /table not found: nope/);
    assert.match(err("SELECT HASHOF('a', 'b')"), /1 argument, got 2/);
  });
});
