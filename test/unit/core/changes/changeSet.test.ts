// The change set model (issue #23): every kind of edit, undo and redo, NULL against the empty
// string, duplicate and missing keys (with and without the server's answer), the stored form and
// rebasing onto a new base. Expected values are written out by hand from the rows below.
import { strict as assert } from 'node:assert';
import { ChangeSet, EditRefusedError } from '../../../../src/core/changes/changeSet';
import { ChangeSetFormatError } from '../../../../src/core/changes/changeSetJson';
import type { ChangeSetScope } from '../../../../src/core/changes/changeSetScope';
import type { Cell, QueryColumn } from '../../../../src/shared/wire';
import type { RowRef } from '../../../../src/shared/editProtocol';

const scope: ChangeSetScope = { hostId: 'h', owner: 'alice', name: 'prices', branch: 'main', table: 'products', baseCommit: 'base1' };
const columns: QueryColumn[] = [
  { name: 'id', type: 'bigint', is_primary_key: true, source_table: 'products' },
  { name: 'name', type: 'varchar(10)', source_table: 'products' },
  { name: 'category', type: 'varchar(64)', source_table: 'products' },
  { name: 'price', type: 'decimal(10,2)', source_table: 'products' },
];
const nullable = [false, false, true, true];
const APPLE: Cell[] = ['1', 'Apple', 'fruit', '0.50'];
const BANANA: Cell[] = ['2', 'Banana', 'fruit', '0.25'];
const CARROT: Cell[] = ['3', 'Carrot', null, '0.30'];

const row = (cells: Cell[]): RowRef => ({ key: [cells[0] ?? null], row: cells });
const make = (): ChangeSet => new ChangeSet({ scope, columns, keyColumns: [0], nullable });

