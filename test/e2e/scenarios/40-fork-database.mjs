import assert from 'node:assert/strict';

export const name = 'fork a database into my namespace with a progress notification; the fork appears in the tree';

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  await ctx.openView();
  await ctx.runCommand('Versioned DB: Add Database…');
  await ctx.inputBox('acme/warehouse');
  await ctx.waitForNotification('Added acme/warehouse.');

  await ctx.runCommand('Versioned DB: Fork Database…');
  await ctx.quickPick('acme/warehouse');
  await ctx.waitForNotification(/Forking acme\/warehouse into alice/);
  await ctx.screenshot('forking');
  await ctx.waitForNotification(/Forked acme\/warehouse into alice\/warehouse/, { timeout: 60_000 });
  await ctx.treeItem('alice/warehouse');
  await ctx.screenshot('forked');

  const fork = await ctx.hub.api('/databases/alice/warehouse');
  assert.equal(fork.status, 200);
  assert.deepEqual(fork.body.data.parent, { owner: 'acme', name: 'warehouse' });
}
