// An unsent change set as the Changes view's diff: rows by primary key (numbers as numbers), each
// with its kind and, for a changed row, the row before; the kind filter; the export rows.
import { strict as assert } from 'node:assert';
import { ChangeSet } from '../../../../src/core/changes/changeSet';
import { ChangeSetDiffSource } from '../../../../src/core/changes/changeSetDiffSource';

const cs = new ChangeSet({
  scope: { hostId: 'h', owner: 'o', name: 'n', branch: 'main', table: 't', baseCommit: 'c' },
  columns: [
    { name: 'id', type: 'int', is_primary_key: true },
    { name: 'v', type: 'text' },
  ],
  keyColumns: [0],
});
cs.apply({ kind: 'set', edits: [{ row: { key: ['10'], row: ['10', 'ten'] }, column: 1, value: 'TEN' }] });
cs.apply({ kind: 'deleteRows', rows: [{ key: ['9'], row: ['9', 'nine'] }] });
cs.apply({ kind: 'addRows', count: 1 });
cs.apply({
  kind: 'set',
  edits: [
    { row: { newRow: 1 }, column: 0, value: '100' },
    { row: { newRow: 1 }, column: 1, value: 'hundred' },
  ],
});
// Re-keyed: row 2 becomes row 20 (a delete and an insert).
cs.apply({ kind: 'set', edits: [{ row: { key: ['2'], row: ['2', 'two'] }, column: 0, value: '20' }] });

describe('ChangeSetDiffSource', () => {
  it('orders rows by key as numbers, with their kinds and the row before a change', async () => {
    const src = new ChangeSetDiffSource(cs.snapshot());
    assert.equal(await src.count(), 5);
    const page = await src.read(0, 10);
    assert.deepEqual(page.rows, [
      ['2', 'two'],
      ['9', 'nine'],
      ['10', 'TEN'],
      ['20', 'two'],
      ['100', 'hundred'],
    ]);
    assert.deepEqual(page.kinds, ['removed', 'removed', 'modified', 'added', 'added']);
    assert.deepEqual(page.old, [null, null, ['10', 'ten'], null, null]);
    assert.equal(page.end, true);
    assert.deepEqual(src.keyColumns(), [0]);
    assert.match(src.checkView({ sort: [{ column: 'v', direction: 'asc' }], filters: [] }) ?? '', /ordered by primary key/);
  });

  it('shows only the kinds asked for, and exports diff_type with from_/to_ columns', async () => {
    const modified = new ChangeSetDiffSource(cs.snapshot(), ['modified']);
    assert.deepEqual((await modified.read(0, 10)).rows, [['10', 'TEN']]);
    const { columns, source } = new ChangeSetDiffSource(cs.snapshot()).exportSource();
    assert.deepEqual(
      columns.map((c) => c.name),
      ['diff_type', 'from_id', 'to_id', 'from_v', 'to_v'],
    );
    const rows = (await source.read(0, 3, { sort: [], filters: [] }, new AbortController().signal)).rows;
    assert.deepEqual(rows, [
      ['removed', '2', null, 'two', null],
      ['removed', '9', null, 'nine', null],
      ['modified', '10', '10', 'ten', 'TEN'],
    ]);
  });
});
