import { strict as assert } from 'node:assert';
import { copyCommitHash, createBranch, createRelease, createTag, validateRefName } from '../../../src/commands/versioningCommands';
import type { BranchNode, CategoryNode, DatabaseNode, TagNode } from '../../../src/tree/treeNodes';
import { DB, HASH_DEV, HASH_MAIN, HASH_TAG, HOST, callsOf, kit } from './commandTestKit';
import { input, pickOrType, typeInPicker } from '../../helpers/scriptedUi';
import { aBranch, aTag } from '../../builders/wire';

const dbNode: DatabaseNode = { kind: 'database', hostId: HOST.id, db: DB };
const parent: CategoryNode = { kind: 'category', hostId: HOST.id, db: DB, category: 'branches' };
const devNode: BranchNode = {
  kind: 'branch',
  hostId: HOST.id,
  db: DB,
  parent,
  branch: aBranch({ name: 'dev', head_commit_sha: HASH_DEV }),
};
const tagNode: TagNode = { kind: 'tag', hostId: HOST.id, db: DB, parent, tag: aTag({ name: 'v1', commit_sha: HASH_TAG }) };

describe('versioning commands', () => {
  it('branch from a picked branch', async () => {
    const k = kit([pickOrType('main'), input('feature/x')]);
    const b = await createBranch(k.deps, dbNode);
    assert.equal(b?.name, 'feature/x');
    assert.deepEqual(callsOf(k, 'createBranch')[0]!.slice(0, 2), [DB, { name: 'feature/x', from: { branch: 'main' } }]);
    assert.ok(k.refreshed.includes('alice/prices:branches'));
    assert.match(k.ui.infos[0]!, /Created branch feature\/x at aaaaaaaa/);
  });

  it('branch from a pasted commit hash', async () => {
    const hash = '0123456789abcdefghijklmnopqrstuv';
    const k = kit([typeInPicker(hash), input('fix')]);
    await createBranch(k.deps, dbNode);
    assert.deepEqual(callsOf(k, 'createBranch')[0]![1], { name: 'fix', from: { commit: hash } });
  });

  it('branch from a tag whose name was typed and accepted before the choices were listed: its commit', async () => {
    const k = kit([typeInPicker('v1'), input('from-v1')]);
    await createBranch(k.deps, dbNode);
    assert.deepEqual(callsOf(k, 'createBranch')[0]![1], { name: 'from-v1', from: { commit: HASH_TAG } });
  });

  it('branch from a branch node asks only for the name', async () => {
    const k = kit([input('dev2')]);
    await createBranch(k.deps, devNode);
    assert.deepEqual(callsOf(k, 'createBranch')[0]![1], { name: 'dev2', from: { branch: 'dev' } });
    assert.equal(callsOf(k, 'listBranches').length, 0);
  });

  it('tag with a message is annotated; without one lightweight', async () => {
    const k = kit([input('v2'), input('Second release')]);
    await createTag(k.deps, devNode);
    assert.deepEqual(callsOf(k, 'createTag')[0]![1], { name: 'v2', from: { branch: 'dev' }, message: 'Second release' });
    assert.match(k.ui.infos[0]!, /annotated tag v2/);
    const k2 = kit([pickOrType('v1'), input('v1-copy'), input('  ')]);
    await createTag(k2.deps, dbNode);
    assert.deepEqual(callsOf(k2, 'createTag')[0]![1], { name: 'v1-copy', from: { commit: HASH_TAG } });
  });

  it('release on an existing tag uses its commit and does not ask to create the tag', async () => {
    const k = kit([pickOrType('v1'), input('Version 1'), input('Notes')]);
    await createRelease(k.deps, dbNode);
    assert.deepEqual(callsOf(k, 'createRelease')[0]![1], { tag: 'v1', title: 'Version 1', commit_sha: HASH_TAG, description: 'Notes' });
    assert.ok(k.refreshed.includes('alice/prices:releases'));
  });

  it('release with a new tag at a branch head creates the tag if missing', async () => {
    const k = kit([typeInPicker('v2'), pickOrType('main'), input('v2'), input('')]);
    await createRelease(k.deps, dbNode);
    assert.deepEqual(callsOf(k, 'createRelease')[0]![1], { tag: 'v2', title: 'v2', commit_sha: HASH_MAIN, create_tag_if_not_exists: true });
    assert.ok(k.refreshed.includes('alice/prices:releases,tags'));
  });

  it('release from a tag node or a pasted commit', async () => {
    const k = kit([input('One'), input('')]);
    await createRelease(k.deps, tagNode);
    assert.deepEqual(callsOf(k, 'createRelease')[0]![1], { tag: 'v1', title: 'One', commit_sha: HASH_TAG });
    const hash = 'vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv';
    const k2 = kit([typeInPicker('v3'), typeInPicker(hash), input('Three'), input('')]);
    await createRelease(k2.deps, dbNode);
    assert.equal((callsOf(k2, 'createRelease')[0]![1] as { commit_sha: string }).commit_sha, hash);
  });

  it('release at a branch whose name was typed and accepted before the branches were listed: its head', async () => {
    const k = kit([typeInPicker('v4'), typeInPicker('main'), input('Four'), input('')]);
    await createRelease(k.deps, dbNode);
    assert.deepEqual(callsOf(k, 'createRelease')[0]![1], {
      tag: 'v4',
      title: 'Four',
      commit_sha: HASH_MAIN,
      create_tag_if_not_exists: true,
    });
    assert.equal(k.ui.infos.filter((m) => /not a commit hash/.test(m)).length, 0);
  });

  it('release refuses a pasted text that is not a commit hash', async () => {
    const k = kit([typeInPicker('v3'), typeInPicker('not-a-hash')]);
    assert.equal(await createRelease(k.deps, dbNode), undefined);
    assert.match(k.ui.infos[0]!, /not a commit hash/);
    assert.equal(callsOf(k, 'createRelease').length, 0);
  });

  it('copy commit hash copies the full hash', async () => {
    const k = kit([]);
    await copyCommitHash(k.deps, devNode);
    assert.deepEqual(k.ui.copied, [HASH_DEV]);
  });

  it('validates ref names the way Dolt would refuse them', () => {
    assert.equal(validateRefName('feature/new-thing_1', 'branch'), undefined);
    for (const bad of ['', 'has space', '-x', 'a..b', 'a/', 'x.lock', 'a~1', 'a:b']) {
      assert.ok(validateRefName(bad, 'branch'), `${bad} should be refused`);
    }
    assert.ok(validateRefName('0123456789abcdefghijklmnopqrstuv', 'branch'));
  });
});
