// DiffPageSource's paging decisions with a scripted runner: which position each page is read from
// (keyset after a page it has read, offset for a jump), how a capped answer is read on, and what
// the grid gets (kinds, old values only on changed cells).
import assert from 'node:assert/strict';
import type { Cell, QueryResult } from '../../../../src/shared/wire';
import type { DoltQuery } from '../../../../src/core/review/doltQueries';
import { DiffPageSource, PartialDiffError } from '../../../../src/core/review/diffSource';
import { twoDot } from '../../../../src/core/review/revisions';
import type { ReviewRunner } from '../../../../src/core/sql/sqlPort';
import { result } from './reviewTestKit';

const SPEC = {
  table: 't',
  fromColumns: [
    { name: 'id', type: 'int', primaryKey: true, nullable: false },
    { name: 'v', type: 'varchar(10)', primaryKey: false, nullable: true },
  ],
  toColumns: [
    { name: 'id', type: 'int', primaryKey: true, nullable: false },
    { name: 'v', type: 'varchar(10)', primaryKey: false, nullable: true },
  ],
};
const COLS = ['diff_type', 'from_id', 'from_v', 'to_id', 'to_v'];
/** 10 diff rows, key 1..10: odd keys modified (v: o<k> → n<k>), 2,4 added, the rest removed. */
function diffRow(k: number): Cell[] {
  if (k % 2 === 1) return ['modified', String(k), `o${k}`, String(k), `n${k}`];
  if (k <= 4) return ['added', null, null, String(k), `n${k}`];
  return ['removed', String(k), `o${k}`, null, null];
}

/** A runner over the 10 rows that reads the query's position the way the SQL says it. */
function fakeRunner(cap = Infinity): { run: ReviewRunner; sql: string[] } {
  const sql: string[] = [];
  const run: ReviewRunner = async (q: DoltQuery, opts) => {
    sql.push(q.sql);
    const limit = Number(/LIMIT (\d+)/.exec(q.sql)![1]);
    const offset = Number(/OFFSET (\d+)/.exec(q.sql)?.[1] ?? 0);
    const after = /> (\d+)/.exec(q.sql);
    const keys = Array.from({ length: 10 }, (_, i) => i + 1).filter((k) => !after || k > Number(after[1]));
    const rows = keys.slice(offset, offset + limit).map(diffRow);
    const allowed = Math.min(opts?.limit ?? 1000, cap);
    return rows.length > allowed ? result(COLS, rows.slice(0, allowed), 'row_limit', 'row limit') : result(COLS, rows);
  };
  return { run, sql };
}

const VIEW = { sort: [], filters: [] };
const signal = new AbortController().signal;

describe('DiffPageSource', () => {
  it('reads on by keyset after a page it read, and by offset for a jump', async () => {
    const { run, sql } = fakeRunner();
    const source = new DiffPageSource({ pair: twoDot('a', 'b'), spec: SPEC, run });
    await source.read(0, 3, VIEW, signal);
    await source.read(3, 6, VIEW, signal);
    const jump = await source.read(8, 11, VIEW, signal);
    assert.doesNotMatch(sql[0]!, /OFFSET|>/);
    assert.match(sql[1]!, /COALESCE\(`to_id`, `from_id`\) > 3/);
    assert.match(sql[2]!, /OFFSET 8$/);
    assert.deepEqual(
      jump.rows.map((r) => r[0]),
      ['9', '10'],
    );
    assert.equal(jump.end, true);
  });

  it("gives the grid each row's kind, the new values (old for a removed row) and old values only where they changed", async () => {
    const { run } = fakeRunner();
    const page = await new DiffPageSource({ pair: twoDot('a', 'b'), spec: SPEC, run }).read(0, 6, VIEW, signal);
    assert.deepEqual(page.kinds, ['modified', 'added', 'modified', 'added', 'modified', 'removed']);
    assert.deepEqual(page.rows[0], ['1', 'n1']);
    assert.deepEqual(page.old![0], ['1', 'o1'], 'the key is unchanged: its old value is the new one');
    assert.equal(page.old![1], null);
    assert.deepEqual(page.rows[5], ['6', 'o6']);
  });

  it('reads on from after a page the server cut at its row cap, so the page is whole', async () => {
    const { run, sql } = fakeRunner(2);
    const page = await new DiffPageSource({ pair: twoDot('a', 'b'), spec: SPEC, run }).read(0, 5, VIEW, signal);
    assert.deepEqual(
      page.rows.map((r) => r[0]),
      ['1', '2', '3', '4', '5'],
    );
    assert.equal(sql.length, 3);
    assert.match(sql[1]!, /> 2/);
  });

  it('fails a timed-out page with PartialDiffError and tells the view', async () => {
    const told: string[] = [];
    const run: ReviewRunner = async () => ({ status: 'timeout', message: 'too slow', columns: [], rows: [] }) as unknown as QueryResult;
    const source = new DiffPageSource({
      pair: twoDot('a', 'b'),
      spec: SPEC,
      run,
      onPartial: (c) => told.push(c.complete ? 'complete' : c.reason),
    });
    await assert.rejects(
      source.read(0, 5, VIEW, signal),
      (e: unknown) => e instanceof PartialDiffError && /rows from 1 on are not shown/.test(e.message),
    );
    assert.deepEqual(told, ['timeout']);
  });

  it('refuses a sort or filter (a diff is ordered by key) and shows only the chosen columns', async () => {
    const { run } = fakeRunner();
    const source = new DiffPageSource({ pair: twoDot('a', 'b'), spec: SPEC, run, columns: ['v'] });
    assert.match(source.checkView({ sort: [{ column: 'v', direction: 'asc' }], filters: [] }) ?? '', /ordered by primary key/);
    assert.deepEqual(source.gridColumns(), [{ name: 'v', type: 'varchar(10)' }]);
    const page = await source.read(0, 1, VIEW, signal);
    assert.deepEqual(page.rows, [['n1']]);
    assert.deepEqual(page.old, [['o1']]);
  });

  it('exports rows as diff_type, from_<c>, to_<c>', async () => {
    const { run } = fakeRunner();
    const exp = new DiffPageSource({ pair: twoDot('a', 'b'), spec: SPEC, run }).exportSource();
    assert.deepEqual(
      exp.columns.map((c) => c.name),
      ['diff_type', 'from_id', 'to_id', 'from_v', 'to_v'],
    );
    const page = await exp.source.read(0, 2, VIEW, signal);
    assert.deepEqual(page.rows, [
      ['modified', '1', '1', 'o1', 'n1'],
      ['added', null, '2', null, 'n2'],
    ]);
  });
});
