// Row diffs from results shaped like the docs' DOLT_DIFF('main', 'feature_branch', 'inventory')
// example: `quantity` dropped and `color`, `size` added on the feature branch.
import { strict as assert } from 'node:assert';
import type { DiffTableSpec } from '../../../../src/core/review/doltQueries';
import {
  changedColumns,
  diffColumns,
  parseColumns,
  parseRowDiffCounts,
  parseRowDiffPage,
  rowDiffExportTable,
} from '../../../../src/core/review/rowDiff';
import { toCsv } from '../../../../src/shared/queryResultFormat';
import { ReviewResultError } from '../../../../src/core/review/resultReader';
import type { TableColumnInfo } from '../../../../src/core/sql/tableQuery';
import { result } from './reviewTestKit';

const FROM: TableColumnInfo[] = [
  { name: 'pk', type: 'int', primaryKey: true, nullable: false },
  { name: 'name', type: 'text', primaryKey: false },
  { name: 'quantity', type: 'int', primaryKey: false },
];
const TO: TableColumnInfo[] = [
  { name: 'pk', type: 'int', primaryKey: true, nullable: false },
  { name: 'name', type: 'text', primaryKey: false },
  { name: 'color', type: 'text', primaryKey: false },
  { name: 'size', type: 'int', primaryKey: false },
];
const SPEC: DiffTableSpec = { table: 'inventory', fromColumns: FROM, toColumns: TO };
const COLS = ['diff_type', 'from_pk', 'from_name', 'from_quantity', 'to_pk', 'to_name', 'to_color', 'to_size'];

