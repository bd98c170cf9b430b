import { strict as assert } from 'node:assert';
import { databaseTargetOf, pickKnownDatabase } from '../../../src/tree/databaseTargets';
import type { CategoryNode, ForkNode, TreeNode } from '../../../src/tree/treeNodes';
import { ScriptedUi, pick } from '../../helpers/scriptedUi';
import { aBranch } from '../../builders/wire';

const alice = { owner: 'alice', name: 'inventory' };
const bob = { owner: 'bob', name: 'inventory' };
const parent: CategoryNode = { kind: 'category', hostId: 'h1', db: alice, category: 'forks' };

describe('databaseTargetOf', () => {
  it('reads tree nodes: a fork row names the fork, any other row its database, a host none', () => {
    const fork: ForkNode = { kind: 'fork', hostId: 'h1', db: alice, parent, fork: bob };
    assert.deepEqual(databaseTargetOf(fork), { hostId: 'h1', db: bob });
    const branch: TreeNode = { kind: 'branch', hostId: 'h1', db: alice, parent: { ...parent, category: 'branches' }, branch: aBranch() };
    assert.deepEqual(databaseTargetOf(branch), { hostId: 'h1', db: alice });
    assert.equal(databaseTargetOf({ kind: 'host', hostId: 'h1' }), undefined);
  });

  it('reads plain { hostId, db } and { hostId, database } objects, and nothing else', () => {
    assert.deepEqual(databaseTargetOf({ hostId: 'h1', db: alice, pullNumber: 3 }), { hostId: 'h1', db: alice });
    assert.deepEqual(databaseTargetOf({ hostId: 'h1', database: { ...bob, extra: 1 } }), { hostId: 'h1', db: bob });
    for (const junk of [
      undefined,
      null,
      'alice/inventory',
      { hostId: 'h1' },
      { db: alice },
      { hostId: 1, db: alice },
      { hostId: 'h1', db: { owner: 'a' } },
    ]) {
      assert.equal(databaseTargetOf(junk), undefined, JSON.stringify(junk));
    }
  });
});

describe('pickKnownDatabase', () => {
  const databases = (byHost: Record<string, (typeof alice)[]>) => ({
    hostIds: () => Object.keys(byHost),
    list: (h: string) => byHost[h] ?? [],
  });
  const labelOf = (h: string) => `Host ${h}`;

  it('lists the current database first and marked, also when it is not in the tree, on the hosts asked for', async () => {
    const ui = new ScriptedUi([pick('bob/inventory')]);
    const picked = await pickKnownDatabase(
      { ui, databases: databases({ h1: [alice], h2: [{ owner: 'carol', name: 'x' }] }), labelOf },
      { title: 'Where?', emptyMessage: 'none', hostFilter: (h) => h === 'h1', current: { hostId: 'h1', db: bob } },
    );
    assert.deepEqual(picked, { hostId: 'h1', db: bob });
    assert.deepEqual(ui.picks[0]!.labels, ['bob/inventory', 'alice/inventory']);
  });

  it('takes the only database without asking, and says so when there is none', async () => {
    const one = new ScriptedUi([]);
    assert.deepEqual(
      await pickKnownDatabase({ ui: one, databases: databases({ h1: [alice] }), labelOf }, { title: 't', emptyMessage: 'none' }),
      { hostId: 'h1', db: alice },
    );
    assert.equal(one.picks.length, 0);
    const none = new ScriptedUi([]);
    assert.equal(
      await pickKnownDatabase({ ui: none, databases: databases({}), labelOf }, { title: 't', emptyMessage: 'Add one first.' }),
      undefined,
    );
    assert.deepEqual(none.infos, ['Add one first.']);
  });
});