describe('ChangeSet', () => {
  it('an edited cell is an update of the whole row; editing it back removes it', () => {
    const cs = make();
    const o = cs.apply({ kind: 'set', edits: [{ row: row(APPLE), column: 1, value: 'Apricot' }] });
    assert.deepEqual(o.base, [{ id: '["1"]', changes: [[1, 'Apricot']], deleted: false, problems: [] }]);
    assert.equal(o.counts.updated, 1);
    assert.deepEqual(cs.snapshot().updated, [{ before: APPLE, after: ['1', 'Apricot', 'fruit', '0.50'] }]);
    const back = cs.apply({ kind: 'set', edits: [{ row: row(APPLE), column: 1, value: 'Apple' }] });
    assert.deepEqual(back.removed, ['["1"]']);
    assert.ok(cs.isEmpty);
    assert.equal(cs.counts().canUndo, true, 'both steps stay undoable');
  });

  it('NULL and the empty string are different values; NOT NULL refuses NULL at the cell', () => {
    const cs = make();
    cs.apply({
      kind: 'set',
      edits: [
        { row: row(APPLE), column: 2, value: '' },
        { row: row(BANANA), column: 2, value: null },
        { row: row(CARROT), column: 2, value: '' },
      ],
    });
    const snap = cs.snapshot();
    assert.deepEqual(
      snap.updated.map((u) => u.after[2]),
      ['', null, ''],
    );
    assert.deepEqual(snap.problems, []);
    const o = cs.apply({ kind: 'set', edits: [{ row: row(BANANA), column: 1, value: null }] });
    assert.deepEqual(o.base[0]?.problems, [{ column: 1, message: 'name cannot be NULL.' }]);
    assert.equal(o.counts.problems, 1);
    assert.deepEqual(cs.snapshot().problems, [{ key: ['2'], column: 'name', message: 'name cannot be NULL.' }]);
    cs.apply({ kind: 'set', edits: [{ row: row(BANANA), column: 1, value: '' }] });
    assert.equal(cs.counts().problems, 0, 'the empty string is allowed where NULL is not');
  });

  it('values that do not fit the column are problems at the cell, by type and length', () => {
    const cs = make();
    const o = cs.apply({
      kind: 'set',
      edits: [
        { row: row(APPLE), column: 1, value: 'Pineapple!!' },
        { row: row(APPLE), column: 3, value: '1.234' },
        { row: row(BANANA), column: 3, value: 'cheap' },
      ],
    });
    const byId = new Map(o.base.map((b) => [b.id, b.problems]));
    assert.deepEqual(byId.get('["1"]'), [
      { column: 1, message: 'name (varchar(10)) needs at most 10 characters (this has 11).' },
      { column: 3, message: 'price (decimal(10,2)) needs a decimal with at most 8 digits before the point and 2 after.' },
    ]);
    assert.deepEqual(byId.get('["2"]'), [
      { column: 3, message: 'price (decimal(10,2)) needs a decimal number (digits, one point, no exponent).' },
    ]);
    assert.equal(o.counts.problems, 2);
  });

  it('new rows: NULL cells at first, a missing key is a problem, a filled key waits for the server', () => {
    const cs = make();
    const o = cs.apply({ kind: 'addRows', count: 2 });
    assert.deepEqual(o.order, [1, 2]);
    assert.deepEqual(o.newRows[0]?.cells, [null, null, null, null]);
    assert.deepEqual(o.newRows[0]?.problems, [
      { column: 0, message: 'Missing primary key: id is required.' },
      { column: 1, message: 'name cannot be NULL.' },
    ]);
    cs.apply({
      kind: 'set',
      edits: [
        { row: { newRow: 1 }, column: 0, value: '10' },
        { row: { newRow: 1 }, column: 1, value: 'Kiwi' },
      ],
    });
    assert.deepEqual(cs.counts(), { updated: 0, inserted: 2, deleted: 0, problems: 1, pending: 1, canUndo: true, canRedo: false });
    assert.deepEqual(cs.keysToCheck(), [['10']]);
    const checked = cs.recordExistingKeys([['10']], []);
    assert.deepEqual(checked.newRows, [{ id: 1, cells: ['10', 'Kiwi', null, null], problems: [] }]);
    assert.deepEqual(cs.keysToCheck(), []);
    // Row 2 is still all NULL: the snapshot names it by its position among the inserts.
    assert.deepEqual(
      cs.snapshot().problems.map((p) => [p.row, p.column]),
      [
        [1, 'id'],
        [1, 'name'],
      ],
    );
  });

  it('a key the table has at the base is a duplicate: from the server, or known from a row read there', () => {
    const cs = make();
    cs.apply({ kind: 'addRows', count: 1 });
    cs.apply({
      kind: 'set',
      edits: [
        { row: { newRow: 1 }, column: 0, value: '007' },
        { row: { newRow: 1 }, column: 1, value: 'Fig' },
      ],
    });
    const o = cs.recordExistingKeys([['007']], [['7']]);
    assert.deepEqual(o.newRows[0]?.problems, [{ column: 0, message: 'A row with id = 007 already exists in products.' }]);
    // Row 1 was read (it is edited): its key is known to exist without asking.
    cs.apply({ kind: 'set', edits: [{ row: row(APPLE), column: 2, value: 'pome' }] });
    cs.apply({ kind: 'addRows', count: 1 });
    const dup = cs.apply({
      kind: 'set',
      edits: [
        { row: { newRow: 2 }, column: 0, value: '1' },
        { row: { newRow: 2 }, column: 1, value: 'Pear' },
      ],
    });
    assert.deepEqual(dup.newRows.find((r) => r.id === 2)?.problems, [
      { column: 0, message: 'A row with id = 1 already exists in products.' },
    ]);
    assert.deepEqual(cs.keysToCheck(), []);
  });

  it('two new rows with one key are duplicates of each other until one changes', () => {
    const cs = make();
    cs.apply({ kind: 'addRows', count: 2 });
    cs.recordExistingKeys([['20']], []);
    const o = cs.apply({
      kind: 'set',
      edits: [
        { row: { newRow: 1 }, column: 0, value: '20' },
        { row: { newRow: 1 }, column: 1, value: 'A' },
        { row: { newRow: 2 }, column: 0, value: '20' },
        { row: { newRow: 2 }, column: 1, value: 'B' },
      ],
    });
    for (const r of o.newRows)
      assert.deepEqual(r.problems, [{ column: 0, message: 'Another new or changed row has the same primary key (id = 20).' }]);
    const fixed = cs.apply({ kind: 'set', edits: [{ row: { newRow: 2 }, column: 0, value: '21' }] });
    assert.deepEqual(fixed.newRows.find((r) => r.id === 1)?.problems, [], 'the other row is checked again when its duplicate goes away');
    assert.deepEqual(fixed.newRows.find((r) => r.id === 2)?.problems, [
      { column: 0, message: 'Checking whether id = 21 is free in the table…', pending: true },
    ]);
  });

  it('deleting a row frees its key for a new row; a deleted row cannot be edited', () => {
    const cs = make();
    cs.apply({ kind: 'deleteRows', rows: [row(BANANA)] });
    cs.apply({ kind: 'addRows', count: 1 });
    const o = cs.apply({
      kind: 'set',
      edits: [
        { row: { newRow: 1 }, column: 0, value: '2' },
        { row: { newRow: 1 }, column: 1, value: 'Plantain' },
      ],
    });
    assert.deepEqual(o.newRows[0]?.problems, []);
    assert.deepEqual(cs.snapshot().deleted, [BANANA]);
    assert.throws(
      () =>
        cs.apply({
          kind: 'set',
          edits: [
            { row: row(APPLE), column: 1, value: 'X' },
            { row: row(BANANA), column: 1, value: 'Y' },
          ],
        }),
      (e: unknown) => e instanceof EditRefusedError && /marked for deletion/.test(e.message),
    );
    assert.deepEqual(cs.snapshot().updated, [], 'the refused request left nothing behind, not even its first edit');
  });

  it('a row whose key is edited is a delete and an insert in the snapshot', () => {
    const cs = make();
    cs.apply({ kind: 'set', edits: [{ row: row(CARROT), column: 0, value: '30' }] });
    const snap = cs.snapshot();
    assert.deepEqual(snap.updated, []);
    assert.deepEqual(snap.deleted, [CARROT]);
    assert.deepEqual(snap.inserted, [['30', 'Carrot', null, '0.30']]);
    assert.deepEqual(cs.keysToCheck(), [['30']]);
  });

  it('undo and redo step through every kind of edit; a new edit ends redo', () => {
    const cs = make();
    cs.apply({ kind: 'set', edits: [{ row: row(APPLE), column: 1, value: 'Apricot' }] });
    cs.apply({ kind: 'addRows', count: 2 });
    cs.apply({ kind: 'set', edits: [{ row: { newRow: 2 }, column: 1, value: 'second' }] });
    cs.apply({ kind: 'deleteRows', rows: [row(BANANA), { newRow: 1 }] });
    assert.deepEqual(cs.snapshot().inserted, [[null, 'second', null, null]]);
    const undone = cs.apply({ kind: 'undo' });
    assert.deepEqual(undone.order, [1, 2], 'the deleted new row is back where it was');
    assert.deepEqual(cs.snapshot().deleted, []);
    cs.apply({ kind: 'undo' });
    assert.deepEqual(cs.snapshot().inserted, [
      [null, null, null, null],
      [null, null, null, null],
    ]);
    cs.apply({ kind: 'undo' });
    cs.apply({ kind: 'undo' });
    assert.ok(cs.isEmpty);
    assert.throws(() => cs.apply({ kind: 'undo' }), EditRefusedError);
    cs.apply({ kind: 'redo' });
    cs.apply({ kind: 'redo' });
    assert.deepEqual(cs.counts(), { updated: 1, inserted: 2, deleted: 0, problems: 2, pending: 0, canUndo: true, canRedo: true });
    cs.apply({ kind: 'set', edits: [{ row: row(CARROT), column: 3, value: '0.35' }] });
    assert.equal(cs.counts().canRedo, false);
    assert.throws(() => cs.apply({ kind: 'redo' }), /Nothing to redo/);
  });

  it('a paste that runs past the new rows adds rows in the same step', () => {
    const cs = make();
    cs.apply({ kind: 'addRows', count: 1 });
    cs.apply({
      kind: 'set',
      edits: [
        { row: { newRow: 1 }, column: 0, value: '40' },
        { row: { newRow: 1 }, column: 1, value: 'a' },
      ],
      newRows: [
        ['41', 'b'],
        ['42', 'c'],
      ],
    });
    assert.deepEqual(cs.snapshot().inserted, [
      ['40', 'a', null, null],
      ['41', 'b', null, null],
      ['42', 'c', null, null],
    ]);
    cs.apply({ kind: 'undo' });
    assert.deepEqual(cs.snapshot().inserted, [[null, null, null, null]]);
  });

  it('refuses rows that do not match their key and edits of bytes', () => {
    const cs = new ChangeSet({ scope, columns: [...columns, { name: 'logo', type: 'blob' }], keyColumns: [0] });
    assert.throws(
      () => cs.apply({ kind: 'set', edits: [{ row: { key: ['9'], row: [...APPLE, null] }, column: 1, value: 'x' }] }),
      /key it was named by/,
    );
    assert.throws(
      () => cs.apply({ kind: 'set', edits: [{ row: { key: ['1'], row: [...APPLE, '<binary>'] }, column: 4, value: 'x' }] }),
      /bytes/,
    );
    assert.ok(cs.isEmpty);
  });

  it('survives its stored form: the same rows, problems and server answers, without undo', () => {
    const cs = make();
    cs.apply({ kind: 'set', edits: [{ row: row(APPLE), column: 2, value: 'it\'s "quoted"\n\ttabbed ✓' }] });
    cs.apply({ kind: 'set', edits: [{ row: row(BANANA), column: 1, value: null }] });
    cs.apply({ kind: 'deleteRows', rows: [row(CARROT)] });
    cs.apply({ kind: 'addRows', count: 1 });
    cs.apply({
      kind: 'set',
      edits: [
        { row: { newRow: 1 }, column: 0, value: '50' },
        { row: { newRow: 1 }, column: 1, value: '' },
      ],
    });
    cs.recordExistingKeys([['50']], []);
    const stored = JSON.parse(JSON.stringify(cs.toJSON())) as unknown;
    const back = ChangeSet.fromJSON(stored);
    assert.deepEqual(back.snapshot(), cs.snapshot());
    assert.deepEqual(back.counts(), { ...cs.counts(), canUndo: false });
    assert.deepEqual(back.keysToCheck(), []);
    assert.throws(() => ChangeSet.fromJSON({ ...(stored as object), v: 2 }), ChangeSetFormatError);
    assert.throws(
      () => ChangeSet.fromJSON({ ...(stored as object), base: [{ key: ['1'], before: ['1'], changes: [] }] }),
      /wrong number of cells/,
    );
  });

  it('rebases onto a new base: befores replaced, equal edits and deletes of gone rows dropped, new problems said', () => {
    const cs = make();
    cs.apply({
      kind: 'set',
      edits: [
        { row: row(APPLE), column: 1, value: 'Apricot' },
        { row: row(BANANA), column: 3, value: '0.30' },
        { row: row(CARROT), column: 1, value: 'Parsnip' },
      ],
    });
    cs.apply({ kind: 'deleteRows', rows: [{ key: ['4'], row: ['4', 'Milk', 'dairy', '1.10'] }] });
    cs.apply({ kind: 'addRows', count: 1 });
    cs.apply({
      kind: 'set',
      edits: [
        { row: { newRow: 1 }, column: 0, value: '6' },
        { row: { newRow: 1 }, column: 1, value: 'Egg' },
      ],
    });
    assert.deepEqual(
      cs.keysToRead().map((k) => k[0]),
      ['1', '2', '3', '4', '6'],
    );
    // At the new base: apple's category changed, banana already costs 0.30, carrot and milk were
    // deleted, and someone added a row 6.
    const result = cs.rebase('base2', [
      ['1', 'Apple', 'pome', '0.50'],
      ['2', 'Banana', 'fruit', '0.30'],
      ['6', 'Eggs', 'dairy', '2.00'],
    ]);
    assert.deepEqual(result, { kept: 1, dropped: 2, gone: 1, problems: 2 });
    assert.equal(cs.scope.baseCommit, 'base2');
    const snap = cs.snapshot();
    assert.deepEqual(snap.updated, [
      { before: ['1', 'Apple', 'pome', '0.50'], after: ['1', 'Apricot', 'pome', '0.50'] },
      { before: CARROT, after: ['3', 'Parsnip', null, '0.30'] },
    ]);
    assert.deepEqual(snap.deleted, []);
    assert.deepEqual(
      snap.problems.map((p) => p.message),
      ['A row with id = 6 already exists in products.', 'This row is no longer on the branch: it was deleted since your edits were made.'],
    );
    assert.equal(cs.counts().canUndo, false);
  });
});
