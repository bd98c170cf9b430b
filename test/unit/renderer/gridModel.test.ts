import { strict as assert } from 'node:assert';
import type { Cell, QueryColumn } from '../../../src/shared/wire';
import {
  GridModel as ArrayGridModel,
  MAX_INITIAL_COLUMN_WIDTH,
  MIN_COLUMN_WIDTH,
  estimateColumnWidth,
} from '../../../src/renderer/gridModel';
import type { CellTable } from '../../../src/shared/columnStore';
import { ColumnStore } from '../../../src/shared/columnStore';

const columns: QueryColumn[] = [
  { name: 'id', type: 'bigint', is_primary_key: true, source_table: 't' },
  { name: 'name', type: 'varchar(20)', source_table: 't' },
  { name: 'price', type: 'decimal(10,2)', source_table: 't' },
];
const rows: Cell[][] = [
  ['10', 'banana', '1.50'],
  ['9', 'Apple', null],
  ['100', 'cherry', '12.00'],
  ['2', 'apple pie', '3.25'],
];

function view(m: ArrayGridModel, col: number): Cell[] {
  return Array.from({ length: m.rowCount }, (_, r) => m.cell(r, col));
}

// Every behaviour holds whether the model reads the parsed row arrays (before the grid has
// compacted them) or the compact store (after).
for (const data of ['row arrays', 'compact store'] as const) {
  const GridModel = class extends ArrayGridModel {
    constructor(cols: readonly QueryColumn[], rs: readonly (readonly Cell[])[]) {
      super(cols, data === 'row arrays' ? rs : ColumnStore.fromRows(rs, cols.length));
    }
  };

  describe(`GridModel (${data})`, () => {
    it('header click sorts numbers numerically, then descending, then back to the server order', () => {
      const m = new GridModel(columns, rows);
      m.toggleSort(0);
      assert.deepEqual(view(m, 0), ['2', '9', '10', '100']);
      assert.equal(m.sortDirection(0), 'asc');
      m.toggleSort(0);
      assert.deepEqual(view(m, 0), ['100', '10', '9', '2']);
      m.toggleSort(0);
      assert.deepEqual(view(m, 0), ['10', '9', '100', '2']);
      assert.equal(m.sortDirection(0), undefined);
    });

    it('a decimal column puts NULL first ascending', () => {
      const m = new GridModel(columns, rows);
      m.toggleSort(2);
      assert.deepEqual(view(m, 2), [null, '1.50', '3.25', '12.00']);
    });

    it('shift-click adds a second sort key instead of replacing the first', () => {
      const m = new GridModel(
        [columns[1] as QueryColumn, columns[0] as QueryColumn],
        [
          ['a', '2'],
          ['b', '1'],
          ['a', '1'],
        ],
      );
      m.toggleSort(0);
      m.toggleSort(1, true);
      assert.deepEqual(m.sort, [
        { column: 0, direction: 'asc' },
        { column: 1, direction: 'asc' },
      ]);
      assert.deepEqual(view(m, 1), ['1', '2', '1']);
    });

    it('quick filter matches any cell case-insensitively and keeps the sort', () => {
      const m = new GridModel(columns, rows);
      m.toggleSort(0, false);
      m.setFilter('APPLE');
      assert.equal(m.rowCount, 2);
      assert.deepEqual(view(m, 1), ['apple pie', 'Apple']);
      m.setFilter('null');
      assert.deepEqual(view(m, 0), ['9']);
      m.setFilter('');
      assert.equal(m.rowCount, 4);
    });

    it('filtering clears a selection whose positions no longer mean the same rows', () => {
      const m = new GridModel(columns, rows);
      m.selectCell({ row: 1, col: 1 });
      m.setFilter('cherry');
      assert.equal(m.selection, undefined);
    });

    it('click, shift-click and drag make a rectangular range; copy data follows the view order', () => {
      const m = new GridModel(columns, rows);
      m.toggleSort(0); // 2, 9, 10, 100
      m.selectCell({ row: 0, col: 0 });
      m.selectCell({ row: 1, col: 1 }, true);
      assert.deepEqual(m.selection, { top: 0, bottom: 1, left: 0, right: 1 });
      const data = m.selectedData();
      assert.deepEqual(
        data.columns.map((c) => c.name),
        ['id', 'name'],
      );
      assert.deepEqual(data.rows, [
        ['2', 'apple pie'],
        ['9', 'Apple'],
      ]);
      assert.ok(m.isSelected(1, 1));
      assert.ok(!m.isSelected(2, 0));
    });

    it('keyboard: arrows move, shift+arrows extend, moves stop at the edges', () => {
      const m = new GridModel(columns, rows);
      m.move(1, 0); // first key press lands on the first cell
      assert.deepEqual(m.active, { row: 0, col: 0 });
      m.move(0, -1);
      assert.deepEqual(m.active, { row: 0, col: 0 });
      m.move(1, 1, true);
      m.move(10, 0, true);
      assert.deepEqual(m.selection, { top: 0, bottom: 3, left: 0, right: 1 });
      m.moveTo({ row: 0, col: 0 });
      assert.deepEqual(m.selection, { top: 0, bottom: 0, left: 0, right: 0 });
    });

    it('row, column and select-all selections', () => {
      const m = new GridModel(columns, rows);
      m.selectRow(2);
      assert.deepEqual(m.selection, { top: 2, bottom: 2, left: 0, right: 2 });
      m.selectRow(3, true);
      assert.deepEqual(m.selection, { top: 2, bottom: 3, left: 0, right: 2 });
      m.selectColumn(1);
      assert.deepEqual(m.selection, { top: 0, bottom: 3, left: 1, right: 1 });
      m.selectAll();
      assert.equal(m.selectedData().rows.length, 4);
    });

    it('with nothing selected, copy takes every row shown', () => {
      const m = new GridModel(columns, rows);
      m.setFilter('apple');
      assert.equal(m.selectedData().rows.length, 2);
      assert.equal(m.selectedData().columns.length, 3);
    });

    it('an empty result selects nothing and does not throw', () => {
      const m = new GridModel(columns, []);
      m.move(1, 1);
      m.selectAll();
      assert.equal(m.selection, undefined);
      assert.deepEqual(m.selectedData().rows, []);
    });

    it('column resize keeps a minimum width; initial widths follow the content', () => {
      const m = new GridModel(columns, rows);
      assert.equal(m.resizeColumn(0, 5), MIN_COLUMN_WIDTH);
      assert.equal(m.widths[0], MIN_COLUMN_WIDTH);
      assert.equal(m.resizeColumn(1, 250.4), 250);
      const narrow = estimateColumnWidth({ name: 'n', type: 'int' }, [['1']], 0);
      const wide = estimateColumnWidth({ name: 'n', type: 'text' }, [['x'.repeat(60)]], 0);
      assert.ok(wide > narrow);
      assert.ok(estimateColumnWidth({ name: 'n', type: 'text' }, [['x'.repeat(10000)]], 0) <= 360);
    });
  });
}

