// Table-level changes from results shaped like Dolt's documented DOLT_DIFF_SUMMARY,
// DOLT_DIFF_STAT, DOLT_SCHEMA_DIFF, DOLT_PATCH and DOLT_PREVIEW_MERGE_CONFLICTS_SUMMARY output.
import { strict as assert } from 'node:assert';
import { ReviewResultError } from '../../../../src/core/review/resultReader';
import {
  combineTableChanges,
  mergeImpact,
  parseConflictSummary,
  parseDiffStat,
  parseDiffSummary,
  parsePatchPage,
  parseSchemaDiff,
  patchScript,
  totalRowsChanged,
} from '../../../../src/core/review/tableChanges';
import { result } from './reviewTestKit';

const SUMMARY_COLUMNS = ['from_table_name', 'to_table_name', 'diff_type', 'data_change', 'schema_change'];
const STAT_COLUMNS = [
  'table_name',
  'rows_unmodified',
  'rows_added',
  'rows_deleted',
  'rows_modified',
  'cells_added',
  'cells_deleted',
  'cells_modified',
  'old_row_count',
  'new_row_count',
];

// The docs' example: `inventory` gained a column, a row and an update; `items` is a new keyless
// table; plus a dropped and a renamed table.
const summary = result(SUMMARY_COLUMNS, [
  ['inventory', 'inventory', 'modified', 'true', 'true'],
  ['', 'items', 'added', '1', '1'],
  ['old_prices', '', 'dropped', '1', '1'],
  ['stores', 'shops', 'renamed', '0', '1'],
]);
const stat = result(STAT_COLUMNS, [
  ['inventory', '1', '1', '0', '1', '6', '0', '1', '2', '3'],
  ['items', null, '2', '0', null, null, null, null, null, null],
  ['old_prices', '0', '0', '5', '0', '0', '10', '0', '5', '0'],
]);

describe('changed tables', () => {
  it('the summary says kind, data and schema change per table (booleans as 1/0 or true/false)', () => {
    const s = parseDiffSummary(summary);
    assert.deepEqual(s.tables[0], {
      table: 'inventory',
      fromTable: 'inventory',
      toTable: 'inventory',
      kind: 'modified',
      dataChanged: true,
      schemaChanged: true,
    });
    assert.deepEqual(s.tables[1], {
      table: 'items',
      fromTable: null,
      toTable: 'items',
      kind: 'added',
      dataChanged: true,
      schemaChanged: true,
    });
    assert.deepEqual(s.tables[2], {
      table: 'old_prices',
      fromTable: 'old_prices',
      toTable: null,
      kind: 'dropped',
      dataChanged: true,
      schemaChanged: true,
    });
    assert.deepEqual(s.tables[3], {
      table: 'shops',
      fromTable: 'stores',
      toTable: 'shops',
      kind: 'renamed',
      dataChanged: false,
      schemaChanged: true,
    });
  });

  it('the stat gives rows added, modified (unknown for keyless) and removed', () => {
    const st = parseDiffStat(stat);
    assert.deepEqual(st.counts.get('inventory'), { added: 1, modified: 1, removed: 0 });
    assert.deepEqual(st.counts.get('items'), { added: 2, modified: null, removed: 0 });
    assert.deepEqual(st.counts.get('old_prices'), { added: 0, modified: 0, removed: 5 });
  });

  it('combined: each table with its counts, sorted; schema-only tables have none; totals add up', () => {
    const all = combineTableChanges(parseDiffSummary(summary), parseDiffStat(stat));
    assert.deepEqual(
      all.tables.map((t) => [t.table, t.kind, t.rows ?? null]),
      [
        ['inventory', 'modified', { added: 1, modified: 1, removed: 0 }],
        ['items', 'added', { added: 2, modified: null, removed: 0 }],
        ['old_prices', 'dropped', { added: 0, modified: 0, removed: 5 }],
        ['shops', 'renamed', null],
      ],
    );
    assert.equal(totalRowsChanged(all.tables), 1 + 1 + 2 + 5);
    assert.deepEqual(all.completeness, { complete: true });
  });

  it('a partial stat makes the whole list partial', () => {
    const all = combineTableChanges(
      parseDiffSummary(summary),
      parseDiffStat(result(STAT_COLUMNS, stat.rows.slice(0, 1), 'row_limit', 'row limit exceeded')),
    );
    assert.deepEqual(all.completeness, { complete: false, reason: 'row_limit', message: 'row limit exceeded' });
  });

  it('refuses what it cannot read rather than guessing', () => {
    assert.throws(() => parseDiffSummary(result(SUMMARY_COLUMNS, [['a', 'a', 'exploded', '1', '0']])), /Unknown kind/);
    assert.throws(() => parseDiffSummary(result(SUMMARY_COLUMNS, [['a', 'a', 'modified', 'maybe', '0']])), /not a boolean/);
    assert.throws(() => parseDiffStat(result(STAT_COLUMNS, [['a', '1', '-2', '0', '0', '0', '0', '0', '0', '0']])), /not a count/);
    assert.throws(() => parseDiffStat(result(['table_name'], [])), ReviewResultError);
  });
});