describe('row diff pages', () => {
  const page = parseRowDiffPage(
    result(COLS, [
      ['modified', '1', 'shirt', '70', '1', 'shirt', 'false', '15'],
      ['modified', '2', 'shoes', '200', '2', 'boots', 'brown', '9'],
      ['added', null, null, null, '4', 'hat', 'grey', '6'],
      ['removed', '5', 'scarf', '3', null, null, null, null],
      ['modified', '6', 'x', '1', '6', 'x', null, null],
    ]),
    SPEC,
    4,
  );

  it('the columns: `to` order, then columns only the old side had', () => {
    assert.deepEqual(diffColumns(SPEC), [
      { name: 'pk', presence: 'both', primaryKey: true },
      { name: 'name', presence: 'both', primaryKey: false },
      { name: 'color', presence: 'to', primaryKey: false },
      { name: 'size', presence: 'to', primaryKey: false },
      { name: 'quantity', presence: 'from', primaryKey: false },
    ]);
  });

  it('a modified row: old → new, changed only where both sides have the column and differ', () => {
    const shoes = page.rows[1];
    assert.equal(shoes?.kind, 'modified');
    assert.deepEqual(shoes?.key, ['2']);
    assert.deepEqual(shoes?.cells, [
      { column: 'pk', presence: 'both', old: '2', new: '2', changed: false, comparable: true },
      { column: 'name', presence: 'both', old: 'shoes', new: 'boots', changed: true, comparable: true },
      { column: 'color', presence: 'to', new: 'brown', changed: false, comparable: true },
      { column: 'size', presence: 'to', new: '9', changed: false, comparable: true },
      { column: 'quantity', presence: 'from', old: '200', changed: false, comparable: true },
    ]);
  });

  it('an added row has only new values, a removed one only old; the key comes from the side that exists', () => {
    const hat = page.rows[2];
    assert.equal(hat?.kind, 'added');
    assert.deepEqual(hat?.key, ['4']);
    assert.deepEqual(
      hat?.cells.map((c) => [c.column, c.old, c.new, c.changed]),
      [
        ['pk', undefined, '4', true],
        ['name', undefined, 'hat', true],
        ['color', undefined, 'grey', true],
        ['size', undefined, '6', true],
        ['quantity', undefined, undefined, false],
      ],
    );
    const scarf = page.rows[3];
    assert.equal(scarf?.kind, 'removed');
    assert.deepEqual(scarf?.key, ['5']);
    assert.deepEqual(
      scarf?.cells.map((c) => [c.column, c.old, c.new, c.changed]),
      [
        ['pk', '5', undefined, true],
        ['name', 'scarf', undefined, true],
        ['color', undefined, undefined, false],
        ['size', undefined, undefined, false],
        ['quantity', '3', undefined, true],
      ],
    );
  });

  it('one row past the page means more, and the next page starts after the last key', () => {
    assert.equal(page.rows.length, 4);
    assert.equal(page.hasMore, true);
    assert.deepEqual(page.nextAfter, ['5']);
    assert.deepEqual(page.completeness, { complete: true });
  });

  it('hide unchanged columns keeps the key, one-sided columns and columns changed in a modified row', () => {
    assert.deepEqual(changedColumns(page), ['pk', 'name', 'color', 'size', 'quantity']);
    const same: DiffTableSpec = { table: 'inventory', fromColumns: TO, toColumns: TO };
    const p = parseRowDiffPage(
      result(
        ['diff_type', 'from_pk', 'from_name', 'from_color', 'from_size', 'to_pk', 'to_name', 'to_color', 'to_size'],
        [
          ['modified', '1', 'a', 'red', '1', '1', 'a', 'blue', '1'],
          ['modified', '2', 'b', 'red', '2', '2', 'b', 'red', '3'],
          ['added', null, null, null, null, '3', 'c', 'x', '9'],
        ],
      ),
      same,
      10,
    );
    assert.deepEqual(changedColumns(p), ['pk', 'color', 'size']);
    // A page of whole rows added or removed keeps every column.
    assert.deepEqual(changedColumns({ columns: p.columns, rows: p.rows.filter((r) => r.kind === 'added') }), [
      'pk',
      'name',
      'color',
      'size',
    ]);
  });

  it('two <binary> values cannot be compared: not marked changed, but never hidden', () => {
    const cols: TableColumnInfo[] = [
      { name: 'id', type: 'int', primaryKey: true },
      { name: 'logo', type: 'blob', primaryKey: false },
      { name: 'city', type: 'text', primaryKey: false },
    ];
    const spec = { table: 'stores', fromColumns: cols, toColumns: cols };
    const p = parseRowDiffPage(
      result(
        ['diff_type', 'from_id', 'from_logo', 'from_city', 'to_id', 'to_logo', 'to_city'],
        [['modified', '1', '<binary>', 'Lisbon', '1', '<binary>', 'Lisbon']],
      ),
      spec,
      10,
    );
    const logo = p.rows[0]?.cells[1];
    assert.equal(logo?.changed, false);
    assert.equal(logo?.comparable, false);
    assert.deepEqual(changedColumns(p), ['id', 'logo']);
  });

  it('a keyless table has no key and no keyset cursor', () => {
    const cols: TableColumnInfo[] = [{ name: 'name', type: 'varchar(50)', primaryKey: false }];
    const p = parseRowDiffPage(
      result(
        ['diff_type', 'from_name', 'to_name'],
        [
          ['added', null, 'shirt'],
          ['added', null, 'pants'],
        ],
      ),
      { table: 'items', fromColumns: cols, toColumns: cols },
      1,
    );
    assert.deepEqual(p.rows[0]?.key, []);
    assert.equal(p.hasMore, true);
    assert.equal(p.nextAfter, undefined);
  });

  it('exports as CSV: the kind, then old and new per column on the sides that have it', () => {
    const table = rowDiffExportTable(page.columns, page.rows.slice(1, 4));
    assert.equal(
      toCsv(table.columns, table.rows),
      [
        'diff_type,from_pk,to_pk,from_name,to_name,to_color,to_size,from_quantity',
        'modified,2,2,shoes,boots,brown,9,200',
        'added,,4,,hat,grey,6,',
        'removed,5,,scarf,,,,3',
        '',
      ].join('\r\n'),
    );
  });

  it('a partial page says so; a missing column or unknown kind is an error', () => {
    const partial = parseRowDiffPage(result(COLS, [['added', null, null, null, '4', 'hat', 'grey', '6']], 'row_limit'), SPEC, 10);
    assert.deepEqual(partial.completeness, { complete: false, reason: 'row_limit' });
    assert.throws(() => parseRowDiffPage(result(COLS.slice(0, 7), []), SPEC, 10), /to_size/);
    assert.throws(() => parseRowDiffPage(result(COLS, [['renamed', '1', 'a', '1', '1', 'a', 'b', '1']]), SPEC, 10), ReviewResultError);
  });
});

describe('row diff counts and columns', () => {
  it('counts per kind; kinds with no rows are 0', () => {
    assert.deepEqual(
      parseRowDiffCounts(
        result(
          ['diff_type', 'row_count'],
          [
            ['modified', '3'],
            ['added', '100000'],
          ],
        ),
      ),
      {
        added: 100000,
        modified: 3,
        removed: 0,
        total: 100003,
        completeness: { complete: true },
      },
    );
  });

  it('DESCRIBE rows become column infos (key, type, nullability)', () => {
    const cols = parseColumns(
      result(
        ['Field', 'Type', 'Null', 'Key', 'Default', 'Extra'],
        [
          ['id', 'bigint', 'NO', 'PRI', null, ''],
          ['name', 'varchar(255)', 'NO', '', null, ''],
          ['price', 'decimal(10,2)', 'YES', '', null, ''],
        ],
      ),
    );
    assert.deepEqual(cols, [
      { name: 'id', type: 'bigint', primaryKey: true, nullable: false },
      { name: 'name', type: 'varchar(255)', primaryKey: false, nullable: false },
      { name: 'price', type: 'decimal(10,2)', primaryKey: false, nullable: true },
    ]);
  });
});
