// The table PageSource over a real engine (DoltLite in memory, the hub's engine) standing in for
// the server: pages read the way the grid and the export ask for them must equal plain
// `SELECT … ORDER BY` reads of the same table, and the reads must go by keyset where they can.
import { strict as assert } from 'node:assert';
import type { QueryResult } from '../../../../src/shared/wire';
import type { PageView } from '../../../../src/core/paging/pageServer';
import { TableReadError, TableSource } from '../../../../src/core/paging/tableSource';
import { PageServer } from '../../../../src/core/paging/pageServer';
import { pagesOf } from '../../../../src/core/paging/pagesOf';
import type { HostPagingMessage } from '../../../../src/shared/gridPaging';
import type { TableColumnInfo } from '../../../../src/core/sql/tableQuery';
import { SqliteEngine } from '../../../helpers/sqliteEngine';
import { waitFor } from '../../../helpers/waitFor.cjs';

const N = 1234;
const PAGE = 100;
const KEYED: TableColumnInfo[] = [
  { name: 'id', type: 'int', primaryKey: true, nullable: false },
  { name: 'label', type: 'varchar(40)', primaryKey: false, nullable: true },
  { name: 'qty', type: 'int', primaryKey: false, nullable: false },
];
const KEYLESS: TableColumnInfo[] = [
  { name: 'word', type: 'text', primaryKey: false, nullable: true },
  { name: 'n', type: 'int', primaryKey: false, nullable: true },
];
const ALL: PageView = { sort: [], filters: [] };

