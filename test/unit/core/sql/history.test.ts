import { strict as assert } from 'node:assert';
import {
  addHistoryEntry,
  HISTORY_PICKER_MAX_ROWS,
  historyEntryOf,
  historyLabel,
  historyMatches,
  historySearcher,
  readHistory,
  searchHistory,
  type HistoryEntry,
} from '../../../../src/core/sql/history';

const target = { hostId: 'h', owner: 'alice', name: 'shop', ref: 'main' };
const entry = (id: string, sql: string, ref = 'main'): HistoryEntry => ({
  id,
  sql,
  target: { ...target, ref },
  ranAt: '2026-01-01T00:00:00Z',
  status: 'success',
  rowCount: 1,
  elapsedMs: 5,
});

describe('query history', () => {
  it('records a finished run with its outcome, row count and the commit it ran at', () => {
    const output = {
      v: 1 as const,
      result: { columns: [{ name: 'x', type: 'int' }], rows: [['1'], ['2']], status: 'row_limit' },
      sql: 'SELECT x FROM t',
      target,
      commit: 'rmnjb8cjc5tblj21ed4qs821649eduie',
      ranAt: '2026-01-02T03:04:05Z',
      elapsedMs: 42,
      limit: 2,
    };
    const e = historyEntryOf(output, 'SELECT x FROM t', target);
    assert.match(e.id, /^2026-01-02T03:04:05Z-[0-9a-z]+$/);
    assert.deepEqual(
      { ...e, id: '' },
      {
        id: '',
        sql: 'SELECT x FROM t',
        target,
        ranAt: '2026-01-02T03:04:05Z',
        status: 'row_limit',
        rowCount: 2,
        elapsedMs: 42,
        commit: 'rmnjb8cjc5tblj21ed4qs821649eduie',
      },
    );
    assert.equal('commit' in historyEntryOf({ ...output, commit: undefined }, 'SELECT 1', target), false);
  });

  it('puts the newest first and bounds the list', () => {
    let list: HistoryEntry[] = [];
    for (let i = 0; i < 5; i++) list = addHistoryEntry(list, entry(String(i), `SELECT ${i}`), 3);
    assert.deepEqual(
      list.map((e) => e.id),
      ['4', '3', '2'],
    );
  });

  it('running the same SQL at the same target again moves it to the top instead of duplicating', () => {
    let list = [entry('1', 'SELECT 1'), entry('2', 'SELECT 2')];
    list = addHistoryEntry(list, entry('3', 'SELECT 2 '));
    assert.deepEqual(
      list.map((e) => e.id),
      ['3', '1'],
    );
    list = addHistoryEntry(list, entry('4', 'SELECT 1', 'v1'));
    assert.equal(list.length, 3);
  });

  it('search matches every word against SQL and target', () => {
    const list = [entry('1', 'SELECT * FROM orders'), entry('2', 'SELECT * FROM users', 'v1')];
    assert.deepEqual(
      searchHistory(list, 'orders').map((e) => e.id),
      ['1'],
    );
    assert.deepEqual(
      searchHistory(list, 'FROM v1').map((e) => e.id),
      ['2'],
    );
    assert.deepEqual(searchHistory(list, 'alice/shop').length, 2);
    assert.equal(searchHistory(list, '').length, 2);
  });

  it('drops stored entries of the wrong shape', () => {
    assert.deepEqual(readHistory('x'), []);
    assert.equal(readHistory([entry('1', 'a'), { id: 2 }, null]).length, 1);
  });

  it('labels flatten and shorten SQL', () => {
    assert.equal(historyLabel(entry('1', 'SELECT\n  a,\n  b\nFROM t')), 'SELECT a, b FROM t');
    assert.equal(historyLabel(entry('1', 'x'.repeat(100)), 10), `${'x'.repeat(9)}…`);
  });
});

import { markdownFallback } from '../../../../src/core/sql/markdownFallback';

