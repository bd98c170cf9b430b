import { strict as assert } from 'node:assert';
import type { Cell } from '../../../src/shared/wire';
import {
  ColumnStore,
  ColumnStoreBuilder,
  RowArrayTable,
  TableView,
  rowsContaining,
  tableRows,
  type CellTable,
} from '../../../src/shared/columnStore';
import { toCsv, toJson } from '../../../src/shared/queryResultFormat';
import { sortRowIndexes } from '../../../src/shared/queryResultSort';

/** Every cell, read back through the table. */
function readAll(t: CellTable): Cell[][] {
  return tableRows(t);
}

/** Rows whose cells follow a pattern, NULLs and empty strings included, across several chunks. */
function generated(n: number, cols: number): Cell[][] {
  const rows: Cell[][] = [];
  for (let r = 0; r < n; r++) {
    const row: Cell[] = [];
    for (let c = 0; c < cols; c++) row.push((r + c) % 7 === 0 ? null : (r + c) % 11 === 0 ? '' : `v${r}.${c}`);
    rows.push(row);
  }
  return rows;
}

describe('ColumnStore', () => {
  it('gives back every cell exactly, NULL apart from the empty string, over several chunks', () => {
    const rows = generated(3000, 4);
    const store = ColumnStore.fromRows(rows, 4);
    assert.equal(store.rowCount, 3000);
    assert.equal(store.columnCount, 4);
    assert.deepEqual(readAll(store), rows);
    assert.equal(store.cell(0, 0), null);
    assert.equal(store.cell(11, 0), '');
    assert.ok(store.isNull(0, 0));
    assert.ok(!store.isNull(11, 0));
    assert.equal(store.cellLength(1, 0), 'v1.0'.length);
  });

  it('an empty result has no rows and reads NULL anywhere', () => {
    const store = ColumnStore.fromRows([], 3);
    assert.equal(store.rowCount, 0);
    assert.equal(store.columnCount, 3);
    assert.equal(store.cell(0, 0), null);
    assert.deepEqual(rowsContaining(store, 'a', true), []);
    assert.equal(toCsv([{ name: 'a', type: 'text' }], store), 'a\r\n');
  });

  it('one row and no columns', () => {
    const store = ColumnStore.fromRows([[]], 0);
    assert.equal(store.rowCount, 1);
    assert.equal(store.columnCount, 0);
    assert.deepEqual(readAll(store), [[]]);
    assert.equal(store.cell(0, 0), null);
    assert.deepEqual(rowsContaining(store, 'x', true), []);
  });

  it('an all-NULL column stays NULL and matches the filter "null" only through the flag', () => {
    const rows: Cell[][] = Array.from({ length: 1500 }, (_, r) => [String(r), null]);
    const store = ColumnStore.fromRows(rows, 2);
    assert.deepEqual(readAll(store), rows);
    assert.equal(rowsContaining(store, 'null', true).length, 1500);
    assert.deepEqual(rowsContaining(store, 'null', false), []);
  });

  it('keeps text beyond Latin-1 (CJK, emoji as surrogate pairs, combining marks) exactly', () => {
    const values = ['東京', '😀 smile', 'e\u0301', 'Ωmega', 'plain', 'ĸ', '\u0000nul'];
    const rows: Cell[][] = values.map((v, i) => [v, String(i)]);
    const store = ColumnStore.fromRows(rows, 2);
    assert.deepEqual(readAll(store), rows);
    assert.deepEqual(rowsContaining(store, '😀', false), [1]);
    assert.deepEqual(rowsContaining(store, 'ωmega', false), [3]);
  });

  it('keeps very long values (1 MB, line breaks) exactly, next to short ones', () => {
    const long = 'line\n'.repeat(200_000);
    const rows: Cell[][] = [
      ['a', long],
      ['b', 'short'],
      ['c', long + 'end'],
    ];
    const store = ColumnStore.fromRows(rows, 2);
    assert.equal(store.cell(0, 1), long);
    assert.equal(store.cell(1, 1), 'short');
    assert.equal(store.cell(2, 1), long + 'end');
    assert.deepEqual(rowsContaining(store, 'end', false), [2]);
  });

  it('values holding tabs, commas, quotes and what looks like a row break stay whole', () => {
    const rows: Cell[][] = [
      ['a\tb', 'x,"y"'],
      ['\r\n', '\u001f\u001e'],
      ['', null],
    ];
    const store = ColumnStore.fromRows(rows, 2);
    assert.deepEqual(readAll(store), rows);
    assert.equal(
      toCsv(
        [
          { name: 'p', type: 'text' },
          { name: 'q', type: 'text' },
        ],
        store,
      ),
      'p,q\r\na\tb,"x,""y"""\r\n"\r\n",\u001f\u001e\r\n"",\r\n',
    );
  });

  it('a missing cell reads NULL and a stray number its text', () => {
    const rows = [['1'], ['2', 'x'], [3 as unknown as string, undefined as unknown as string]] as Cell[][];
    const store = ColumnStore.fromRows(rows, 2);
    assert.deepEqual(readAll(store), [
      ['1', null],
      ['2', 'x'],
      ['3', null],
    ]);
  });

  describe('quick filter', () => {
    it('matches like value.toLowerCase().includes(needle), never across two values', () => {
      // "ab" + "cd" in one column: "bc" only exists across the boundary.
      const rows: Cell[][] = [['ab'], ['cd'], ['xBCx'], [null], ['']];
      const store = ColumnStore.fromRows(rows, 1);
      assert.deepEqual(rowsContaining(store, 'bc', false), [2]);
      assert.deepEqual(rowsContaining(store, 'abcd', false), []);
      assert.deepEqual(rowsContaining(store, 'd', false), [1]);
    });

    it('finds every occurrence in a chunk, including several in one value and the last row', () => {
      const rows: Cell[][] = Array.from({ length: 2100 }, (_, r) => [r % 500 === 0 || r === 2099 ? 'needle needle' : `hay ${r}`]);
      const store = ColumnStore.fromRows(rows, 1);
      assert.deepEqual(rowsContaining(store, 'needle', false), [0, 500, 1000, 1500, 2000, 2099]);
    });

    it('agrees with the per-value rule where lower-casing depends on context or changes length', () => {
      // Final sigma: 'ΟΔΟΣ' alone lower-cases to 'οδος' (final ς); glued to the next value it would not.
      // U+0130 lower-cases to two code units, which would shift every offset after it.
      const rows: Cell[][] = [['ΟΔΟΣ'], ['ΑΒ'], ['İstanbul'], ['kilim']];
      const store = ColumnStore.fromRows(rows, 1);
      const arrays = new RowArrayTable(rows, 1);
      for (const needle of ['ς', 'σ', 'οδος', 'i̇', 'istanbul', 'kilim', 'stan', 'l']) {
        assert.deepEqual(rowsContaining(store, needle, false), rowsContaining(arrays, needle, false), needle);
      }
      assert.deepEqual(rowsContaining(store, 'ς', false), [0]);
      assert.deepEqual(rowsContaining(store, 'kilim', false), [3]);
    });

    it('agrees with the row arrays on a generated result for many needles', () => {
      const rows = generated(2500, 3);
      const store = ColumnStore.fromRows(rows, 3);
      const arrays = new RowArrayTable(rows, 3);
      for (const needle of ['v1', '.2', '99.', 'v2499.2', 'zzz', '0']) {
        for (const nullMatches of [false, true]) {
          assert.deepEqual(
            rowsContaining(store, needle, nullMatches),
            rowsContaining(arrays, needle, nullMatches),
            `${needle} ${nullMatches}`,
          );
        }
      }
    });
  });

  it('sorts through the store exactly as through the arrays', () => {
    const rows = generated(2000, 3).map((r, i) => [String((i * 7919) % 1000), ...r.slice(1)]);
    const store = ColumnStore.fromRows(rows, 3);
    const all = rows.map((_, i) => i);
    const keys = [
      { column: 0, direction: 'desc' as const },
      { column: 1, direction: 'asc' as const },
    ];
    assert.deepEqual(
      sortRowIndexes(store, all, keys, ['number', 'text', 'text']),
      sortRowIndexes(rows, all, keys, ['number', 'text', 'text']),
    );
  });

  it('the builder converts a chunk per step and ends with the same store', () => {
    const rows = generated(2500, 2);
    const b = new ColumnStoreBuilder(rows, 2);
    assert.equal(b.done, false);
    assert.equal(b.step(), false);
    assert.equal(b.step(), false);
    assert.equal(b.step(), true);
    assert.equal(b.done, true);
    const store = b.finish();
    assert.equal(b.finish(), store);
    assert.deepEqual(readAll(store), rows);
  });

  it('a view picks rows in order and a column range, and formats like the arrays it stands for', () => {
    const rows: Cell[][] = [
      ['1', 'a', 'x'],
      ['2', null, 'y'],
      ['3', 'c', 'z'],
    ];
    const store = ColumnStore.fromRows(rows, 3);
    const view = new TableView(store, [2, 0, 1], 1, 2, 1, 2);
    assert.equal(view.rowCount, 2);
    assert.equal(view.columnCount, 2);
    assert.deepEqual(readAll(view), [
      ['a', 'x'],
      [null, 'y'],
    ]);
    assert.equal(view.cell(2, 0), null);
    const cols = [
      { name: 'b', type: 'text' },
      { name: 'c', type: 'text' },
    ];
    assert.equal(
      toJson(cols, view),
      toJson(cols, [
        ['a', 'x'],
        [null, 'y'],
      ]),
    );
  });
});
