import { strict as assert } from 'node:assert';
import { parseChangesViewMessage } from '../../../src/shared/changesProtocol';
import { parsePullWebviewMessage } from '../../../src/shared/pullProtocol';

describe('Changes view and pull view Changes messages', () => {
  it('accepts what the view sends and orders kinds', () => {
    assert.deepEqual(parseChangesViewMessage({ type: 'changes.select', table: 'products' }), { type: 'changes.select', table: 'products' });
    assert.deepEqual(parseChangesViewMessage({ type: 'changes.kinds', kinds: ['removed', 'added'] }), {
      type: 'changes.kinds',
      kinds: ['added', 'removed'],
    });
    assert.deepEqual(parseChangesViewMessage({ type: 'changes.hideUnchanged', on: true }), { type: 'changes.hideUnchanged', on: true });
    assert.deepEqual(parseChangesViewMessage({ type: 'changes.exportPatch' }), { type: 'changes.exportPatch' });
  });

  it('drops anything malformed', () => {
    for (const bad of [
      null,
      [],
      { type: 'changes.select' },
      { type: 'changes.select', table: '' },
      { type: 'changes.kinds', kinds: [] },
      { type: 'changes.kinds', kinds: ['added', 'renamed'] },
      { type: 'changes.hideUnchanged', on: 'yes' },
      { type: 'eval' },
    ]) {
      assert.equal(parseChangesViewMessage(bad), undefined, JSON.stringify(bad));
    }
  });

  it('the pull view opens a table (or all) and marks a table viewed', () => {
    assert.deepEqual(parsePullWebviewMessage({ type: 'changes.open', table: '' }), { type: 'changes.open', table: '' });
    assert.deepEqual(parsePullWebviewMessage({ type: 'focused', extra: 1 }), { type: 'focused' });
    assert.deepEqual(parsePullWebviewMessage({ type: 'changes.viewed', table: 'suppliers', viewed: true }), {
      type: 'changes.viewed',
      table: 'suppliers',
      viewed: true,
    });
    assert.equal(parsePullWebviewMessage({ type: 'changes.viewed', table: '', viewed: true }), undefined);
    assert.equal(parsePullWebviewMessage({ type: 'changes.viewed', table: 'x', viewed: 1 }), undefined);
  });
});
