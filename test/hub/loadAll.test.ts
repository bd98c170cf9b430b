// Load All Rows through the real hub over HTTP: the page source the notebook and the SQL result
// panel use (core/paging/querySource.ts), sending its wrapped pages to the SQL endpoint at the
// commit the query ran at. Expected rows come from plain reads or from arithmetic, never from the
// code under test.
import assert from 'node:assert/strict';
import { startHub, type HubHandle } from '../helpers/hub';
import type { QueryResult } from '../../src/shared/wire';
import { QueryPageSource, loadAllPlan } from '../../src/core/paging/querySource';
import type { SqlRunner } from '../../src/core/sql/sqlPort';
import { pagesOf } from '../../src/core/paging/pagesOf';
import { importCsv } from './importFlow';

const NO_VIEW = { sort: [], filters: [] };
// 50,000 rows from nothing: past the hub's --max-rows of 10,000 (its default).
const BIG = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50000)
SELECT i AS id, 'row ' || i AS label, i * 3 AS tripled FROM n`;

describe('Load All Rows through the hub', function () {
  let hub: HubHandle;
  const sent: string[] = [];

  before(async () => {
    hub = await startHub({ seed: true });
    await hub.token('alice');
  });
  after(async () => hub?.stop());

  async function sql(q: string, ref: string, limit?: number): Promise<QueryResult> {
    const r = await hub.fetch('/databases/alice/prices/sql', { user: 'alice', json: { ref, q, ...(limit ? { limit } : {}) } });
    assert.equal(r.status, 200, r.text);
    return r.body.data as QueryResult;
  }
  const at =
    (commit: string): SqlRunner =>
    async (q, opts) => {
      sent.push(q);
      return sql(q, commit, opts.limit);
    };
  async function commitOf(kind: 'branches' | 'tags', name: string): Promise<string> {
    const r = await hub.fetch(`/databases/alice/prices/${kind}`, { user: 'alice' });
    const item = r.body.data.find((b: { name: string }) => b.name === name);
    return item.head_commit_sha ?? item.commit_sha;
  }

  it('a 50,000-row query the hub stops at 10,000 reads whole, page by page, with its count', async () => {
    const commit = await commitOf('branches', 'main');
    const first = await sql(BIG, 'main', 60_000);
    assert.equal(first.status, 'row_limit');
    assert.equal(first.rows.length, 10_000, "the hub's own cap applied, below the asked 60,000");
    const plan = loadAllPlan({ sql: BIG, status: first.status, columns: first.columns, commit });
    assert.ok(plan.ok, JSON.stringify(plan));
    const src = new QueryPageSource({ query: plan.query, run: at(commit), columnCount: 3 });
    const signal = new AbortController().signal;
    assert.equal(await src.count(NO_VIEW, signal), 50_000);
    let n = 0;
    for await (const page of pagesOf(src, NO_VIEW, 10_000, signal)) {
      for (const row of page) {
        n++;
        assert.deepEqual(row, [String(n), `row ${n}`, String(n * 3)]);
      }
    }
    assert.equal(n, 50_000);
    // A page from the middle, as the grid asks when the user jumps to the end.
    const last = await src.read(49_500, 50_000, NO_VIEW, signal);
    assert.deepEqual(last.rows.at(-1), ['50000', 'row 50000', '150000']);
    assert.equal(last.rows.length, 500);
  });

  it('pages are read at the commit the query ran at, not at where the ref is now', async () => {
    const v1 = await commitOf('tags', 'v1');
    const q = 'SELECT id, name, price FROM products ORDER BY id';
    const atV1 = (await sql(q, 'v1')).rows;
    const atMain = (await sql(q, 'main')).rows;
    assert.notDeepEqual(atV1, atMain, 'the seed changes products after v1');
    const src = new QueryPageSource({ query: q, run: at(v1), columnCount: 3 });
    const got: (string | null)[][] = [];
    for await (const page of pagesOf(src, NO_VIEW, 2, new AbortController().signal)) got.push(...page);
    assert.deepEqual(got, atV1);
  });

  it('a page that times out on the hub says which rows, and the statement was the wrapped SELECT only', async () => {
    const commit = await commitOf('branches', 'main');
    sent.length = 0;
    const slow = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000000) SELECT i FROM n`;
    const run: SqlRunner = async (q, opts) => {
      sent.push(q);
      const r = await hub.fetch('/databases/alice/prices/sql', {
        user: 'alice',
        json: { ref: commit, q, limit: opts.limit, timeout_ms: 200 },
      });
      return r.body.data as QueryResult;
    };
    const src = new QueryPageSource({ query: slow, run, columnCount: 1 });
    await assert.rejects(
      src.read(50_000_000, 50_000_500, NO_VIEW, new AbortController().signal),
      /^QueryPageError: Rows 50,000,001–50,000,500 timed out\./,
    );
    assert.equal(sent.length, 1);
    assert.match(sent[0]!, /^SELECT \* FROM \(\nWITH RECURSIVE/);
  });

  it('SELECT * FROM a keyed table pages by its primary key after the first page (no OFFSET), continuing the first result', async () => {
    // Composite key, rows written out of key order: 6,000 × 2 = 12,000 rows, past the hub's 10,000.
    const lines = ['a,b,v'];
    for (let a = 5999; a >= 0; a--) for (const b of ['y', 'x']) lines.push(`${a},${b},${a * 2 + (b === 'y' ? 1 : 0)}`);
    await importCsv(hub, 'alice/prices', 'main', 'pairs', 'create', `${lines.join('\n')}\n`, { primary_keys: ['a', 'b'] });
    const commit = await commitOf('branches', 'main');
    const q = 'SELECT * FROM `pairs`;';
    const first = await sql(q, commit, 60_000);
    assert.equal(first.status, 'row_limit');
    const plan = loadAllPlan({ sql: q, status: first.status, columns: first.columns, commit });
    assert.ok(plan.ok, JSON.stringify(plan));
    const src = new QueryPageSource({ query: plan.query, run: at(commit), columnCount: 3, columns: first.columns });
    const signal = new AbortController().signal;
    sent.length = 0;
    const got: (string | null)[][] = [];
    for await (const page of pagesOf(src, NO_VIEW, 2_500, signal)) got.push(...page);
    // Expected by arithmetic: key order is a ascending, then b ('x' before 'y').
    const want = Array.from({ length: 12_000 }, (_, i) => {
      const a = Math.floor(i / 2);
      const b = i % 2 === 0 ? 'x' : 'y';
      return [String(a), b, String(a * 2 + (b === 'y' ? 1 : 0))];
    });
    assert.deepEqual(got, want);
    assert.deepEqual(first.rows, want.slice(0, 10_000), 'the pages continue the first result');
    const pages = sent.filter((x) => !x.startsWith('DESCRIBE'));
    assert.equal(pages.length, 5);
    assert.ok(
      pages.slice(1).every((x) => !/OFFSET/.test(x) && /WHERE/.test(x)),
      pages.join('\n'),
    );
    // A jump (not after the last read) reads by offset, in the same order.
    const jump = await src.read(7_001, 7_004, NO_VIEW, signal);
    assert.deepEqual(jump.rows, want.slice(7_001, 7_004));
  });

  it('a query that is not SELECT * FROM one table still pages by OFFSET over the wrapped query', async () => {
    const commit = await commitOf('branches', 'main');
    sent.length = 0;
    const src = new QueryPageSource({ query: 'SELECT * FROM products WHERE id > 1', run: at(commit), columnCount: 5 });
    const page = await src.read(0, 2, NO_VIEW, new AbortController().signal);
    assert.deepEqual(page.rows, (await sql('SELECT * FROM products WHERE id > 1 LIMIT 2', commit)).rows);
    assert.deepEqual(sent, ['SELECT * FROM (\nSELECT * FROM products WHERE id > 1\n) AS `q` LIMIT 2 OFFSET 0']);
  });
});
