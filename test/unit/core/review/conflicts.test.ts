// Conflict rows from results shaped like Dolt's conflict schema (from_root_ish, base_/our_/their_
// columns, our_diff_type, their_diff_type, dolt_conflict_id).
import { strict as assert } from 'node:assert';
import { parseConflictPage } from '../../../../src/core/review/conflicts';
import { ReviewResultError } from '../../../../src/core/review/resultReader';
import { result } from './reviewTestKit';

const ROOT = 'v531ptpmv2tquig8v591tsjghtj84ksg';
const COLS = [
  'from_root_ish',
  'base_sku',
  'base_description',
  'base_quantity',
  'our_sku',
  'our_description',
  'our_quantity',
  'our_diff_type',
  'their_sku',
  'their_description',
  'their_quantity',
  'their_diff_type',
  'dolt_conflict_id',
];

describe('merge conflict preview rows', () => {
  it('base, ours and theirs per column, with how each side changed the row', () => {
    const page = parseConflictPage(
      result(COLS, [
        [
          ROOT,
          'B-300',
          'Sprokets',
          '0',
          'B-300',
          'Sprockets (new)',
          '0',
          'modified',
          'B-300',
          'Sprockets',
          '0',
          'modified',
          'hWDLmYufTrm+eVjFSVzPWw',
        ],
        [ROOT, null, null, null, 'C-1', 'Cogs', '5', 'added', 'C-1', 'Cogs', '7', 'added', 'gi2p1YbSwu8oUV/WRSpr3Q'],
        [ROOT, 'A-100', 'Widgets', '120', null, null, null, 'removed', 'A-100', 'Widgets', '90', 'modified', 'x1'],
      ]),
      10,
    );
    assert.deepEqual(page.columns, ['sku', 'description', 'quantity']);
    assert.equal(page.hasMore, false);
    assert.deepEqual(page.rows[0], {
      id: 'hWDLmYufTrm+eVjFSVzPWw',
      base: ['B-300', 'Sprokets', '0'],
      ours: ['B-300', 'Sprockets (new)', '0'],
      theirs: ['B-300', 'Sprockets', '0'],
      ourChange: 'modified',
      theirChange: 'modified',
      differs: [false, true, false],
    });
    assert.deepEqual(
      [page.rows[1]?.base, page.rows[1]?.ourChange, page.rows[1]?.differs],
      [[null, null, null], 'added', [false, false, true]],
    );
    assert.deepEqual([page.rows[2]?.ours, page.rows[2]?.ourChange, page.rows[2]?.theirChange], [[null, null, null], 'removed', 'modified']);
  });

  it('a column only one side has is absent (undefined) on the others', () => {
    const cols = [
      'from_root_ish',
      'base_id',
      'base_v',
      'our_id',
      'our_v',
      'our_diff_type',
      'their_id',
      'their_v',
      'their_w',
      'their_diff_type',
      'dolt_conflict_id',
    ];
    const page = parseConflictPage(result(cols, [[ROOT, '1', 'a', '1', 'b', 'modified', '1', 'c', 'new', 'modified', 'k']]), 10);
    assert.deepEqual(page.columns, ['id', 'v', 'w']);
    assert.deepEqual(page.rows[0]?.base, ['1', 'a', undefined]);
    assert.deepEqual(page.rows[0]?.theirs, ['1', 'c', 'new']);
    assert.deepEqual(page.rows[0]?.differs, [false, true, true]);
  });

  it('keyless tables: the cardinality columns are not table columns', () => {
    const cols = [
      'from_root_ish',
      'base_name',
      'our_name',
      'our_diff_type',
      'their_name',
      'their_diff_type',
      'dolt_conflict_id',
      'base_cardinality',
      'our_cardinality',
      'their_cardinality',
    ];
    const page = parseConflictPage(result(cols, [[ROOT, null, 'x', 'added', null, 'removed', 'k', '0', '1', '0']]), 10);
    assert.deepEqual(page.columns, ['name']);
  });

  it('pages: one row past the page means more; partial and broken answers are told apart', () => {
    const rows = [1, 2, 3].map((i) => [
      ROOT,
      String(i),
      'a',
      '1',
      String(i),
      'b',
      '1',
      'modified',
      String(i),
      'c',
      '1',
      'modified',
      `k${i}`,
    ]);
    const page = parseConflictPage(result(COLS, rows), 2);
    assert.equal(page.rows.length, 2);
    assert.equal(page.hasMore, true);
    assert.deepEqual(parseConflictPage(result(COLS, rows, 'row_limit'), 5).completeness, { complete: false, reason: 'row_limit' });
    assert.throws(() => parseConflictPage(result(['from_root_ish', 'dolt_conflict_id'], []), 5), ReviewResultError);
    assert.throws(
      () => parseConflictPage(result(COLS, [[ROOT, '1', 'a', '1', '1', 'b', '1', 'exploded', '1', 'c', '1', 'modified', 'k']]), 5),
      /Unknown kind/,
    );
  });
});