describe('schema diff and patch', () => {
  it('the two CREATE statements; an added table has none before', () => {
    const s = parseSchemaDiff(
      result(
        ['from_table_name', 'to_table_name', 'from_create_statement', 'to_create_statement'],
        [
          [
            'inventory',
            'inventory',
            'CREATE TABLE `inventory` (\n  `pk` int NOT NULL,\n  PRIMARY KEY (`pk`)\n)',
            'CREATE TABLE `inventory` (\n  `pk` int NOT NULL,\n  `color` varchar(10),\n  PRIMARY KEY (`pk`)\n)',
          ],
          ['', 'items', '', 'CREATE TABLE `items` (\n  `name` varchar(50)\n)'],
        ],
      ),
    );
    assert.equal(s.changes[0]?.toCreate.includes('`color` varchar(10)'), true);
    assert.deepEqual(s.changes[1], {
      fromTable: null,
      toTable: 'items',
      fromCreate: '',
      toCreate: 'CREATE TABLE `items` (\n  `name` varchar(50)\n)',
    });
  });

  it('patch pages in statement order, and a script with one statement per line', () => {
    const cols = ['statement_order', 'table_name', 'diff_type', 'statement'];
    const page = parsePatchPage(
      result(cols, [
        ['1', 'inventory', 'data', 'UPDATE `inventory` SET `quantity`=0 WHERE `pk`=1;'],
        ['2', 'inventory', 'data', "INSERT INTO `inventory` (`pk`,`name`,`quantity`) VALUES (3,'hat',6);"],
        ['3', 'items', 'schema', 'CREATE TABLE `items` (\n  `name` varchar(50)\n)'],
      ]),
      2,
    );
    assert.equal(page.hasMore, true);
    assert.deepEqual(
      page.items.map((s) => s.order),
      [1, 2],
    );
    assert.equal(
      patchScript(page.items),
      "UPDATE `inventory` SET `quantity`=0 WHERE `pk`=1;\nINSERT INTO `inventory` (`pk`,`name`,`quantity`) VALUES (3,'hat',6);\n",
    );
    assert.equal(
      patchScript([{ order: 3, statement: 'CREATE TABLE `items` (`name` varchar(50))' }]),
      'CREATE TABLE `items` (`name` varchar(50));\n',
    );
    assert.equal(patchScript([]), '');
  });
});

describe('merge preview', () => {
  const conflictCols = ['table', 'num_data_conflicts', 'num_schema_conflicts'];

  it('conflict counts per table', () => {
    const c = parseConflictSummary(
      result(conflictCols, [
        ['stock', '1', '0'],
        ['notes', null, '1'],
      ]),
    );
    assert.deepEqual(c.tables, [
      { table: 'stock', dataConflicts: 1, schemaConflicts: 0 },
      { table: 'notes', dataConflicts: null, schemaConflicts: 1 },
    ]);
  });

  it('the merge confirmation: rows per table and whether it conflicts; never "clean" on a partial answer', () => {
    const changes = combineTableChanges(parseDiffSummary(summary), parseDiffStat(stat));
    const clean = mergeImpact(changes, parseConflictSummary(result(conflictCols, [])));
    assert.equal(clean.rowsChanged, 9);
    assert.equal(clean.willConflict, false);
    assert.deepEqual(clean.conflictingTables, []);
    const conflicting = mergeImpact(
      changes,
      parseConflictSummary(
        result(conflictCols, [
          ['stock', '1', '0'],
          ['other', '0', '0'],
        ]),
      ),
    );
    assert.equal(conflicting.willConflict, true);
    assert.deepEqual(
      conflicting.conflictingTables.map((t) => t.table),
      ['stock'],
    );
    const unsure = mergeImpact(changes, parseConflictSummary(result(conflictCols, [], 'timeout')));
    assert.equal(unsure.willConflict, 'unknown');
  });
});