describe('markdown fallback of an output', () => {
  const base = {
    v: 1 as const,
    sql: 'select',
    target,
    ranAt: '2026-01-01T00:00:00Z',
    elapsedMs: 12.4,
    limit: 2,
  };

  it('shows the first rows and how many more there are', () => {
    const md = markdownFallback(
      { ...base, result: { status: 'success', columns: [{ name: 'id', type: 'int' }], rows: [['1'], ['2'], ['3']] } },
      2,
    );
    assert.match(md, /alice\/shop @ main · 3 rows · 12 ms/);
    assert.match(md, /\| id \|\n\| --- \|\n\| 1 \|\n\| 2 \|/);
    assert.match(md, /1 more rows/);
    assert.doesNotMatch(md, /\| 3 \|/);
  });

  it('carries the banner of a row_limit or error result with the server message', () => {
    const md = markdownFallback({ ...base, result: { status: 'error', columns: [], rows: [], message: 'no such table: nope' } });
    assert.match(md, /The query failed/);
    assert.match(md, /no such table: nope/);
  });
});

describe('what the history picker finds as you type', () => {
  const longSelect = `SELECT ${Array.from({ length: 30 }, (_, i) => `column_${i}`).join(', ')} FROM warehouse_stock WHERE qty > 0`;
  const list: HistoryEntry[] = [
    { ...entry('1', longSelect, 'release-2026'), commit: 'abcdef0123456789abcdef0123456789' },
    entry('2', 'SELECT * FROM orders'),
    entry('3', 'SELECT count(*) FROM users', 'dev'),
  ];

  it('a table name past the end of the shortened label still finds the entry', () => {
    assert.ok(!historyLabel(list[0]!).toLowerCase().includes('warehouse_stock'), 'the label the user sees does not show the table');
    const search = historySearcher(list);
    assert.deepEqual(
      search('warehouse_stock').map((e) => e.id),
      ['1'],
    );
    assert.deepEqual(
      search('WAREHOUSE qty').map((e) => e.id),
      ['1'],
      'case-insensitive, every word',
    );
  });

  it('finds by branch or tag, database and commit, none of which is in the label', () => {
    const search = historySearcher(list);
    assert.deepEqual(
      search('release-2026').map((e) => e.id),
      ['1'],
    );
    assert.deepEqual(
      search('dev users').map((e) => e.id),
      ['3'],
    );
    assert.deepEqual(
      search('abcdef01').map((e) => e.id),
      ['1'],
    );
    assert.deepEqual(
      search('alice/shop').map((e) => e.id),
      ['1', '2', '3'],
    );
    assert.deepEqual(
      search('orders dev').map((e) => e.id),
      [],
      'words must all match one entry',
    );
    assert.deepEqual(
      search('   ').map((e) => e.id),
      ['1', '2', '3'],
      'nothing typed: everything, newest first',
    );
  });

  it('a word does not match across two fields', () => {
    assert.deepEqual(historySearcher([entry('1', 'SELECT 1 AS shop')])('shopalice'), []);
  });

  it('shows at most the row limit and says how many more match', () => {
    const many = Array.from({ length: HISTORY_PICKER_MAX_ROWS + 7 }, (_, i) => entry(String(i), `SELECT ${i} FROM t`));
    const search = historySearcher(many);
    const all = historyMatches(search, 'from');
    assert.equal(all.shown.length, HISTORY_PICKER_MAX_ROWS);
    assert.equal(all.more, 7);
    assert.equal(all.shown[0]!.id, '0', 'newest first');
    assert.deepEqual(historyMatches(search, 'select 12 from'), { shown: many.filter((e) => e.sql.includes('12')), more: 0 });
  });

  // Correctness at the largest history only: tests never gate on wall time (a busy CI machine
  // would fail them for no fault of the code).
  it('searches the largest history (5,000 entries of long SQL) keystroke by keystroke', () => {
    const big = Array.from({ length: 5000 }, (_, i) => entry(String(i), `${longSelect} AND id = ${i}`, `branch-${i % 50}`));
    const search = historySearcher(big);
    const typed = 'warehouse_stock branch-49';
    let last: HistoryEntry[] = [];
    // One search per keystroke of the query, as the picker runs them.
    for (let n = 1; n <= typed.length; n++) last = search(typed.slice(0, n));
    assert.equal(last.length, 100);
    assert.ok(last.every((e) => e.target.ref === 'branch-49' && e.sql.includes('warehouse_stock')));
  });
});
