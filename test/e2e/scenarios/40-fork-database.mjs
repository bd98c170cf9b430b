import assert from 'node:assert/strict';

export const name = 'fork a database into my namespace with a progress notification; the fork appears in the tree';
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  // Two databases in the view, so Fork asks which one.
  await ctx.runCommand('Versioned DB: Add Database…');
  await ctx.inputBox('acme/warehouse');
  await ctx.waitForNotification('Added acme/warehouse.');

  await ctx.runCommand('Versioned DB: Fork Database…');
  // The progress notification lasts only while the fork runs, which on the local hub can be a few
  // milliseconds: record every toast from before the fork starts rather than wait for it to be
  // visible (a first attempt once missed it that way, the fork having succeeded).
  const toasts = await ctx.recordNotifications();
  await ctx.quickPick('acme/warehouse');
  await toasts.waitFor(/Forking acme\/warehouse into alice/);
  await ctx.waitForNotification(/Forked acme\/warehouse into alice\/warehouse/, { timeout: ctx.scaled(60_000) });
  await ctx.treeItem('alice/warehouse');
  await ctx.screenshot('forked');

  const fork = await ctx.hub.api('/databases/alice/warehouse');
  assert.equal(fork.status, 200);
  assert.deepEqual(fork.body.data.parent, { owner: 'acme', name: 'warehouse' });
}