describe('TableSource (pages of one table at one commit)', function () {
  this.timeout(20_000);
  let engine: SqliteEngine;
  const sent: string[] = [];
  let failNext: string | undefined;

  before(async () => {
    engine = await SqliteEngine.open();
    engine.exec('CREATE TABLE items (id int PRIMARY KEY, label varchar(40), qty int NOT NULL)');
    engine.exec('CREATE TABLE words (word text, n int)');
    const items: string[] = [];
    const words: string[] = [];
    for (let i = 1; i <= N; i++) {
      // Ids out of insertion order, labels with NULLs and duplicates.
      items.push(`(${(i * 7919) % 100_003}, ${i % 11 === 0 ? 'NULL' : `'label ${i % 37}'`}, ${i % 5})`);
      words.push(`(${i % 13 === 0 ? 'NULL' : `'w${(i * 31) % 97}'`}, ${i})`);
    }
    engine.exec(`INSERT INTO items VALUES ${items.join(', ')}`);
    engine.exec(`INSERT INTO words VALUES ${words.join(', ')}`);
  });
  after(() => engine.close());
  beforeEach(() => {
    sent.length = 0;
    failNext = undefined;
  });

  const run = async (sql: string, { limit }: { limit: number }): Promise<QueryResult> => {
    sent.push(sql);
    if (failNext) {
      const message = failNext;
      failNext = undefined;
      return { columns: [], rows: [], status: 'error', message };
    }
    try {
      return { columns: [], rows: engine.rows(sql).slice(0, limit), status: 'success' };
    } catch (e) {
      return { columns: [], rows: [], status: 'error', message: String(e) };
    }
  };
  const source = (table = 'items', columns = KEYED) => new TableSource({ table, columns, run, pageSize: PAGE });
  const signal = new AbortController().signal;

  async function readAll(s: TableSource, view: PageView): Promise<(string | null)[][]> {
    const out: (string | null)[][] = [];
    for (let start = 0; ; start += PAGE) {
      const page = await s.read(start, start + PAGE, view, signal);
      out.push(...page.rows);
      if (page.end) return out;
    }
  }

  it('scrolling down reads every page after the first by keyset and equals a plain ORDER BY read', async () => {
    const s = source();
    const rows = await readAll(s, ALL);
    assert.deepEqual(rows, engine.rows('SELECT id, label, qty FROM items ORDER BY id'));
    assert.equal(s.reads[0], 'first');
    assert.ok(
      s.reads.slice(1).every((k) => k === 'after'),
      s.reads.join(','),
    );
    assert.ok(
      sent.slice(1).every((q) => !/OFFSET/.test(q)),
      'no OFFSET while scrolling',
    );
  });

  it('a jump to the end reads the last page from the end; scrolling up from there goes by keyset', async () => {
    const s = source();
    assert.equal(await s.count(ALL, signal), N);
    const plain = engine.rows('SELECT id, label, qty FROM items ORDER BY id');
    const lastStart = Math.floor((N - 1) / PAGE) * PAGE;
    const last = await s.read(lastStart, N, ALL, signal);
    assert.deepEqual(last.rows, plain.slice(lastStart));
    assert.equal(last.end, true);
    const before = await s.read(lastStart - PAGE, lastStart, ALL, signal);
    assert.deepEqual(before.rows, plain.slice(lastStart - PAGE, lastStart));
    const middle = await s.read(500, 600, ALL, signal);
    assert.deepEqual(middle.rows, plain.slice(500, 600));
    assert.deepEqual(s.reads, ['last', 'before', 'offset']);
    assert.match(sent[3]!, /OFFSET 500/);
    // A far page in the back half is counted from the end: it skips the rows after it, not before.
    const farStart = lastStart - 3 * PAGE;
    const far = await s.read(farStart, farStart + PAGE, ALL, signal);
    assert.deepEqual(far.rows, plain.slice(farStart, farStart + PAGE));
    assert.equal(s.reads[3], 'fromEnd');
    assert.match(sent[4]!, new RegExp(`ORDER BY \`id\` DESC LIMIT \\d+ OFFSET ${N - farStart - PAGE}$`));
  });

  it('sorts and filters on the server: a nullable column descending with a filter equals the plain read, COUNT agrees', async () => {
    const s = source();
    const view: PageView = {
      sort: [{ column: 'label', direction: 'desc' }],
      filters: [
        { column: 'label', op: 'contains', value: 'label 1' },
        { column: 'qty', op: 'range', min: '1', max: '3' },
      ],
    };
    const rows = await readAll(s, view);
    const plain = engine.rows(
      "SELECT id, label, qty FROM items WHERE label LIKE '%label 1%' AND qty BETWEEN 1 AND 3 ORDER BY label DESC, id ASC",
    );
    assert.ok(plain.length > 2 * PAGE, 'enough rows for several pages');
    assert.deepEqual(rows, plain);
    assert.equal(await s.count(view, signal), plain.length);
    const nulls = { sort: [], filters: [{ column: 'label', op: 'isNull' as const }] };
    assert.deepEqual(await readAll(s, nulls), engine.rows('SELECT id, label, qty FROM items WHERE label IS NULL ORDER BY id'));
  });

  it('a keyless table is read by position, in scan order, and says it is not keyed', async () => {
    const s = source('words', KEYLESS);
    assert.equal(s.keyed, false);
    assert.equal(source().keyed, true);
    const rows = await readAll(s, ALL);
    assert.deepEqual(rows, engine.rows('SELECT word, n FROM words'));
    assert.deepEqual([...new Set(s.reads)], ['first', 'offset']);
    // Sorted, every column breaks ties and pages still go by position.
    const sorted = source('words', KEYLESS);
    assert.deepEqual(
      await readAll(sorted, { sort: [{ column: 'word', direction: 'asc' }], filters: [] }),
      engine.rows('SELECT word, n FROM words ORDER BY word ASC, n ASC'),
    );
    assert.ok(sorted.reads.every((k) => k === 'first' || k === 'offset'));
  });

  it("an export copy (withPageSize) reads the whole sorted, filtered table in its own page size by keyset, its cursors apart from the grid's", async () => {
    const grid = source();
    await grid.read(0, PAGE, ALL, signal);
    const copy = grid.withPageSize(250);
    const view: PageView = {
      sort: [{ column: 'qty', direction: 'desc' }],
      filters: [{ column: 'label', op: 'contains', value: 'label 2' }],
    };
    sent.length = 0;
    const rows: (string | null)[][] = [];
    let pages = 0;
    for await (const page of pagesOf(copy, view, 250, signal)) {
      rows.push(...page);
      pages++;
    }
    const plain = engine.rows("SELECT id, label, qty FROM items WHERE label LIKE '%label 2%' ORDER BY qty DESC, id ASC");
    assert.ok(plain.length > 250, 'enough rows for two pages');
    assert.deepEqual(rows, plain);
    assert.equal(pages, Math.ceil(plain.length / 250));
    assert.match(sent[0]!, /LIMIT 250\b/);
    assert.deepEqual(copy.reads, ['first', ...Array(pages - 1).fill('after')]);
    assert.ok(
      sent.every((q) => !/OFFSET/.test(q)),
      'no OFFSET in an export',
    );
    assert.deepEqual(grid.reads, ['first'], "the grid's source read nothing more");
    // Its pages are planned in its own size: the last 250-row page of the whole table comes from the end.
    const jump = grid.withPageSize(250);
    assert.equal(await jump.count(ALL, signal), N);
    const lastStart = Math.floor((N - 1) / 250) * 250;
    assert.deepEqual(
      (await jump.read(lastStart, N, ALL, signal)).rows,
      engine.rows('SELECT id, label, qty FROM items ORDER BY id').slice(lastStart),
    );
    assert.deepEqual(jump.reads, ['last']);
  });

  it('checkView refuses an unknown column in a sort or a filter, naming it', () => {
    const s = source();
    assert.equal(s.checkView(ALL), undefined);
    assert.match(s.checkView({ sort: [{ column: 'nope', direction: 'asc' }], filters: [] }) ?? '', /no column nope/);
    assert.match(s.checkView({ sort: [], filters: [{ column: 'ghost`', op: 'equals', value: 'x' }] }) ?? '', /no column ghost`/);
    assert.match(s.checkView({ sort: [], filters: [{ column: 'qty', op: 'range' }] as never }) ?? '', /lower or an upper bound/);
  });

  it('a server error is a TableReadError with the server message; the next read goes on', async () => {
    const s = source();
    await s.read(0, PAGE, ALL, signal);
    failNext = 'database is locked';
    await assert.rejects(
      s.read(PAGE, 2 * PAGE, ALL, signal),
      (e: unknown) => e instanceof TableReadError && /rows 101–200 of items: database is locked/.test(e.message),
    );
    const again = await s.read(PAGE, 2 * PAGE, ALL, signal);
    assert.deepEqual(again.rows, engine.rows('SELECT id, label, qty FROM items ORDER BY id LIMIT 100 OFFSET 100'));
  });

  it('asks the server for one row more than the page, so its own cap never cuts a page', async () => {
    const limits: number[] = [];
    const s = new TableSource({
      table: 'items',
      columns: KEYED,
      pageSize: PAGE,
      run: (sql, opts) => (limits.push(opts.limit), run(sql, opts)),
    });
    await s.read(0, PAGE, ALL, signal);
    assert.deepEqual(limits, [PAGE + 1]);
  });

  it('through the PageServer: a page the server fails is a page.error for those rows only; the others arrive and a retry of it loads', async () => {
    const posted: HostPagingMessage[] = [];
    const server = new PageServer({ sourceId: 's', source: source(), post: (m) => posted.push(m), concurrency: 1 });
    const settle = (): Promise<unknown> => waitFor('the page server to finish its reads', () => server.inFlight === 0, { intervalMs: 5 });
    server.handle({ type: 'page.request', sourceId: 's', requestId: 1, start: 0, end: PAGE });
    await settle();
    failNext = 'lost connection to the server';
    server.handle({ type: 'page.request', sourceId: 's', requestId: 2, start: PAGE, end: 2 * PAGE });
    await settle();
    server.handle({ type: 'page.request', sourceId: 's', requestId: 3, start: 2 * PAGE, end: 3 * PAGE });
    await settle();
    server.handle({ type: 'page.request', sourceId: 's', requestId: 4, start: PAGE, end: 2 * PAGE });
    await settle();
    const plain = engine.rows('SELECT id, label, qty FROM items ORDER BY id');
    const byRequest = new Map(posted.map((m) => ['requestId' in m ? m.requestId : -1, m]));
    const ok = (id: number) => byRequest.get(id) as Extract<HostPagingMessage, { type: 'page.result' }>;
    assert.deepEqual(ok(1).rows, plain.slice(0, PAGE));
    assert.deepEqual(byRequest.get(2), {
      type: 'page.error',
      sourceId: 's',
      requestId: 2,
      start: PAGE,
      end: 2 * PAGE,
      message: 'Could not read rows 101–200 of items: lost connection to the server',
    });
    assert.deepEqual(ok(3).rows, plain.slice(2 * PAGE, 3 * PAGE));
    assert.deepEqual(ok(4).rows, plain.slice(PAGE, 2 * PAGE));
    server.dispose();
  });
});
