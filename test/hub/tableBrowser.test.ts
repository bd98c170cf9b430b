// The Tables node's catalog SQL and the table browser's PageSource through the real hub
// (dist/hub.js) at a fixed commit, as the extension sends them: the tables and columns at a ref,
// pages read by keyset and from the end equal plain `SELECT … ORDER BY` reads, a table missing at
// a commit is said clearly, and filter text with quotes, backticks, percent signs, underscores
// and unicode matches literally against rows that hold those characters.
import assert from 'node:assert/strict';
import { startHub, type HubHandle } from '../helpers/hub';
import { hubSql, hubSqlPort } from '../helpers/hubSql';
import { importCsv } from './importFlow';
import type { QueryResult } from '../../src/shared/wire';
import type { PageView } from '../../src/core/paging/pageServer';
import { SHOW_FULL_TABLES, TableCatalogCache, buildDescribe, parseColumnsOf, parseFullTables } from '../../src/core/sql/tableCatalog';
import { TableSource } from '../../src/core/paging/tableSource';
import { TableGoneError, openTableAt } from '../../src/core/paging/tableOpening';
import { HOSTILE_TEXT } from '../unit/core/sql/hostileText';

describe('tables at a ref and the table browser against the hub', function () {
  let hub: HubHandle;
  const prices = hubSql(() => hub, 'alice/prices');
  const hostile = hubSql(() => hub, 'alice/hostile');
  const heads: Record<string, string> = {};

  before(async function () {
    hub = await startHub({ seed: true });
    const branches = await hub.fetch('/databases/alice/prices/branches', { user: 'alice' });
    for (const b of branches.body.data) heads[b.name] = b.head_commit_sha;
    const tags = await hub.fetch('/databases/alice/prices/tags', { user: 'alice' });
    for (const t of tags.body.data) heads[t.name] = t.commit_sha;
  });
  after(async () => hub?.stop());

  const runAt =
    (db: string, commit: string) =>
    async (sql: string, opts: { limit: number }): Promise<QueryResult> => {
      const r = await hub.fetch(`/databases/${db}/sql`, { user: 'alice', json: { ref: commit, q: sql, limit: opts.limit } });
      assert.equal(r.status, 200, r.text);
      return r.body.data as QueryResult;
    };
  const catalog = () => new TableCatalogCache(hubSqlPort(() => hub));
  const signal = new AbortController().signal;
  const ALL: PageView = { sort: [], filters: [] };

  async function readAll(s: TableSource, view: PageView, pageSize: number): Promise<(string | null)[][]> {
    const out: (string | null)[][] = [];
    for (let start = 0; ; start += pageSize) {
      const page = await s.read(start, start + pageSize, view, signal);
      out.push(...page.rows);
      if (page.end) return out;
    }
  }

  it('SHOW FULL TABLES lists the tables at each commit with their kind; DESCRIBE gives type, key and nullability', async () => {
    assert.deepEqual(parseFullTables(await prices.ok(SHOW_FULL_TABLES, heads.main)), [
      { name: 'products', kind: 'table' },
      { name: 'stores', kind: 'table' },
      { name: 'suppliers', kind: 'table' },
    ]);
    // v1 was tagged before the suppliers table existed.
    assert.deepEqual(
      parseFullTables(await prices.ok(SHOW_FULL_TABLES, heads.v1)).map((t) => t.name),
      ['products', 'stores'],
    );
    const full = await prices.ok(SHOW_FULL_TABLES, heads.main);
    assert.deepEqual(
      full.columns.map((c) => c.name),
      ['Tables_in_prices', 'Table_type'],
    );
    assert.deepEqual(parseColumnsOf('products', await prices.ok(buildDescribe('products'), heads.main)), [
      { name: 'id', type: 'bigint', primaryKey: true, nullable: false },
      { name: 'name', type: 'varchar(255)', primaryKey: false, nullable: false },
      { name: 'category', type: 'varchar(64)', primaryKey: false, nullable: true },
      { name: 'price', type: 'decimal(10,2)', primaryKey: false, nullable: true },
      { name: 'updated_at', type: 'datetime(6)', primaryKey: false, nullable: true },
    ]);
    // The suppliers table gained a column on main after it was created.
    const supplierCols = parseColumnsOf('suppliers', await prices.ok(buildDescribe('suppliers'), heads.main)).map((c) => c.name);
    assert.deepEqual(supplierCols, ['id', 'name', 'country', 'rating', 'email']);
  });

  it('opens products at the commit main pointed at and reads it page by page, by keyset, equal to a plain read', async () => {
    const commit = heads.main!;
    const { output, source } = await openTableAt(
      { target: { hostId: 'h', owner: 'alice', name: 'prices', ref: 'main' }, commit, table: 'products' },
      catalog(),
      runAt('alice/prices', commit),
      2,
    );
    assert.equal(output.title, 'products @ main');
    assert.equal(output.frozenColumns, 1);
    assert.deepEqual(output.rowsOf, { table: 'products', keyColumns: [0] });
    assert.equal(output.note, undefined);
    const plain = (await prices.ok('SELECT id, name, category, price, updated_at FROM products ORDER BY id', commit)).rows;
    assert.equal(await source.count(ALL, signal), plain.length);
    assert.deepEqual(await readAll(source, ALL, 2), plain);
    assert.deepEqual(source.reads, ['first', 'after', 'after']);
    const byPrice = (await prices.ok('SELECT id, name, category, price, updated_at FROM products ORDER BY price DESC, id ASC', commit))
      .rows;
    const sorted = new TableSource({ table: 'products', columns: source.columns, run: runAt('alice/prices', commit), pageSize: 2 });
    const view: PageView = { sort: [{ column: 'price', direction: 'desc' }], filters: [] };
    assert.equal(await sorted.count(view, signal), byPrice.length);
    // From the end first (a jump to the last row), then back up by keyset.
    const lastStart = Math.floor((byPrice.length - 1) / 2) * 2;
    assert.deepEqual((await sorted.read(lastStart, byPrice.length, view, signal)).rows, byPrice.slice(lastStart));
    assert.deepEqual((await sorted.read(lastStart - 2, lastStart, view, signal)).rows, byPrice.slice(lastStart - 2, lastStart));
    assert.deepEqual(sorted.reads, ['last', 'before']);
  });

  it('a table that is not there at the commit is a clear TableGoneError', async () => {
    await assert.rejects(
      openTableAt(
        { target: { hostId: 'h', owner: 'alice', name: 'prices', ref: 'v1' }, commit: heads.v1!, table: 'suppliers' },
        catalog(),
        runAt('alice/prices', heads.v1!),
      ),
      (e: unknown) =>
        e instanceof TableGoneError &&
        e.message === `The table suppliers does not exist at v1 (commit ${heads.v1!.slice(0, 8)}): it was dropped or renamed.`,
    );
  });

  describe('far jumps from sampled keys at a commit', () => {
    // An integer key, a composite key (text, integer) and a text key with mixed case, spaces,
    // quotes and non-ASCII: the hub's own collation orders them, so the expected pages come from
    // plain `ORDER BY key LIMIT n OFFSET r` reads at the same commit.
    const jumps = hubSql(() => hub, 'alice/jumps');
    let commit = '';
    const words = ['Apple', 'apple', 'ä', "o'k", ' sp', '10', '9', 'Z'];

    before(async () => {
      const created = await hub.fetch('/databases', { user: 'alice', json: { owner: 'alice', name: 'jumps', visibility: 'public' } });
      assert.equal(created.status, 201, created.text);
      const lines = (head: string, n: number, row: (i: number) => string): string =>
        [head, ...Array.from({ length: n }, (_, k) => row(k + 1))].join('\n') + '\n';
      await importCsv(
        hub,
        'alice/jumps',
        'main',
        'nums',
        'create',
        lines('id,qty', 1200, (i) => `${(i * 7919) % 100_003},${i % 7}`),
        {
          primary_keys: ['id'],
        },
      );
      const grp = (i: number): string => `"${['b', 'A', 'a', 'é', 'z z'][i % 5]}${i % 3}"`;
      await importCsv(
        hub,
        'alice/jumps',
        'main',
        'pairs',
        'create',
        lines('grp,n,note', 900, (i) => `${grp(i)},${(i * 37) % 1009},n${i}`),
        {
          primary_keys: ['grp', 'n'],
        },
      );
      const word = (i: number): string => `"${words[i % 8]} ${(i * 131) % 997}"`;
      await importCsv(
        hub,
        'alice/jumps',
        'main',
        'words',
        'create',
        lines('word,len', 700, (i) => `${word(i)},${i % 13}`),
        {
          primary_keys: ['word'],
        },
      );
      const b = await hub.fetch('/databases/alice/jumps/branches', { user: 'alice' });
      commit = b.body.data.find((x: { name: string }) => x.name === 'main').head_commit_sha;
    });

    for (const [table, filter] of [
      ['nums', undefined],
      ['nums', { column: 'qty', op: 'range', min: '2', max: '5' }],
      ['pairs', undefined],
      ['words', undefined],
    ] as const) {
      it(`${table}${filter ? ' filtered' : ''}: a page anywhere is a keyset seek from a sampled key, equal to a plain OFFSET read`, async () => {
        const { source } = await openTableAt(
          { target: { hostId: 'h', owner: 'alice', name: 'jumps', ref: 'main' }, commit, table },
          catalog(),
          runAt('alice/jumps', commit),
          20,
        );
        const s = new TableSource({
          table,
          columns: source.columns,
          run: runAt('alice/jumps', commit),
          pageSize: 20,
          sampling: { target: 8, minSkip: 0 },
        });
        const view: PageView = { sort: [], filters: filter ? [filter] : [] };
        const keys = source.columns.filter((c) => c.primaryKey).map((c) => `\`${c.name}\``);
        const names = source.columns.map((c) => `\`${c.name}\``).join(', ');
        const where = filter ? ' WHERE qty >= 2 AND qty <= 5' : '';
        const total = Number(await s.count(view, signal));
        assert.equal(String(total), (await jumps.ok(`SELECT COUNT(*) FROM ${table}${where}`, commit)).rows[0]![0]);
        // Sampled from the count on; read whole before the jumps, so each of them can seek.
        await s.sampled(view);
        for (let i = 1; i <= 10; i++) {
          const at = Math.floor(((i * 0.618) % 1) * total);
          const start = i % 3 === 0 ? Math.min(at, total - 3) : Math.floor(at / 20) * 20;
          const expected = await jumps.ok(
            `SELECT ${names} FROM ${table}${where} ORDER BY ${keys.join(', ')} LIMIT 20 OFFSET ${start}`,
            commit,
          );
          assert.deepEqual((await s.read(start, start + 20, view, signal)).rows, expected.rows, `${table} at row ${start}`);
        }
        assert.equal(s.reads.filter((k) => k === 'sample').length, 1, s.reads.join(','));
        assert.ok(s.reads.filter((k) => k === 'seek').length >= 6, s.reads.join(','));
      });
    }

    it('a sorted view jumps by OFFSET from the nearer end (no sample), equal to a plain read', async () => {
      const { source } = await openTableAt(
        { target: { hostId: 'h', owner: 'alice', name: 'jumps', ref: 'main' }, commit, table: 'pairs' },
        catalog(),
        runAt('alice/jumps', commit),
        20,
      );
      const view: PageView = { sort: [{ column: 'note', direction: 'desc' }], filters: [] };
      const total = Number(await source.count(view, signal));
      for (const start of [420, 880, 140, 660]) {
        const expected = await jumps.ok(`SELECT grp, n, note FROM pairs ORDER BY note DESC, grp, n LIMIT 20 OFFSET ${start}`, commit);
        assert.deepEqual((await source.read(start, Math.min(total, start + 20), view, signal)).rows, expected.rows, `sorted at ${start}`);
      }
      assert.ok(!source.reads.includes('sample') && !source.reads.includes('seek'), source.reads.join(','));
    });
  });

  describe('filter text matches literally', () => {
    // Every hostile string as a cell, plus near misses a broken escape would also match.
    const VALUES = [
      ...HOSTILE_TEXT.filter((t) => t !== '' && t !== 'NULL' && !/[\r\n]/.test(t)),
      '100 percent',
      'underXscore',
      'tick',
      'its',
      'back slash',
      'a%b',
      'a_b',
      'aXb',
      "O'Brien `x` 50% of_all — ñ",
    ];
    let commit = '';

    before(async () => {
      const created = await hub.fetch('/databases', { user: 'alice', json: { owner: 'alice', name: 'hostile', visibility: 'public' } });
      assert.equal(created.status, 201, created.text);
      const csvCell = (v: string): string => `"${v.replace(/"/g, '""')}"`;
      const csv = ['id,label', ...VALUES.map((v, i) => `${i + 1},${csvCell(v)}`)].join('\n') + '\n';
      await importCsv(hub, 'alice/hostile', 'main', 'cells', 'create', csv, { primary_keys: ['id'] });
      const b = await hub.fetch('/databases/alice/hostile/branches', { user: 'alice' });
      commit = b.body.data.find((x: { name: string }) => x.name === 'main').head_commit_sha;
    });

    it('the rows hold the characters as typed (a plain read)', async () => {
      const rows = (await hostile.ok('SELECT id, label FROM cells ORDER BY id', commit)).rows;
      assert.deepEqual(
        rows.map((r) => r[1]),
        VALUES,
      );
    });

    it('contains and equals with quotes, backticks, %, _, backslashes and unicode find exactly the rows that hold the text', async () => {
      const { source } = await openTableAt(
        { target: { hostId: 'h', owner: 'alice', name: 'hostile', ref: 'main' }, commit, table: 'cells' },
        catalog(),
        runAt('alice/hostile', commit),
        4,
      );
      const all = (await hostile.ok('SELECT id, label FROM cells ORDER BY id', commit)).rows;
      const needles = ["'", '`', '%', '_', '\\', '"', '!', 'ñ', '😀', '日本', '%_!\\%', "O'Brien `x` 50%", 'a%b', 'a_b', "it's"];
      for (const needle of needles) {
        const contains: PageView = { sort: [], filters: [{ column: 'label', op: 'contains', value: needle }] };
        const expected = all.filter((r) => (r[1] ?? '').includes(needle));
        assert.ok(expected.length > 0, `some row holds ${needle}`);
        assert.deepEqual(await readAll(source, contains, 4), expected, `contains ${JSON.stringify(needle)}`);
        assert.equal(await source.count(contains, signal), expected.length, `count contains ${JSON.stringify(needle)}`);
      }
      for (const value of VALUES) {
        const equals: PageView = { sort: [], filters: [{ column: 'label', op: 'equals', value }] };
        assert.deepEqual(
          await readAll(source, equals, 4),
          all.filter((r) => r[1] === value),
          `equals ${JSON.stringify(value)}`,
        );
      }
    });
  });
});
