// Which queries are pages of a row diff the hub may serve from a copy (diffPageShape.ts through
// the rewriter, against a fake engine), and, on the real engine in this process, that the pages
// of one diff share one copy while another pair gets its own. What the pages answer is checked
// over HTTP in diffPages.test.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import init from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import { rewriteDoltSql } from '../../src/hub/doltSql/rewrite';
import type { DiffPageRequest, DoltSqlContext } from '../../src/hub/doltSql/common';
import { EngineCore } from '../../src/hub/engineWorker';
import { hexToDoltHash } from '../../src/hub/doltHash';
import {
  buildChangedColumnsQuery,
  buildRowDiffCountQuery,
  buildRowDiffPageQuery,
  type DiffTableSpec,
} from '../../src/core/review/doltQueries';
import { ID_VALUE_SPEC } from './fixtures/diffSpecs';
import { twoDot } from '../../src/core/review/revisions';
import type { Cell } from '../../src/shared/wire';

const FROM = 'a'.repeat(40);
const TO = 'b'.repeat(40);
const COLUMNS = [
  'to_region',
  'to_id',
  'to_qty',
  'to_commit',
  'to_commit_date',
  'from_region',
  'from_id',
  'from_qty',
  'from_commit',
  'from_commit_date',
  'diff_type',
];

function fakeEngine(): { ctx: DoltSqlContext; asked: DiffPageRequest[] } {
  const asked: DiffPageRequest[] = [];
  const ctx: DoltSqlContext = {
    resolve: (spec) => ({ main: FROM, next: TO, [FROM]: FROM, [TO]: TO })[spec] ?? null,
    mergeBase: () => FROM,
    columns: (sql) => (/dolt_diff_stock"?\(/.test(sql) ? COLUMNS : { error: `no such table: ${sql}` }),
    rows: () => [],
    previewMerge: () => ({ error: 'not here' }),
    diffPage: (req) => {
      asked.push(req);
      return { fn: 'hub_diff_cell', slot: 0, rows: [3, 4] };
    },
  };
  return { ctx, asked };
}

const spec: DiffTableSpec = {
  table: 'stock',
  fromColumns: [
    { name: 'region', type: 'text', primaryKey: true },
    { name: 'id', type: 'integer', primaryKey: true },
    { name: 'qty', type: 'integer', primaryKey: false },
  ],
  toColumns: [
    { name: 'region', type: 'text', primaryKey: true },
    { name: 'id', type: 'integer', primaryKey: true },
    { name: 'qty', type: 'integer', primaryKey: false },
  ],
};
const pair = twoDot('main', 'next');

describe('row diff page shapes (served from a copy of the diff)', () => {
  const served = (sql: string): { req?: DiffPageRequest; sql: string; describeSql?: string } => {
    const { ctx, asked } = fakeEngine();
    const r = rewriteDoltSql(sql, ctx);
    if ('error' in r) throw new Error(r.error);
    return { ...(asked[0] ? { req: asked[0] } : {}), ...r };
  };

  it('every page the Changes view sends is one: first, after a cursor (a backslash key sent as CAST), at an offset, by kind', () => {
    const first = served(buildRowDiffPageQuery(pair, spec, { position: { kind: 'first' }, pageSize: 500 }).sql);
    assert.deepEqual(first.req?.shape.orderBy, ['COALESCE(`to_region`, `from_region`)', 'COALESCE(`to_id`, `from_id`)']);
    assert.deepEqual(first.req?.shape.orderColumns, ['to_region', 'from_region', 'to_id', 'from_id']);
    assert.equal(first.req?.shape.limit, 501);
    assert.equal(first.req?.shape.cursor, undefined);
    assert.match(
      first.sql,
      /FROM \(SELECT .*hub_diff_cell\(0, "r"\."column1", 0\) AS "to_region".* FROM \(VALUES \(3\), \(4\)\) AS "r"\) AS "dolt_diff" ORDER BY/,
    );
    assert.match(
      first.describeSql ?? '',
      /FROM "dolt_diff_stock"\('a{40}', 'b{40}'\)\) AS "dolt_diff" ORDER BY/,
      'the columns are described from the whole diff',
    );

    const after = served(
      buildRowDiffPageQuery(pair, spec, { position: { kind: 'after', key: ['a\\b', '-7'] }, pageSize: 50, kinds: ['added', 'removed'] })
        .sql,
    );
    assert.deepEqual(after.req?.shape.kinds, ['added', 'removed']);
    assert.equal(after.req?.shape.cursor?.keys, 2);
    assert.equal(after.req?.shape.cursor?.sql, "(?1 > (CAST(X'615C62' AS CHAR))) OR (?1 = (CAST(X'615C62' AS CHAR)) AND ?2 > (-7))");

    const one = served(
      buildRowDiffPageQuery(pair, spec, { position: { kind: 'after', key: ['north', '3'] }, pageSize: 5, kinds: ['modified'] }).sql,
    );
    assert.deepEqual(one.req?.shape.kinds, ['modified']);

    const jump = served(buildRowDiffPageQuery(pair, spec, { position: { kind: 'offset', offset: 1200 }, pageSize: 100 }).sql);
    assert.equal(jump.req?.shape.offset, 1200);
    assert.match(jump.sql, /LIMIT 101 OFFSET 0$/, 'the page starts at the offset, so the query keeps no offset of its own');

    const keyless: DiffTableSpec = {
      table: 'stock',
      fromColumns: spec.fromColumns.map((c) => ({ ...c, primaryKey: false })),
      toColumns: spec.toColumns.map((c) => ({ ...c, primaryKey: false })),
    };
    const natural = served(
      buildRowDiffPageQuery(pair, keyless, { position: { kind: 'offset', offset: 30 }, pageSize: 10, kinds: ['added'] }).sql,
    );
    assert.deepEqual(natural.req?.shape.orderBy, []);
    assert.equal(natural.req?.shape.offset, 30);
  });

  it('anything else reads the diff as written', () => {
    const head = "SELECT diff_type, to_id, from_id FROM DOLT_DIFF('main', 'next', 'stock')";
    const k = 'COALESCE(to_id, from_id)';
    const notPages = [
      buildRowDiffCountQuery(pair, 'stock').sql,
      buildChangedColumnsQuery(pair, 'stock', ['qty']).sql,
      `${head} ORDER BY ${k}`,
      `${head} WHERE diff_type = 'added' OR ${k} > 3 ORDER BY ${k} LIMIT 5`,
      `${head} WHERE ${k} > 3 OR diff_type = 'added' ORDER BY ${k} LIMIT 5`,
      `${head} WHERE ${k} < 3 ORDER BY ${k} LIMIT 5`,
      `${head} WHERE ${k} > 3 ORDER BY ${k} DESC LIMIT 5`,
      `${head} WHERE to_qty > 3 ORDER BY ${k} LIMIT 5`,
      `${head} WHERE ${k} > to_qty ORDER BY ${k} LIMIT 5`,
      `${head} WHERE ${k} > (SELECT 1) ORDER BY ${k} LIMIT 5`,
      `${head} WHERE diff_type = "added" ORDER BY ${k} LIMIT 5`,
      `${head} WHERE diff_type = 'add\\'' ORDER BY ${k} LIMIT 5`,
      `${head} ORDER BY 1 LIMIT 5`,
      `${head} ORDER BY lower(to_id) LIMIT 5`,
      `SELECT diff_type, to_id AS from_id FROM DOLT_DIFF('main', 'next', 'stock') ORDER BY ${k} LIMIT 5`,
      `SELECT count(*) FROM DOLT_DIFF('main', 'next', 'stock') LIMIT 5`,
      `SELECT DISTINCT diff_type FROM DOLT_DIFF('main', 'next', 'stock') LIMIT 5`,
      `${head} GROUP BY diff_type LIMIT 5`,
      `${head} AS d JOIN DOLT_DIFF('main', 'next', 'stock') AS e ON 1 LIMIT 5`,
      `${head} LIMIT 5, 10`,
      `${head} LIMIT 5 UNION ALL SELECT 1, 2, 3`,
      `SELECT * FROM (${head} LIMIT 5)`,
      `${head} WHERE (${k} > 3 OR (${k} = 4 AND to_qty > 1)) ORDER BY ${k}, to_qty LIMIT 5`,
      `${head} LIMIT 50000`,
    ];
    for (const q of notPages) {
      const r = served(q);
      assert.equal(r.req, undefined, q);
      assert.equal(r.describeSql, undefined, q);
      assert.doesNotMatch(r.sql, /hub_diff_cell/, q);
    }
  });
});

