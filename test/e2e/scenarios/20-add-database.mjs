import assert from 'node:assert/strict';

export const name = 'add a database by owner/name; it shows in the tree with its branches';
/** The window opens signed in to Test Hub as alice (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice' };

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  await ctx.runCommand('Versioned DB: Add Database…');
  await ctx.inputBox('alice/prices');
  await ctx.waitForNotification('Added alice/prices.');

  await ctx.expand('alice/prices');
  await ctx.expand('Branches');
  const main = await ctx.treeItem('main');
  // The row's description is the short head hash the server reports.
  const { body } = await ctx.hub.api('/databases/alice/prices/branches');
  const head = body.data.find((b) => b.name === 'main').head_commit_sha;
  assert.match(await main.innerText(), new RegExp(head.slice(0, 8)));
  await ctx.screenshot('database-branches');
}
