// Show Unsent Changes… and Discard Changes… with a scripted UI: the scope passed from the grid, or
// a pick among the change sets kept; Discard asks first and forgets only on yes.
import { strict as assert } from 'node:assert';
import { ScriptedUi, confirm, pick } from '../../helpers/scriptedUi';
import { discardChanges, showChangeSet, type ChangeSetCommandDeps } from '../../../src/commands/changeSetActions';
import { ChangeSet } from '../../../src/core/changes/changeSet';
import type { ChangeSetScope } from '../../../src/core/changes/changeSetScope';
import type { ChangesRequest } from '../../../src/core/review/requests';

const scope: ChangeSetScope = { hostId: 'h', owner: 'alice', name: 'prices', branch: 'main', table: 'products', baseCommit: 'abcdef0123' };

function setup(ui: ScriptedUi): { deps: ChangeSetCommandDeps; opened: ChangesRequest[]; deleted: ChangeSetScope[] } {
  const cs = new ChangeSet({
    scope,
    columns: [
      { name: 'id', type: 'int' },
      { name: 'name', type: 'text' },
    ],
    keyColumns: [0],
  });
  cs.apply({ kind: 'set', edits: [{ row: { key: ['1'], row: ['1', 'a'] }, column: 1, value: 'b' }] });
  cs.apply({ kind: 'addRows', count: 2 });
  const opened: ChangesRequest[] = [];
  const deleted: ChangeSetScope[] = [];
  const kept = [scope];
  const deps: ChangeSetCommandDeps = {
    ui,
    changeSets: {
      list: () => kept.slice(),
      get: (s) => (typeof s !== 'string' && s.table === scope.table ? cs : undefined),
      delete: async (s) => {
        deleted.push(s);
        kept.length = 0;
      },
    },
    showChanges: async (r) => opened.push(r),
  };
  return { deps, opened, deleted };
}

describe('change set commands', () => {
  it('Show Unsent Changes opens the change set of the grid in the Changes view', async () => {
    const ui = new ScriptedUi([]);
    const { deps, opened } = setup(ui);
    await showChangeSet(deps, scope);
    assert.deepEqual(opened, [{ kind: 'changeSet', target: { hostId: 'h', db: { owner: 'alice', name: 'prices' } }, scope }]);
  });

  it('from the palette it asks which change set, with its counts', async () => {
    const ui = new ScriptedUi([pick('products @ main')]);
    const { deps, opened } = setup(ui);
    await showChangeSet(deps, undefined);
    assert.deepEqual(ui.picks[0]?.details, ['1 changed · 2 new · 0 deleted · 2 with problems · made on abcdef0']);
    assert.equal(opened.length, 1);
  });

  it('Discard asks first; no keeps the change set, yes forgets it', async () => {
    const no = new ScriptedUi([confirm(false)]);
    const a = setup(no);
    assert.equal(await discardChanges(a.deps, scope), false);
    assert.deepEqual(a.deleted, []);
    assert.deepEqual(no.confirms, ['Discard the unsent changes to products at main?']);
    assert.match(
      no.confirmDetails[0] ?? '',
      /^1 changed · 2 new · 0 deleted .* made on abcdef0 of alice\/prices\. They were never sent; discarding them cannot be undone\.$/,
    );
    const yes = new ScriptedUi([confirm(true)]);
    const b = setup(yes);
    assert.equal(await discardChanges(b.deps, scope), true);
    assert.deepEqual(b.deleted, [scope]);
    // Nothing left: the palette says so instead of asking.
    const again = new ScriptedUi([]);
    const c = setup(again);
    await c.deps.changeSets.delete(scope);
    assert.equal(await discardChanges(c.deps, undefined), false);
    assert.deepEqual(again.infos, ['There are no unsent changes: edit a table opened at a branch first.']);
  });
});
