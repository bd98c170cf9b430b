// Row history and blame. The history query runs in DoltLite against a stored copy (named
// stored_history: DoltLite reserves dolt_ names) of what dolt_history_products holds for the seeded prices database (the row at every commit that has
// it, unchanged commits included) and of dolt_log's commit order (stored_log), so the filter, the
// order and the limit are real; the
// expected versions are written out by hand from that commit story.
import { strict as assert } from 'node:assert';
import { buildRowHistoryQuery } from '../../../../src/core/review/doltQueries';
import { ReviewResultError } from '../../../../src/core/review/resultReader';
import { cellBlame, parseRowBlame, parseRowHistory } from '../../../../src/core/review/rowHistory';
import type { TableColumnInfo } from '../../../../src/core/sql/tableQuery';
import { SqliteEngine } from '../../../helpers/sqliteEngine';
import { result } from './reviewTestKit';

const PRODUCTS: TableColumnInfo[] = [
  { name: 'id', type: 'bigint', primaryKey: true, nullable: false },
  { name: 'name', type: 'varchar(255)', primaryKey: false, nullable: false },
  { name: 'price', type: 'decimal(10,2)', primaryKey: false },
];

// Commits, oldest first: c1 creates products, c2 adds dairy, c3 fixes the carrot price, c4 adds a
// store (products untouched), c5 renames the carrot, c6 touches nothing in products.
const COMMITS = [
  { hash: 'c1aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', who: 'alice', at: '2026-01-05 12:00:00' },
  { hash: 'c2aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', who: 'alice', at: '2026-01-05 15:00:00' },
  { hash: 'c3aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', who: 'bob', at: '2026-01-05 18:00:00' },
  { hash: 'c4aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', who: 'alice', at: '2026-01-05 21:00:00.5' },
  { hash: 'c5aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', who: 'carol', at: '2026-01-06 00:00:00' },
  { hash: 'c6aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', who: 'alice', at: '2026-01-06 03:00:00' },
];
// products at each commit: [id, name, price]
const STATES: [number, string, string | null][][] = [
  [
    [1, 'Apple', '0.50'],
    [3, 'Carrot', '0.30'],
  ],
  [
    [1, 'Apple', '0.50'],
    [3, 'Carrot', '0.30'],
    [4, 'Milk', '1.10'],
  ],
  [
    [1, 'Apple', '0.50'],
    [3, 'Carrot', '0.35'],
    [4, 'Milk', '1.10'],
  ],
  [
    [1, 'Apple', '0.50'],
    [3, 'Carrot', '0.35'],
    [4, 'Milk', '1.10'],
  ],
  [
    [1, 'Apple', '0.50'],
    [3, 'Carrots', '0.35'],
    [4, 'Milk', '1.10'],
  ],
  [
    [1, 'Apple', '0.50'],
    [3, 'Carrots', '0.35'],
    [4, 'Milk', null],
  ],
];

