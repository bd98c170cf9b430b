// The table-browsing and Load All Rows SQL from src/core/sql, sent over HTTP to the real hub
// (dist/hub.js) at a fixed commit, as the table browser will: pages equal plain reads, hostile
// filter text never breaks the statement, and a non-SELECT is never wrapped.
import assert from 'node:assert/strict';
import { startHub, type HubHandle } from '../helpers/hub';
import type { QueryResult } from '../../src/shared/wire';
import { parseDescribe } from '../../src/core/sql/completion';
import { buildCountQuery, buildPageQuery, cursorOf, planPage, type PagePosition, type TableView } from '../../src/core/sql/tableQuery';
import { checkPageable, wrapCount, wrapPage } from '../../src/core/sql/pagedQuery';
import { HOSTILE_TEXT } from '../unit/core/sql/hostileText';

describe('table browsing SQL against the hub', function () {
  let hub: HubHandle;
  let commit: string;
  let view: TableView;

  before(async function () {
    hub = await startHub({ seed: true });
    await hub.token('alice');
    const branches = await hub.fetch('/databases/alice/prices/branches');
    commit = branches.body.data.find((b: { name: string }) => b.name === 'main').head_commit_sha;
    const described = await sql('DESCRIBE `products`');
    view = { table: 'products', columns: parseDescribe(described as unknown as QueryResult) };
  });
  after(async () => hub?.stop());

  // The ref every statement runs at: the commit, as the table browser reads (sorting there needs
  // the hub's workaround for DoltLite's read-only connections at a commit: commitSnapshot.ts).
  // A test may set `at` to run at a branch instead.
  let at = '';
  async function sql(q: string): Promise<{ status: string; message?: string; rows: (string | null)[][]; columns: { name: string }[] }> {
    const r = await hub.fetch(`/databases/alice/prices/sql?ref=${encodeURIComponent(at || commit)}&q=${encodeURIComponent(q)}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data;
  }

  async function walk(v: TableView, pageSize: number): Promise<(string | null)[][]> {
    const out: (string | null)[][] = [];
    let position: PagePosition = { kind: 'first' };
    for (let guard = 0; guard < 100; guard++) {
      const q = buildPageQuery(v, position, pageSize);
      const d = await sql(q.sql);
      assert.equal(d.status, 'success', `${q.sql}: ${d.message}`);
      const rows = q.reversed ? d.rows.slice().reverse() : d.rows;
      out.push(...rows);
      if (rows.length < pageSize) break;
      const key = cursorOf(v, rows[rows.length - 1]!);
      position = key ? { kind: 'after', key } : { kind: 'offset', offset: out.length };
    }
    return out;
  }

  it('reads the described columns with the primary key', () => {
    assert.deepEqual(
      view.columns.map((c) => [c.name, c.primaryKey]),
      [
        ['id', true],
        ['name', false],
        ['category', false],
        ['price', false],
        ['updated_at', false],
      ],
    );
  });

  afterEach(() => {
    at = '';
  });

  it('keyset pages at a commit equal a plain read; the last page comes straight from the end', async () => {
    const plain = (await sql('SELECT id, name, category, price, updated_at FROM products ORDER BY id')).rows;
    assert.equal(plain.length, 5);
    assert.deepEqual(await walk(view, 2), plain);
    const last = planPage(view, 2, 2, { totalRows: 5 });
    const q = buildPageQuery(view, last.position, last.limit);
    assert.deepEqual((await sql(q.sql)).rows.reverse(), plain.slice(4));
  });

  async function sortedWalks(): Promise<void> {
    const byTime = (await sql('SELECT id, name, category, price, updated_at FROM products ORDER BY updated_at DESC, id')).rows;
    assert.deepEqual(await walk({ ...view, sort: [{ column: 'updated_at', direction: 'desc' }] }, 2), byTime);
    const byPrice = (await sql('SELECT id, name, category, price, updated_at FROM products ORDER BY price, id')).rows;
    assert.deepEqual(await walk({ ...view, sort: [{ column: 'price', direction: 'asc' }] }, 2), byPrice);
  }

  it('keyset pages sorted by a nullable column both ways equal a plain read (at the branch)', async () => {
    at = 'main';
    await sortedWalks();
  });

  it('keyset pages sorted by a non-key column at a commit equal a plain read', async () => {
    await sortedWalks();
  });

  it('hostile filter text never breaks the SQL at a commit: every filter runs and COUNT agrees with the rows', async () => {
    for (const text of [...HOSTILE_TEXT, 'Apple', 'an', '0.5']) {
      for (const op of ['contains', 'equals'] as const) {
        const v: TableView = { ...view, filters: [{ column: 'name', op, value: text }] };
        const rows = await walk(v, 3);
        const count = await sql(buildCountQuery(v));
        assert.equal(count.status, 'success', `${op} ${JSON.stringify(text)}: ${count.message}`);
        assert.equal(count.rows[0]![0], String(rows.length));
      }
    }
    const apple = await walk({ ...view, filters: [{ column: 'name', op: 'contains', value: 'pp' }] }, 3);
    assert.deepEqual(
      apple.map((r) => r[1]),
      ['Apple'],
    );
    const range = await walk(
      {
        ...view,
        filters: [
          { column: 'price', op: 'range', min: '0.30', max: '1.10' },
          { column: 'updated_at', op: 'isNotNull' },
        ],
      },
      3,
    );
    assert.deepEqual(
      range.map((r) => r[1]),
      ['Apple', 'Carrot', 'Milk'],
    );
  });

  it('Load All Rows pages a query at a commit; a non-SELECT is refused', async () => {
    const q = 'SELECT p.name, s.city FROM products p JOIN stores s ON s.id = p.id ORDER BY p.name -- a note';
    const all = (await sql(q)).rows;
    const paged: (string | null)[][] = [];
    for (let offset = 0; offset < all.length + 2; offset += 2) {
      const d = await sql(wrapPage(q, 2, offset));
      assert.equal(d.status, 'success', d.message);
      paged.push(...d.rows);
    }
    assert.deepEqual(paged, all);
    assert.equal((await sql(wrapCount(q))).rows[0]![0], String(all.length));
    assert.equal(checkPageable('DELETE FROM products').ok, false);
  });
});
