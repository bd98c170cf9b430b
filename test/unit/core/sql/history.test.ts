import { strict as assert } from 'node:assert';
import { addHistoryEntry, historyLabel, readHistory, searchHistory, type HistoryEntry } from '../../../../src/core/sql/history';

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
  it('puts the newest first and bounds the list', () => {
    let list: HistoryEntry[] = [];
    for (let i = 0; i < 5; i++) list = addHistoryEntry(list, entry(String(i), `SELECT ${i}`), 3);
    assert.deepEqual(list.map((e) => e.id), ['4', '3', '2']);
  });

  it('running the same SQL at the same target again moves it to the top instead of duplicating', () => {
    let list = [entry('1', 'SELECT 1'), entry('2', 'SELECT 2')];
    list = addHistoryEntry(list, entry('3', 'SELECT 2 '));
    assert.deepEqual(list.map((e) => e.id), ['3', '1']);
    list = addHistoryEntry(list, entry('4', 'SELECT 1', 'v1'));
    assert.equal(list.length, 3);
  });

  it('search matches every word against SQL and target', () => {
    const list = [entry('1', 'SELECT * FROM orders'), entry('2', 'SELECT * FROM users', 'v1')];
    assert.deepEqual(searchHistory(list, 'orders').map((e) => e.id), ['1']);
    assert.deepEqual(searchHistory(list, 'FROM v1').map((e) => e.id), ['2']);
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