describe('GridModel export and the switch to the compact store', () => {
  it('export takes every row in the current sort, the filter ignored, without the selection', () => {
    const m = new ArrayGridModel(columns, ColumnStore.fromRows(rows, columns.length));
    m.toggleSort(0);
    m.toggleSort(0); // 100, 10, 9, 2
    m.setFilter('apple');
    m.selectCell({ row: 0, col: 0 });
    assert.equal(m.rowCount, 2);
    const all = m.exportTable();
    assert.equal(all.rowCount, 4);
    assert.deepEqual(
      Array.from({ length: all.rowCount }, (_, r) => all.cell(r, 0)),
      ['100', '10', '9', '2'],
    );
    m.toggleSort(0); // unsorted: server order
    const plain = m.exportTable();
    assert.deepEqual(
      Array.from({ length: plain.rowCount }, (_, r) => plain.cell(r, 1)),
      ['banana', 'Apple', 'cherry', 'apple pie'],
    );
  });

  it('swapping in the store keeps the sort, filter and selection the user has', () => {
    const m = new ArrayGridModel(columns, rows);
    m.toggleSort(2);
    m.setFilter('a');
    m.selectCell({ row: 0, col: 1 });
    m.selectCell({ row: 1, col: 2 }, true);
    const before = m.selectedData();
    m.replaceData(ColumnStore.fromRows(rows, columns.length));
    assert.deepEqual(m.selectedData(), before);
    assert.deepEqual(view(m, 2), [null, '1.50', '3.25']);
    assert.deepEqual(view(m, 1), ['Apple', 'banana', 'apple pie']);
    assert.throws(() => m.replaceData(ColumnStore.fromRows(rows.slice(1), columns.length)), /expected 4 × 3 cells/);
  });
});

