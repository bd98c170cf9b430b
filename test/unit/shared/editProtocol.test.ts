// The host checks every editing message from the grid before acting on it.
import { strict as assert } from 'node:assert';
import { canPropose, parseGridEditMessage, rowKeyId } from '../../../src/shared/editProtocol';

describe('editProtocol', () => {
  it('accepts the requests the grid sends', () => {
    const set = {
      type: 'edit.apply',
      sourceId: 's',
      request: { kind: 'set', edits: [{ row: { key: ['1'], row: ['1', 'a'] }, column: 1, value: null }], newRows: [['2', 'b']] },
    };
    assert.deepEqual(parseGridEditMessage(set), set);
    assert.deepEqual(parseGridEditMessage({ type: 'edit.apply', sourceId: 's', request: { kind: 'addRows', count: 3 } }), {
      type: 'edit.apply',
      sourceId: 's',
      request: { kind: 'addRows', count: 3 },
    });
    assert.ok(parseGridEditMessage({ type: 'edit.apply', sourceId: 's', request: { kind: 'deleteRows', rows: [{ newRow: 4 }] } }));
    assert.ok(parseGridEditMessage({ type: 'edit.apply', sourceId: 's', request: { kind: 'undo' } }));
    assert.deepEqual(parseGridEditMessage({ type: 'edit.action', sourceId: 's', action: 'propose' }), {
      type: 'edit.action',
      sourceId: 's',
      action: 'propose',
    });
  });

  it('refuses anything malformed', () => {
    const bad: unknown[] = [
      null,
      { type: 'edit.apply', request: { kind: 'undo' } },
      { type: 'edit.apply', sourceId: 's', request: { kind: 'addRows', count: 0 } },
      { type: 'edit.apply', sourceId: 's', request: { kind: 'addRows', count: 1e9 } },
      { type: 'edit.apply', sourceId: 's', request: { kind: 'set', edits: [{ row: { key: [], row: [] }, column: 0, value: 'x' }] } },
      { type: 'edit.apply', sourceId: 's', request: { kind: 'set', edits: [{ row: { newRow: 1 }, column: -1, value: 'x' }] } },
      { type: 'edit.apply', sourceId: 's', request: { kind: 'set', edits: [{ row: { newRow: 1 }, column: 0, value: 5 }] } },
      { type: 'edit.apply', sourceId: 's', request: { kind: 'deleteRows', rows: [] } },
      { type: 'edit.apply', sourceId: 's', request: { kind: 'drop table' } },
      { type: 'edit.action', sourceId: 's', action: 'merge' },
    ];
    for (const m of bad) assert.equal(parseGridEditMessage(m), undefined, JSON.stringify(m));
  });

  it('names rows by their key cells and proposes only a non-empty change set with no problem left', () => {
    assert.equal(rowKeyId(['1', null]), '["1",null]');
    const counts = { updated: 1, inserted: 0, deleted: 0, problems: 0, pending: 0, canUndo: true, canRedo: false };
    assert.equal(canPropose(counts), true);
    assert.equal(canPropose({ ...counts, problems: 1 }), false);
    assert.equal(canPropose({ ...counts, pending: 1 }), false);
    assert.equal(canPropose({ ...counts, updated: 0 }), false);
  });
});