describe('row history and blame', () => {
  let db: SqliteEngine;
  before(async () => {
    db = await SqliteEngine.open();
    db.exec('CREATE TABLE stored_history (id integer, name text, price text, commit_hash text, committer text, commit_date text)');
    db.exec('CREATE TABLE stored_log (commit_hash text, commit_order integer)');
    COMMITS.forEach((c, i) => {
      db.exec('INSERT INTO stored_log VALUES (?, ?)', { bind: [c.hash, i + 1] });
      for (const [id, name, price] of STATES[i] as [number, string, string | null][])
        db.exec('INSERT INTO stored_history VALUES (?, ?, ?, ?, ?, ?)', { bind: [id, name, price, c.hash, c.who, c.at] });
    });
  });
  after(() => db.close());

  const COLS = ['id', 'name', 'price', 'commit_hash', 'committer', 'commit_date'];
  const run = (sql: string): ReturnType<SqliteEngine['rows']> => {
    const local = sql.replace('FROM `dolt_history_products`', 'FROM stored_history').replace('JOIN dolt_log', 'JOIN stored_log');
    assert.notEqual(local, sql, 'the query reads dolt_history_products');
    assert.ok(!local.includes('dolt_log'), 'the query orders by dolt_log');
    return db.rows(local);
  };
  const history = (key: string, limit: number): ReturnType<typeof parseRowHistory> =>
    parseRowHistory(result(COLS, run(buildRowHistoryQuery('main', 'products', PRODUCTS, [key], limit).sql)), PRODUCTS, limit);

  it('each version once, newest first, introduced by the oldest commit of its run, changed cells marked', () => {
    const h = history('3', 100);
    assert.equal(h.truncated, false);
    assert.deepEqual(
      h.versions.map((v) => [v.shortCommit, v.committer, v.cells, v.changed, v.exact]),
      [
        ['c5aaaaaa', 'carol', ['3', 'Carrots', '0.35'], [false, true, false], true],
        ['c3aaaaaa', 'bob', ['3', 'Carrot', '0.35'], [false, false, true], true],
        ['c1aaaaaa', 'alice', ['3', 'Carrot', '0.30'], [false, false, false], true],
      ],
    );
    assert.equal(h.versions[1]?.time, Date.UTC(2026, 0, 5, 18));
  });

  it('a value set to NULL is a change, and a row born later starts there', () => {
    const h = history('4', 100);
    assert.deepEqual(
      h.versions.map((v) => [v.shortCommit, v.cells[2], v.changed[2]]),
      [
        ['c6aaaaaa', null, true],
        ['c2aaaaaa', '1.10', false],
      ],
    );
  });

  it('cell blame: who last changed the cell, and when', () => {
    const h = history('3', 100);
    const name = cellBlame(h, 'name');
    assert.deepEqual([name?.shortCommit, name?.committer, name?.value, name?.exact], ['c5aaaaaa', 'carol', 'Carrots', true]);
    const price = cellBlame(h, 'price');
    assert.deepEqual([price?.shortCommit, price?.committer, price?.value, price?.exact], ['c3aaaaaa', 'bob', '0.35', true]);
    // Never changed since the row was added: the commit that added it.
    const id = cellBlame(h, 'id');
    assert.deepEqual([id?.shortCommit, id?.exact], ['c1aaaaaa', true]);
    assert.throws(() => cellBlame(h, 'nope'), ReviewResultError);
    assert.equal(cellBlame(parseRowHistory(result(COLS, []), PRODUCTS, 10), 'name'), undefined);
  });

  it('a history cut by its limit says so, and what it cannot know is not claimed exact', () => {
    // 4 commits read of 6: c6, c5 | c4, c3 — the carrot's "0.35" run continues past the cut.
    const h = history('3', 4);
    assert.equal(h.truncated, true);
    assert.deepEqual(
      h.versions.map((v) => [v.shortCommit, v.exact]),
      [
        ['c5aaaaaa', true],
        ['c3aaaaaa', false],
      ],
    );
    const price = cellBlame(h, 'price');
    assert.deepEqual([price?.shortCommit, price?.exact], ['c3aaaaaa', false]);
    const name = cellBlame(h, 'name');
    assert.deepEqual([name?.shortCommit, name?.exact], ['c5aaaaaa', true]);
  });

  it('a server-cut history is truncated too', () => {
    const h = parseRowHistory(
      result(COLS, run(buildRowHistoryQuery('main', 'products', PRODUCTS, ['3'], 100).sql).slice(0, 3), 'timeout'),
      PRODUCTS,
      100,
    );
    assert.equal(h.truncated, true);
    assert.equal(h.versions[h.versions.length - 1]?.exact, false);
  });

  it('row blame from dolt_blame_<t>; no row, no blame', () => {
    const cols = ['commit', 'commit_date', 'committer', 'email', 'message'];
    assert.deepEqual(
      parseRowBlame(
        result(cols, [['c3aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', '2026-01-05 18:00:00', 'bob', 'bob@example.com', 'Fix the price of carrots']]),
      ),
      {
        commit: 'c3aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
        shortCommit: 'c3aaaaaa',
        committer: 'bob',
        email: 'bob@example.com',
        date: '2026-01-05 18:00:00',
        time: Date.UTC(2026, 0, 5, 18),
        message: 'Fix the price of carrots',
      },
    );
    assert.equal(parseRowBlame(result(cols, [])), undefined);
  });
});