describe('GridModel column widths as pages arrive', () => {
  const cols: QueryColumn[] = [
    { name: 'id', type: 'bigint', is_primary_key: true, source_table: 't' },
    { name: 'label', type: 'text', source_table: 't' },
  ];
  const remote = { local: false as const, rowCount: 1_000_000, cell: (): Cell => null };
  const page = (values: readonly (readonly Cell[])[]): CellTable => ({
    rowCount: values.length,
    columnCount: 2,
    cell: (r, c) => values[r]?.[c] ?? null,
  });

  it('a page whose values need more room widens those columns, by what the text needs at the measured character width', () => {
    const m = new ArrayGridModel(cols, remote);
    m.setCharWidth(10);
    const start = m.widths.slice();
    assert.equal(
      m.widenColumns(
        page([
          ['1', 'a'],
          ['22', 'bb'],
        ]),
      ),
      false,
      'values shorter than the headers change nothing',
    );
    assert.deepEqual(m.widths, start);
    assert.equal(m.widenColumns(page([['123456789012', 'x'.repeat(20)]])), true);
    // 12 and 20 characters of 10 px, plus the cell's padding: independent of how the model sums it.
    assert.ok(m.widths[0]! >= 12 * 10 + 12, `id ${m.widths[0]}`);
    assert.ok(m.widths[1]! >= 20 * 10 + 12, `label ${m.widths[1]}`);
  });

  it('a column never narrows on its own, and never grows past the cap', () => {
    const m = new ArrayGridModel(cols, remote);
    m.widenColumns(page([['1', 'y'.repeat(30)]]));
    const wide = m.widths.slice();
    assert.equal(m.widenColumns(page([['1', 'short']])), false);
    assert.deepEqual(m.widths, wide);
    m.widenColumns(page([['1', 'z'.repeat(5000)]]));
    assert.equal(m.widths[1], MAX_INITIAL_COLUMN_WIDTH);
  });

  it("a column the user resized keeps the user's width; the others still widen", () => {
    const m = new ArrayGridModel(cols, remote);
    m.resizeColumn(1, 90);
    const id = m.widths[0]!;
    assert.equal(m.widenColumns(page([['12345678901234567890', 'w'.repeat(40)]])), true);
    assert.equal(m.widths[1], 90);
    assert.ok(m.widths[0]! > id);
    m.setCharWidth(12);
    assert.equal(m.widths[1], 90, "a measured font does not undo the user's width");
  });

  it('a page is read whole up to a bounded number of cells, a larger one through rows spread over it', () => {
    const m = new ArrayGridModel(cols, remote);
    // A page of 10,000 rows (Load All Rows) of two columns: every row, so a wide value anywhere counts.
    const tenThousand = Array.from({ length: 10_000 }, (_, r): Cell[] => [String(r), r === 7_777 ? 'q'.repeat(40) : 'v']);
    assert.equal(m.widenColumns(page(tenThousand)), true);
    assert.ok(m.widths[1]! >= 40 * 7, `${m.widths[1]}`);
    let reads = 0;
    const big: CellTable = {
      rowCount: 1_000_000,
      columnCount: 2,
      cell: () => {
        reads++;
        return 'v';
      },
    };
    m.widenColumns(big);
    assert.ok(reads <= 50_000, `${reads} cells read`);
  });
});
