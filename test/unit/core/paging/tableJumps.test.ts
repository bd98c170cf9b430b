// Far jumps in the table browser from sampled key boundaries (src/core/sql/keySamples.ts), over a
// real engine (DoltLite in memory): a page anywhere is read by keyset from the nearest sampled key
// plus a short OFFSET, and equals what a plain `ORDER BY key LIMIT n OFFSET r` returns, for an
// integer key, a composite key and a text key, filtered or not. A sorted view, a keyless table and
// a failed sample keep OFFSET from the nearer end and are just as exact.
import { strict as assert } from 'node:assert';
import type { QueryResult } from '../../../../src/shared/wire';
import type { PageView } from '../../../../src/core/paging/pageServer';
import { TableSource } from '../../../../src/core/paging/tableSource';
import type { TableColumnInfo } from '../../../../src/core/sql/tableQuery';
import { buildSampleQuery, boundaryBefore, sampleInterval } from '../../../../src/core/sql/keySamples';
import { SAMPLE_CHUNK } from '../../../../src/core/paging/keySampler';
import { SqliteEngine } from '../../../helpers/sqliteEngine';
import { waitFor } from '../../../helpers/waitFor.cjs';

const PAGE = 25;
const col = (name: string, type: string, primaryKey = false, nullable = true): TableColumnInfo => ({ name, type, primaryKey, nullable });
const TABLES: Record<string, { columns: TableColumnInfo[]; order: string; rows: number }> = {
  nums: { columns: [col('id', 'bigint', true, false), col('label', 'varchar(20)'), col('qty', 'int')], order: '`id`', rows: 1000 },
  pairs: {
    columns: [col('grp', 'varchar(10)', true, false), col('n', 'int', true, false), col('note', 'text')],
    order: '`grp`, `n`',
    rows: 900,
  },
  words: { columns: [col('word', 'varchar(40)', true, false), col('len', 'int')], order: '`word`', rows: 700 },
  keyless: { columns: [col('w', 'text'), col('n', 'int')], order: '', rows: 600 },
};
const ALL: PageView = { sort: [], filters: [] };

