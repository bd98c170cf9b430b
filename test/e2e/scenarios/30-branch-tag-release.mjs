import assert from 'node:assert/strict';

export const name = 'create a branch, an annotated tag and a release from the command palette';
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  await ctx.expand('alice/prices');
  await ctx.expand('Branches');

  await ctx.runCommand('Versioned DB: Create Branch…');
  await ctx.quickPick('main');
  await ctx.inputBox('e2e-branch');
  await ctx.waitForNotification(/Created branch e2e-branch at/);
  const branches = (await ctx.hub.api('/databases/alice/prices/branches')).body.data;
  const main = branches.find((b) => b.name === 'main');
  assert.equal(branches.find((b) => b.name === 'e2e-branch')?.head_commit_sha, main.head_commit_sha);
  await ctx.treeItem('e2e-branch');

  await ctx.runCommand('Versioned DB: Create Tag…');
  await ctx.quickPick('e2e-branch');
  await ctx.inputBox('e2e-tag');
  await ctx.inputBox('Tagged by the e2e run');
  await ctx.waitForNotification(/Created annotated tag e2e-tag/);
  const tags = (await ctx.hub.api('/databases/alice/prices/tags')).body.data;
  assert.equal(tags.find((t) => t.name === 'e2e-tag')?.message, 'Tagged by the e2e run');

  await ctx.runCommand('Versioned DB: Create Release…');
  await ctx.quickPick('e2e-v1'); // a new tag name, typed
  await ctx.quickPick('main'); // its commit: the head of main
  await ctx.inputBox('E2E Release');
  await ctx.inputBox('Made by the **e2e** run');
  await ctx.waitForNotification(/Created release E2E Release \(tag e2e-v1/);
  const releases = (await ctx.hub.api('/databases/alice/prices/releases')).body.data;
  const release = releases.find((r) => r.tag === 'e2e-v1');
  assert.equal(release?.title, 'E2E Release');
  assert.equal(release?.commit_sha, main.head_commit_sha);

  await ctx.expand('Releases');
  await ctx.treeItem('E2E Release');
  await ctx.expand('Tags');
  await ctx.treeItem('e2e-tag');
  await ctx.screenshot('tree-after-versioning');
}
