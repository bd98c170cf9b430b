// Load All Rows' page source over a real engine (DoltLite in memory): the wrapped pages it sends
// are run for real, so "the pages equal the plain query" is checked against the engine's own
// answer to the unwrapped query, not against the code under test.
import { strict as assert } from 'node:assert';
import { QueryPageError, QueryPageSource, loadAllPlan } from '../../../../src/core/paging/querySource';
import type { SqlRunner } from '../../../../src/core/sql/sqlPort';
import { pagesOf } from '../../../../src/core/paging/pagesOf';
import type { QueryResult } from '../../../../src/shared/wire';
import { createExportWriter } from '../../../../src/core/export/exportWriters';
import { ExportCancelled, createPendingFile, runExport } from '../../../../src/core/export/exportRun';
import { SqliteEngine } from '../../../helpers/sqliteEngine';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NO_VIEW = { sort: [], filters: [] };
const cols = (...names: string[]) => names.map((name) => ({ name }));

describe('Load All Rows page source (core/paging/querySource)', () => {
  let engine: SqliteEngine;
  before(async () => {
    engine = await SqliteEngine.open();
    engine.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, price REAL)');
    for (let i = 1; i <= 1234; i++) engine.exec('INSERT INTO t VALUES (?, ?, ?)', { bind: [i, i % 7 === 0 ? null : `item ${i}`, i / 4] });
  });
  after(() => engine.close());

  /**
   * Runs SQL in the engine the way the API does: at most `limit` rows, `row_limit` when more
   * were there. `budget` cuts a result after that many rows (the server's byte budget).
   */
  function runner(opts: { budget?: number; fail?: (sql: string) => QueryResult | undefined } = {}) {
    const sent: { sql: string; limit: number }[] = [];
    const run: SqlRunner = async (sql, { limit }) => {
      sent.push({ sql, limit });
      const failed = opts.fail?.(sql);
      if (failed) return failed;
      const all = engine.rows(sql);
      const cap = Math.min(limit, opts.budget ?? Infinity);
      const rows = all.slice(0, cap);
      const columns = (all[0] ?? []).map((_, i) => ({ name: `c${i}`, type: 'text' }));
      return {
        columns,
        rows,
        status: all.length > cap ? 'row_limit' : 'success',
        message: all.length > cap ? `stopped at ${cap}` : '',
      } as QueryResult;
    };
    return { run, sent };
  }

  const QUERY = 'SELECT id, name, price FROM t ORDER BY price DESC';

  it('pages read in order equal the plain query, the last one short and marked as the end', async () => {
    const { run, sent } = runner();
    const src = new QueryPageSource({ query: QUERY, run, columnCount: 3 });
    const signal = new AbortController().signal;
    const got: (string | null)[][] = [];
    for await (const page of pagesOf(src, NO_VIEW, 500, signal)) got.push(...page);
    assert.deepEqual(got, engine.rows(QUERY));
    assert.equal(got.length, 1234);
    // Every statement sent was the wrapped query, never the bare one.
    assert.ok(sent.every((s) => s.sql.startsWith('SELECT * FROM (\n') && s.sql.includes(QUERY)));
    const last = await src.read(1000, 1500, NO_VIEW, signal);
    assert.equal(last.rows.length, 234);
    assert.equal(last.end, true);
    const middle = await src.read(500, 1000, NO_VIEW, signal);
    assert.equal(middle.end, undefined);
    assert.deepEqual(middle.rows, engine.rows(QUERY).slice(500, 1000));
  });

  it('a page the server cuts short is read on from where it stopped, so a short page still means the end', async () => {
    const { run, sent } = runner({ budget: 120 });
    const src = new QueryPageSource({ query: QUERY, run, columnCount: 3 });
    const page = await src.read(100, 600, NO_VIEW, new AbortController().signal);
    assert.equal(page.rows.length, 500);
    assert.equal(page.end, undefined);
    assert.deepEqual(page.rows, engine.rows(QUERY).slice(100, 600));
    assert.equal(sent.length, 5, 'five reads of at most 120 rows');
  });

  it('counts the rows of the whole query', async () => {
    const { run } = runner();
    const src = new QueryPageSource({ query: 'SELECT * FROM t WHERE id > 34', run, columnCount: 3 });
    assert.equal(await src.count(NO_VIEW, new AbortController().signal), 1200);
  });

  it('a page that times out or fails names its rows and the server message', async () => {
    const timeout: QueryResult = { columns: [], rows: [], status: 'timeout', message: 'The query ran longer than 100 ms and was stopped.' };
    const { run } = runner({ fail: (sql) => (sql.includes('OFFSET 500') ? timeout : undefined) });
    const src = new QueryPageSource({ query: QUERY, run, columnCount: 3 });
    await assert.rejects(src.read(500, 1000, NO_VIEW, new AbortController().signal), (e: unknown) => {
      assert.ok(e instanceof QueryPageError);
      assert.equal(e.status, 'timeout');
      assert.match(
        e.message,
        /^Rows 501–1,000 timed out\. The query ran longer than 100 ms and was stopped\. Retry, or raise "versionedDb\.sql\.timeoutMs"\.$/,
      );
      return true;
    });
    const err: QueryResult = { columns: [], rows: [], status: 'error', message: 'no such table: t' };
    const broken = new QueryPageSource({ query: QUERY, run: runner({ fail: () => err }).run, columnCount: 3 });
    await assert.rejects(broken.read(0, 500, NO_VIEW, new AbortController().signal), /Rows 1–500 failed \(error\)\. no such table: t/);
    // The server stopping before a single row (one row larger than its budget) is an error, not the end.
    const tiny = new QueryPageSource({ query: QUERY, run: runner({ budget: 0 }).run, columnCount: 3 });
    await assert.rejects(tiny.read(0, 10, NO_VIEW, new AbortController().signal), /Rows 1–10: the server stopped before the first row/);
  });

  it('sorts and filters on the server by wrapping the query: pages equal the engine’s own sorted, filtered query', async () => {
    const { run, sent } = runner();
    const columns = [
      { name: 'id', type: 'bigint' },
      { name: 'name', type: 'text' },
      { name: 'price', type: 'decimal(10,2)' },
    ];
    const src = new QueryPageSource({ query: QUERY, run, columnCount: 3, columns });
    const signal = new AbortController().signal;
    const view = {
      sort: [{ column: 'name', direction: 'desc' as const }],
      filters: [{ column: 'price', op: 'range' as const, min: '10', max: '200' }],
    };
    assert.equal(src.checkView(view), undefined);
    const got: (string | null)[][] = [];
    for await (const page of pagesOf(src, view, 100, signal)) got.push(...page);
    // NULL names last when descending, as Dolt puts them; the other columns break ties.
    const expected = engine.rows('SELECT id, name, price FROM t WHERE price >= 10 AND price <= 200 ORDER BY name DESC, id, name, price');
    assert.equal(got.length, expected.length);
    assert.deepEqual(got, expected);
    assert.equal(await src.count(view, signal), expected.length);
    assert.ok(
      sent.every((s) => s.sql.includes('ORDER BY price DESC')),
      'every page wraps the query itself',
    );
    assert.match(src.checkView({ sort: [{ column: 'nope', direction: 'asc' }], filters: [] }) ?? '', /no column nope/);
    assert.equal(src.checkView(NO_VIEW), undefined);
  });

  describe('streamed export of every row (what Export… does after Load All Rows)', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'vdb-loadall-export-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    const columns = [
      { name: 'id', type: 'bigint' },
      { name: 'name', type: 'text' },
      { name: 'price', type: 'double' },
    ];

    it('writes every row of the query as CSV, one page at a time', async () => {
      const src = new QueryPageSource({ query: QUERY, run: runner().run, columnCount: 3 });
      const target = join(dir, 'all.csv');
      const file = await createPendingFile(target);
      const signal = new AbortController().signal;
      const progress: number[] = [];
      const rows = await runExport({
        pages: pagesOf(src, NO_VIEW, 500, signal),
        writer: createExportWriter('csv', columns, file),
        file,
        signal,
        onProgress: (n) => progress.push(n),
      });
      assert.equal(rows, 1234);
      assert.deepEqual(progress, [500, 1000, 1234]);
      const lines = readFileSync(target, 'utf8').trimEnd().split('\r\n');
      assert.equal(lines.length, 1235);
      const plain = engine.rows(QUERY);
      assert.equal(lines[1], plain[0]!.map((c) => c ?? '').join(','));
      assert.equal(lines[1234], plain[1233]!.map((c) => c ?? '').join(','));
    });

    it('cancelled after the second page, or failing on the third, leaves no file under the name', async () => {
      const abort = new AbortController();
      let reads = 0;
      const { run } = runner();
      const cancelling = new QueryPageSource({
        query: QUERY,
        columnCount: 3,
        run: async (q, opts) => {
          if (++reads === 2) abort.abort();
          return run(q, opts);
        },
      });
      const target = join(dir, 'cancelled.csv');
      const file = await createPendingFile(target);
      await assert.rejects(
        runExport({
          pages: pagesOf(cancelling, NO_VIEW, 500, abort.signal),
          writer: createExportWriter('csv', columns, file),
          file,
          signal: abort.signal,
        }),
        ExportCancelled,
      );
      assert.equal(existsSync(target), false);

      const timeout: QueryResult = { columns: [], rows: [], status: 'timeout', message: 'stopped' };
      const failing = new QueryPageSource({
        query: QUERY,
        columnCount: 3,
        run: runner({ fail: (q) => (q.includes('OFFSET 1000') ? timeout : undefined) }).run,
      });
      const target2 = join(dir, 'failed.csv');
      const file2 = await createPendingFile(target2);
      const signal = new AbortController().signal;
      await assert.rejects(
        runExport({
          pages: pagesOf(failing, NO_VIEW, 500, signal),
          writer: createExportWriter('csv', columns, file2),
          file: file2,
          signal,
        }),
        /Rows 1,001–1,500 timed out/,
      );
      assert.equal(existsSync(target2), false);
      assert.deepEqual(readdirSync(dir), [], 'no partial file is left beside it either');
    });
  });

  describe('loadAllPlan (whether Load All Rows is offered, and why not)', () => {
    const base: { sql: string; status: QueryResult['status']; columns: { name: string }[]; commit: string } = {
      sql: 'SELECT id, name FROM t;',
      status: 'row_limit',
      columns: cols('id', 'name'),
      commit: 'c'.repeat(32),
    };

    it('pages a single SELECT that stopped at the row limit, at its commit', () => {
      assert.deepEqual(loadAllPlan(base), { ok: true, query: 'SELECT id, name FROM t', commit: 'c'.repeat(32) });
    });

    const refusals: [string, Partial<typeof base>, RegExp][] = [
      [
        'a statement that is not a SELECT',
        { sql: 'DELETE FROM t' },
        /Only SELECT queries can be paged; this is DELETE\. Load All Rows pages a single SELECT only/,
      ],
      ['two statements', { sql: 'SELECT 1; SELECT 2' }, /single statement/],
      [
        'repeated column names',
        { columns: cols('id', 'name', 'ID') },
        /more than one column named "id"; give each a name of its own with AS/,
      ],
      ['a timed-out query', { status: 'timeout' }, /timed out, so there are no rows to page/],
      ['a complete result', { status: 'success' }, /Only a result that stopped at the row limit/],
      ['an unknown commit', { commit: undefined as unknown as string }, /commit this query ran at is not known/],
    ];
    for (const [what, change, reason] of refusals) {
      it(`refuses ${what}, saying why`, () => {
        const plan = loadAllPlan({ ...base, ...change });
        assert.equal(plan.ok, false);
        assert.match(plan.ok ? '' : plan.reason, reason);
      });
    }
  });
});
