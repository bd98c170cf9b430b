// The Databases tree inside a real extension host against the seeded hub: databases enter by
// owner/name or pasted web address (checked with GET), hosts → databases → categories → items
// with short hashes, pull state filter, Remove.
import * as assert from 'node:assert/strict';
import { addDatabase, removeDatabase } from '../../src/commands/databaseCommands';
import { filterPulls } from '../../src/commands/treeCommands';
import { describeBranch } from '../../src/core/nodeDescriptions';
import { harness, labelOf, type Harness } from './versioningHarness';

describe('databases tree', function () {
  this.timeout(60_000);
  let h: Harness;

  before(async () => {
    h = await harness();
    if (!h.api.services.accounts.activeAccount(h.hostId)) await h.signInAsAlice();
  });

  it('adds a database by owner/name after checking it exists', async () => {
    h.ui.answer('alice/prices');
    const ref = await addDatabase(h.deps);
    assert.deepEqual(ref, { owner: 'alice', name: 'prices' });
    const dbs = await h.childrenAt('Test Hub');
    assert.ok(dbs.some((n) => labelOf(n, h) === 'alice/prices'));
  });

  it('adds a database from a pasted web address', async () => {
    h.ui.answer(`${h.hubUrl}/repositories/alice/inventory/data/main`);
    await addDatabase(h.deps);
    assert.ok(h.api.tree.databases.has(h.hostId, { owner: 'alice', name: 'inventory' }));
  });

  it('refuses a database the server does not have, keeping the tree unchanged', async () => {
    const before = h.api.tree.databases.list(h.hostId).length;
    h.ui.answer('alice/no-such-db');
    assert.equal(await addDatabase(h.deps), undefined);
    assert.equal(h.api.tree.databases.list(h.hostId).length, before);
    assert.equal((h.ui.errors.pop() as { status?: number }).status, 404);
  });

  it('shows the six categories and branches with short hashes matching the server', async () => {
    const cats = await h.childrenAt('Test Hub', 'alice/prices');
    assert.deepEqual(
      cats.map((n) => labelOf(n, h)),
      ['Branches', 'Tags', 'Releases', 'Pull Requests', 'Forks', 'Operations'],
    );
    const branches = await h.childrenAt('Test Hub', 'alice/prices', 'Branches');
    const server = (await h.server.listBranches({ owner: 'alice', name: 'prices' })).items;
    const main = branches.find((n) => n.kind === 'branch' && n.branch.name === 'main');
    assert.ok(main && main.kind === 'branch', 'main is not in the tree');
    const serverMain = server.find((b) => b.name === 'main')!;
    assert.equal(main.branch.head_commit_sha, serverMain.head_commit_sha);
    assert.ok(describeBranch(main.branch, Date.now()).description?.startsWith(serverMain.head_commit_sha.slice(0, 8)));
  });

  it('filters pull requests by state on the client, open by default', async () => {
    const all = (await h.server.listPulls({ owner: 'alice', name: 'prices' })).items;
    const open = await h.childrenAt('Test Hub', 'alice/prices', 'Pull Requests');
    const openOnServer = all.filter((p) => p.state === 'open');
    assert.equal(open.filter((n) => n.kind === 'pull').length, openOnServer.length);
    h.ui.answer('open,closed,merged');
    await filterPulls(h.deps, { kind: 'database', hostId: h.hostId, db: { owner: 'alice', name: 'prices' } });
    const every = await h.childrenAt('Test Hub', 'alice/prices', 'Pull Requests');
    assert.equal(every.filter((n) => n.kind === 'pull').length, all.length);
    assert.ok(all.length > openOnServer.length, 'the seed should have closed or merged pulls');
    h.ui.answer('open');
    await filterPulls(h.deps, { kind: 'database', hostId: h.hostId, db: { owner: 'alice', name: 'prices' } });
  });

  it('renders rows as a user sees them: short hash and time, full tooltip, menus by state', async () => {
    const provider = h.api.tree.provider;
    const [branch] = (await h.childrenAt('Test Hub', 'alice/prices', 'Branches')).filter((n) => n.kind === 'branch');
    const item = provider.getTreeItem(branch!);
    assert.equal(item.contextValue, 'branch');
    assert.match(String(item.description), /^[0-9a-v]{8}( · .+)?$/);
    const tooltip = (item.tooltip as { value: string }).value;
    assert.ok(branch!.kind === 'branch' && tooltip.includes(branch.branch.head_commit_sha), 'the tooltip has the full hash');
    h.ui.answer('open,closed,merged');
    await filterPulls(h.deps, { kind: 'database', hostId: h.hostId, db: { owner: 'alice', name: 'prices' } });
    const pulls = (await h.childrenAt('Test Hub', 'alice/prices', 'Pull Requests')).filter((n) => n.kind === 'pull');
    const states = new Set(pulls.map((p) => provider.getTreeItem(p).contextValue));
    assert.ok(
      [...states].every((c) => /^pull\.(open|closed|merged)$/.test(c ?? '')),
      [...states].join(', '),
    );
    assert.equal(provider.getTreeItem(pulls[0]!).command?.command, 'versionedDb.showPullRequest');
    h.ui.answer('open');
    await filterPulls(h.deps, { kind: 'database', hostId: h.hostId, db: { owner: 'alice', name: 'prices' } });
    const host = provider.getTreeItem((await h.api.tree.model.children())[0]!);
    assert.equal(host.contextValue, 'host.signedIn');
    assert.equal(host.description, 'alice');
  });

  it('Remove forgets the database in the tree only', async () => {
    await removeDatabase(h.deps, { kind: 'database', hostId: h.hostId, db: { owner: 'alice', name: 'inventory' } });
    assert.equal(h.api.tree.databases.has(h.hostId, { owner: 'alice', name: 'inventory' }), false);
    assert.equal((await h.server.getDatabase({ owner: 'alice', name: 'inventory' })).name, 'inventory');
  });
});