describe('copies of row diffs in an engine worker', function () {
  this.timeout(120_000);
  let dir: string;
  let core: EngineCore;
  let hashes: string[];
  const db = (): { key: string; path: string; version: number } => ({ key: 'alice/t', path: join(dir, 't.db'), version: 1 });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vdb-diffcopy-'));
    const sqlite3 = await init();
    const gen = new sqlite3.oo1.DB('/copies-gen.db', 'c');
    gen.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    gen.exec("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO t SELECT i, 'v' || i FROM n");
    gen.exec('CREATE TABLE c (a TEXT NOT NULL, b INTEGER NOT NULL, v TEXT, PRIMARY KEY (a, b))');
    gen.exec(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400) INSERT INTO c SELECT CASE i % 4 WHEN 0 THEN 'a\\b' WHEN 1 THEN '😀' WHEN 2 THEN 'é' ELSE 'Z' END, i, 'v' FROM n",
    );
    gen.exec("SELECT dolt_commit('-A', '-m', 'one')");
    gen.exec("UPDATE c SET v = 'w' WHERE b % 3 = 0");
    gen.exec("UPDATE t SET v = v || '!' WHERE id % 2 = 0");
    gen.exec("SELECT dolt_commit('-A', '-m', 'two')");
    gen.exec('DELETE FROM t WHERE id > 2900');
    gen.exec("SELECT dolt_commit('-A', '-m', 'three')");
    hashes = (gen.selectValues('SELECT commit_hash FROM dolt_log') as string[]).reverse().map(hexToDoltHash).slice(-3);
    writeFileSync(join(dir, 't.db'), sqlite3.capi.sqlite3_js_db_export(gen.pointer));
    gen.close();
    core = await EngineCore.create();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const tSpec = ID_VALUE_SPEC;
  const run = (from: string, to: string, position: Parameters<typeof buildRowDiffPageQuery>[2]['position']) => {
    const q = buildRowDiffPageQuery(twoDot(from, to), tSpec, { position, pageSize: 100 });
    const r = core.query(db(), { branch: 'main' }, q.sql, 1000, 30_000, 't', {
      maxBytes: 1 << 24,
      maxValueBytes: 1 << 20,
      memoryBytes: 1 << 28,
    });
    assert.equal(r.status, 'success', r.message);
    return r.rows;
  };

  it('reads a diff once for all its pages; another pair is another copy', () => {
    const [one, two, three] = hashes as [string, string, string];
    assert.deepEqual(core.diffCopyStats().copies, 0);
    const first = run(one, three, { kind: 'first' });
    assert.equal(core.diffCopyStats().copies, 1, 'the first page started the copy (read as its pages need it)');
    assert.equal(first.length, 101);
    const next = run(one, three, { kind: 'after', key: [first[99]![3] ?? first[99]![1]!] });
    assert.equal(core.diffCopyStats().copies, 1, 'the second page read the same copy');
    assert.deepEqual(run(one, three, { kind: 'first' }), first, 'the first page again, now from the copy');
    assert.equal(core.diffCopyStats().copies, 1);
    assert.equal(next.length, 101);
    run(one, three, { kind: 'offset', offset: 1400 });
    assert.equal(core.diffCopyStats().copies, 1);
    run(one, two, { kind: 'offset', offset: 100 });
    assert.equal(core.diffCopyStats().copies, 2, 'a diff between other commits is copied on its own');
    assert.ok(core.diffCopyStats().bytes > 0);
  });

  it('a composite text key pages from its copy (cursor sent as CAST for a backslash, an emoji)', () => {
    const [one, two] = hashes as [string, string, string];
    const cSpec: DiffTableSpec = {
      table: 'c',
      fromColumns: [
        { name: 'a', type: 'text', primaryKey: true },
        { name: 'b', type: 'integer', primaryKey: true },
        { name: 'v', type: 'text', primaryKey: false },
      ],
      toColumns: [
        { name: 'a', type: 'text', primaryKey: true },
        { name: 'b', type: 'integer', primaryKey: true },
        { name: 'v', type: 'text', primaryKey: false },
      ],
    };
    const query = (sql: string) =>
      core.query(db(), { branch: 'main' }, sql, 1000, 30_000, 't', { maxBytes: 1 << 24, maxValueBytes: 1 << 20, memoryBytes: 1 << 28 });
    const wholeQ = buildRowDiffPageQuery(twoDot(one, two), cSpec, { position: { kind: 'first' }, pageSize: 1 }).sql.replace(
      / LIMIT \d+$/,
      '',
    );
    const whole = query(wholeQ).rows;
    assert.equal(whole.length, 133);
    const before = core.diffCopyStats().copies;
    const rows: Cell[][] = [];
    let position: Parameters<typeof buildRowDiffPageQuery>[2]['position'] = { kind: 'first' };
    for (;;) {
      const page: Cell[][] = query(buildRowDiffPageQuery(twoDot(one, two), cSpec, { position, pageSize: 10 }).sql).rows;
      rows.push(...page.slice(0, 10));
      if (page.length <= 10) break;
      const last: Cell[] = page[9]!;
      position = { kind: 'after', key: [last[4]!, last[5]!] };
    }
    assert.deepEqual(rows, whole);
    assert.equal(core.diffCopyStats().copies, before + 1, 'one copy served every page');
  });

  it('a diff larger than the copies may take is not copied, and its pages read the diff as written', async () => {
    const [one, , three] = hashes as [string, string, string];
    const small = await EngineCore.create(20_000);
    const q = (position: Parameters<typeof buildRowDiffPageQuery>[2]['position']) => {
      const sql = buildRowDiffPageQuery(twoDot(one, three), tSpec, { position, pageSize: 100 }).sql;
      const r = small.query(db(), { branch: 'main' }, sql, 1000, 30_000, 't', {
        maxBytes: 1 << 24,
        maxValueBytes: 1 << 20,
        memoryBytes: 1 << 28,
      });
      assert.equal(r.status, 'success', r.message);
      return r.rows;
    };
    const first = q({ kind: 'first' });
    const second = q({ kind: 'after', key: [first[99]![3] ?? first[99]![1]!] });
    assert.equal(small.diffCopyStats().copies, 0);
    assert.deepEqual(second, run(one, three, { kind: 'after', key: [first[99]![3] ?? first[99]![1]!] }), 'the same rows as from a copy');
  });
});
