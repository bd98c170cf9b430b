// Versioning commands inside a real extension host against the seeded hub: branch, annotated tag,
// release with a new tag at a branch head, and a fork with its progress notification ending in
// the tree. Every result is checked on the server.
import * as assert from 'node:assert/strict';
import { forkDatabase } from '../../src/commands/databaseCommands';
import { createBranch, createRelease, createTag } from '../../src/commands/versioningCommands';
import { harness, labelOf, type Harness } from './versioningHarness';

describe('versioning commands', function () {
  this.timeout(120_000);
  let h: Harness;
  const db = { owner: 'alice', name: 'prices' };
  const suffix = Date.now().toString(36);

  before(async () => {
    h = await harness();
    if (!h.api.services.accounts.activeAccount(h.hostId)) await h.signInAsAlice();
    await h.api.tree.databases.add(h.hostId, db);
  });

  it('creates a branch from main', async () => {
    h.ui.answer('main', `f1-${suffix}`);
    const branch = await createBranch(h.deps, { kind: 'database', hostId: h.hostId, db });
    assert.deepEqual(h.ui.errors, []);
    assert.equal(branch?.name, `f1-${suffix}`);
    const server = await h.server.listBranches(db);
    const main = server.items.find((b) => b.name === 'main')!;
    const created = server.items.find((b) => b.name === `f1-${suffix}`);
    assert.equal(created?.head_commit_sha, main.head_commit_sha);
    const tree = await h.childrenAt('Test Hub', 'alice/prices', 'Branches');
    assert.ok(
      tree.some((n) => labelOf(n, h) === `f1-${suffix}`),
      'the new branch is not in the tree',
    );
  });

  it('creates an annotated tag from the new branch', async () => {
    h.ui.answer(`f1-${suffix}`, `t-${suffix}`, 'Tagged by the integration test');
    await createTag(h.deps, { kind: 'database', hostId: h.hostId, db });
    assert.deepEqual(h.ui.errors, []);
    const tag = (await h.server.listTags(db)).items.find((t) => t.name === `t-${suffix}`);
    assert.equal(tag?.message, 'Tagged by the integration test');
  });

  it('creates a release with a new tag at a branch head', async () => {
    h.ui.answer({ typed: `r-${suffix}` }, 'main', `Release ${suffix}`, 'Notes **here**');
    await createRelease(h.deps, { kind: 'database', hostId: h.hostId, db });
    assert.deepEqual(h.ui.errors, []);
    const main = (await h.server.listBranches(db)).items.find((b) => b.name === 'main')!;
    const release = (await h.server.listReleases(db)).items.find((r) => r.tag === `r-${suffix}`);
    assert.equal(release?.title, `Release ${suffix}`);
    assert.equal(release?.commit_sha, main.head_commit_sha);
    assert.ok(
      (await h.server.listTags(db)).items.some((t) => t.name === `r-${suffix}`),
      'the tag was not created',
    );
    const tree = await h.childrenAt('Test Hub', 'alice/prices', 'Releases');
    assert.ok(tree.some((n) => labelOf(n, h) === `Release ${suffix}`));
  });

  it('forks into my namespace with a progress notification, then shows the fork in the tree', async () => {
    const source = { owner: 'acme', name: 'warehouse' };
    await h.api.tree.databases.add(h.hostId, source);
    const fork = await forkDatabase(h.deps, { kind: 'database', hostId: h.hostId, db: source });
    assert.deepEqual(h.ui.errors, []);
    assert.deepEqual(fork, { owner: 'alice', name: 'warehouse' });
    const onServer = await h.server.getDatabase(fork);
    assert.deepEqual(onServer.parent, source);
    assert.ok(h.api.tree.databases.has(h.hostId, fork));
    const forks = await h.childrenAt('Test Hub', 'acme/warehouse', 'Forks');
    assert.ok(forks.some((n) => labelOf(n, h) === 'alice/warehouse'));
  });
});