describe('table browser far jumps from sampled keys (exact against plain OFFSET reads)', function () {
  this.timeout(30_000);
  let engine: SqliteEngine;
  const sent: string[] = [];
  let failSample = false;

  before(async () => {
    engine = await SqliteEngine.open();
    engine.exec('CREATE TABLE nums (id bigint PRIMARY KEY, label varchar(20), qty int)');
    engine.exec('CREATE TABLE pairs (grp varchar(10), n int, note text, PRIMARY KEY (grp, n))');
    engine.exec('CREATE TABLE words (word varchar(40) PRIMARY KEY, len int)');
    engine.exec('CREATE TABLE keyless (w text, n int)');
    const v = (xs: string[]): string => xs.join(', ');
    const nums: string[] = [];
    const pairs: string[] = [];
    const words: string[] = [];
    const keyless: string[] = [];
    for (let i = 1; i <= 1000; i++) nums.push(`(${(i * 7919) % 100_003}, ${i % 9 === 0 ? 'NULL' : `'l${i % 41}'`}, ${i % 7})`);
    for (let i = 1; i <= 900; i++) pairs.push(`('${['b', 'A', 'a', 'é', 'z z'][i % 5]}${i % 3}', ${(i * 37) % 1009}, 'n${i}')`);
    // Mixed case, spaces, quotes, digits and non-ASCII: the key's own collation decides the order.
    for (let i = 1; i <= 700; i++)
      words.push(`('${['Apple', 'apple', 'ä', "o''k", ' sp', '10', '9', 'Z'][i % 8]} ${(i * 131) % 997}', ${i % 13})`);
    for (let i = 1; i <= 600; i++) keyless.push(`('w${(i * 31) % 97}', ${i})`);
    engine.exec(`INSERT INTO nums VALUES ${v(nums)}`);
    engine.exec(`INSERT INTO pairs VALUES ${v(pairs)}`);
    engine.exec(`INSERT INTO words VALUES ${v(words)}`);
    engine.exec(`INSERT INTO keyless VALUES ${v(keyless)}`);
  });
  after(() => engine.close());
  beforeEach(() => {
    sent.length = 0;
    failSample = false;
  });

  const run = async (sql: string, { limit }: { limit: number }): Promise<QueryResult> => {
    sent.push(sql);
    if (failSample && /WITH RECURSIVE/.test(sql)) return { columns: [], rows: [], status: 'error', message: 'no window functions here' };
    return { columns: [], rows: engine.rows(sql).slice(0, limit), status: 'success' };
  };
  const source = (table: string): TableSource =>
    new TableSource({ table, columns: TABLES[table]!.columns, run, pageSize: PAGE, sampling: { target: 9, minSkip: 0 } });
  const signal = new AbortController().signal;
  const names = (table: string): string => TABLES[table]!.columns.map((c) => `\`${c.name}\``).join(', ');
  // What a plain read gives at row `start`: the independent answer every jump must equal.
  const plain = (table: string, start: number, n: number, where = '', order = TABLES[table]!.order): (string | null)[][] =>
    engine.rows(`SELECT ${names(table)} FROM ${table}${where}${order ? ` ORDER BY ${order}` : ''} LIMIT ${n} OFFSET ${start}`);

  /** Page starts spread over the table (golden-ratio steps, as the benchmark's sweep), some not page-aligned. */
  function jumps(total: number): number[] {
    const out: number[] = [];
    for (let i = 1; i <= 14; i++) {
      const at = Math.floor(((i * 0.618) % 1) * total);
      out.push(i % 4 === 0 ? Math.min(at, total - 3) : Math.floor(at / PAGE) * PAGE);
    }
    return out;
  }

  for (const table of ['nums', 'pairs', 'words']) {
    it(`${table}: every far jump is a keyset seek from a sampled key, equal to a plain OFFSET read; the sample is read once`, async () => {
      const s = source(table);
      const total = Number(await s.count(ALL, signal));
      assert.equal(total, TABLES[table]!.rows);
      for (const start of jumps(total)) {
        const page = await s.read(start, start + PAGE, ALL, signal);
        assert.deepEqual(page.rows, plain(table, start, PAGE), `${table} at row ${start}`);
      }
      assert.equal(s.reads.filter((k) => k === 'sample').length, 1, s.reads.join(','));
      assert.ok(s.reads.filter((k) => k === 'seek').length >= 8, s.reads.join(','));
      // No read skips as many rows as the sampling interval (an OFFSET only inside the first one).
      const every = sampleInterval(total, PAGE, 9);
      assert.ok(!s.reads.includes('fromEnd'), s.reads.join(','));
      for (const q of sent.filter((x) => / OFFSET \d+$/.test(x))) assert.ok(Number(/ OFFSET (\d+)$/.exec(q)![1]) < every, q);
    });
  }

  it('a filtered view samples the rows the filter keeps: jumps equal plain filtered reads', async () => {
    const s = source('nums');
    const view: PageView = { sort: [], filters: [{ column: 'qty', op: 'range', min: '2', max: '5' }] };
    const total = Number(await s.count(view, signal));
    assert.equal(total, Number(engine.rows('SELECT COUNT(*) FROM nums WHERE qty >= 2 AND qty <= 5')[0]![0]));
    for (const start of jumps(total)) {
      const page = await s.read(start, start + PAGE, view, signal);
      assert.deepEqual(page.rows, plain('nums', start, PAGE, ' WHERE qty >= 2 AND qty <= 5'), `filtered at row ${start}`);
    }
    assert.ok(s.reads.includes('sample') && s.reads.includes('seek'), s.reads.join(','));
  });

  it('a sorted view has no index to seek: no sample, jumps by OFFSET from the nearer end, still exact', async () => {
    const s = source('nums');
    const view: PageView = { sort: [{ column: 'label', direction: 'desc' }], filters: [] };
    const total = Number(await s.count(view, signal));
    for (const start of jumps(total)) {
      const page = await s.read(start, start + PAGE, view, signal);
      // NULLs first ascending, so last descending (where both engines put them).
      assert.deepEqual(page.rows, plain('nums', start, PAGE, '', '`label` IS NULL, `label` DESC, `id`'), `sorted at row ${start}`);
    }
    assert.ok(!s.reads.includes('sample') && !s.reads.includes('seek'), s.reads.join(','));
    assert.ok(s.reads.includes('offset') && s.reads.includes('fromEnd'), s.reads.join(','));
  });

  it('a keyless table keeps OFFSET from the start', async () => {
    const s = source('keyless');
    const total = Number(await s.count(ALL, signal));
    for (const start of jumps(total)) {
      const page = await s.read(start, start + PAGE, ALL, signal);
      assert.deepEqual(page.rows, plain('keyless', start, PAGE), `keyless at row ${start}`);
    }
    assert.ok(
      s.reads.every((k) => k === 'offset' || k === 'first'),
      s.reads.join(','),
    );
  });

  it('a sample the server refuses leaves jumps by OFFSET, exact, and is not asked for again', async () => {
    failSample = true;
    const s = source('pairs');
    const total = Number(await s.count(ALL, signal));
    for (const start of jumps(total)) {
      const page = await s.read(start, start + PAGE, ALL, signal);
      assert.deepEqual(page.rows, plain('pairs', start, PAGE), `pairs at row ${start}`);
    }
    assert.equal(s.reads.filter((k) => k === 'sample').length, 1, s.reads.join(','));
    assert.ok(!s.reads.includes('seek'), s.reads.join(','));
  });

  it('no sample before the rows are counted, nor for a jump that skips fewer rows than the threshold (sampling on demand)', async () => {
    const s = new TableSource({
      table: 'nums',
      columns: TABLES.nums!.columns,
      run,
      pageSize: PAGE,
      sampling: { target: 9, minSkip: 400, eager: false },
    });
    assert.deepEqual((await s.read(750, 775, ALL, signal)).rows, plain('nums', 750, PAGE));
    await s.count(ALL, signal);
    assert.deepEqual((await s.read(300, 325, ALL, signal)).rows, plain('nums', 300, PAGE));
    assert.deepEqual(s.reads, ['offset', 'offset']);
    // The first far jump starts the sample and, with no boundary read yet, goes by OFFSET; the next one seeks.
    assert.deepEqual((await s.read(450, 475, ALL, signal)).rows, plain('nums', 450, PAGE));
    assert.deepEqual(s.reads.slice(2), ['sample', 'offset']);
    await s.sampled(ALL);
    assert.deepEqual((await s.read(550, 575, ALL, signal)).rows, plain('nums', 550, PAGE));
    assert.deepEqual(s.reads.slice(4), ['seek']);
  });

  it('sampled as soon as a large view is counted (not for a small one, nor for an export copy)', async () => {
    const s = new TableSource({ table: 'nums', columns: TABLES.nums!.columns, run, pageSize: PAGE, sampling: { target: 9, minSkip: 400 } });
    await s.count(ALL, signal);
    assert.deepEqual(s.reads, ['sample']);
    assert.deepEqual((await s.read(450, 475, ALL, signal)).rows, plain('nums', 450, PAGE));
    assert.deepEqual(s.reads, ['sample', 'seek']);
    const small = new TableSource({ table: 'nums', columns: TABLES.nums!.columns, run, pageSize: PAGE, sampling: { minSkip: 501 } });
    await small.count(ALL, signal);
    const copy = s.withPageSize(100);
    await copy.count(ALL, signal);
    assert.deepEqual([...small.reads, ...copy.reads], []);
  });

  it('a long sample is read in chunks, each from the last boundary before; every jump stays exact', async () => {
    // 900 rows, page 5, about 100 boundaries: every 10 rows (90 of them), in chunks of SAMPLE_CHUNK boundaries.
    const s = new TableSource({ table: 'pairs', columns: TABLES.pairs!.columns, run, pageSize: 5, sampling: { target: 100, minSkip: 0 } });
    const total = Number(await s.count(ALL, signal));
    for (const start of [893, 17, 455, 260, 731, 5, 899]) {
      assert.deepEqual(
        (await s.read(start, Math.min(total, start + 5), ALL, signal)).rows,
        plain('pairs', start, 5),
        `pairs at row ${start}`,
      );
    }
    await s.sampled(ALL);
    const chunks = Math.ceil(90 / SAMPLE_CHUNK);
    assert.equal(s.reads.filter((k) => k === 'sample').length, chunks, s.reads.join(','));
    const samples = sent.filter((q) => /WITH RECURSIVE/.test(q));
    assert.equal(samples.length, chunks);
    for (const q of samples.slice(1)) assert.match(q, /`grp` >= '[^']+' AND/);
    for (const q of sent.filter((x) => / OFFSET \d+$/.test(x) && !/WITH RECURSIVE/.test(x)))
      assert.ok(Number(/ OFFSET (\d+)$/.exec(q)![1]) < 10, q);
  });

  it('a sample stops when its grid goes or another view is counted: the chunk in flight is aborted, no other is asked for, jumps stay exact', async () => {
    // Sample chunks wait until released or aborted, as a slow hub would keep them.
    const held: { signal?: AbortSignal; release: () => void }[] = [];
    const slow = async (sql: string, opts: { limit: number; signal?: AbortSignal }): Promise<QueryResult> => {
      if (/WITH RECURSIVE/.test(sql)) {
        await new Promise<void>((resolve, reject) => {
          held.push({ ...(opts.signal ? { signal: opts.signal } : {}), release: resolve });
          opts.signal?.addEventListener('abort', () => reject(opts.signal!.reason as Error), { once: true });
        });
      }
      return run(sql, opts);
    };
    const make = (): TableSource =>
      new TableSource({ table: 'pairs', columns: TABLES.pairs!.columns, run: slow, pageSize: 5, sampling: { target: 100, minSkip: 0 } });
    const samples = (s: TableSource): number => s.reads.filter((k) => k === 'sample').length;

    const closed = make();
    await closed.count(ALL, signal);
    held.shift()!.release(); // one chunk read, the second in flight
    await waitFor('the second chunk asked for', () => held.length === 1);
    closed.dispose();
    assert.equal(held[0]!.signal?.aborted, true, 'the chunk in flight is aborted');
    await closed.sampled(ALL);
    assert.equal(samples(closed), 2, closed.reads.join(','));
    assert.deepEqual((await closed.read(893, 898, ALL, signal)).rows, plain('pairs', 893, 5));
    held.length = 0;

    const moved = make();
    await moved.count(ALL, signal);
    const first = held.shift()!;
    const byN: PageView = { sort: [], filters: [{ column: 'n', op: 'range', min: '100', max: '2000' }] };
    await moved.count(byN, signal);
    assert.equal(first.signal?.aborted, true, "the old view's chunk is aborted");
    await moved.sampled(ALL);
    assert.equal(moved.reads.filter((k) => k === 'sample').length, 2, 'one chunk each view, no more for the old one');
    for (const h of held) h.release();
    moved.dispose();
  });

  it('the sample query returns the key of every N-th row, and a boundary is the nearest sampled row before a start', () => {
    const view = { table: 'pairs', columns: TABLES.pairs!.columns };
    const sampled = engine.rows(buildSampleQuery(view, 100, 9));
    const all = engine.rows('SELECT grp, n FROM pairs ORDER BY grp, n');
    assert.deepEqual(
      sampled,
      all.filter((_, i) => (i + 1) % 100 === 0),
    );
    assert.equal(boundaryBefore(sampled, 100, 99), undefined);
    assert.deepEqual(boundaryBefore(sampled, 100, 100), { index: 99, key: all[99] });
    assert.deepEqual(boundaryBefore(sampled, 100, 899), { index: 799, key: all[799] });
    assert.equal(sampleInterval(1_000_000, 500), 2000);
    assert.equal(sampleInterval(1_000, 500), 500);
  });
});
