import assert from 'node:assert/strict';
import { answerHostPick, confirmDialog } from './pullHelpers.mjs';

export const name = 'a pull request merges from the command palette with a progress notification and ends merged';
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const before = await ctx.hub.api('/databases/alice/prices/pulls/1');
  assert.equal(before.status, 200);
  assert.equal(before.body.data.state, 'open', 'the seeded pull #1 should start open');

  await ctx.runCommand('Versioned DB: Merge Pull Request…');
  await answerHostPick(ctx);
  // Pull commands always ask for the database (a pick among those in the view, or typed).
  await ctx.quickPick('alice/prices');
  await ctx.quickPick('#1 Add the 2025 prices');
  // The progress notification lasts only while the merge runs, which on a quick machine is a few
  // frames: recorded from before the merge starts (a MutationObserver), not waited for as visible
  // (75 missed a toast that way once).
  const notes = await ctx.recordNotifications();
  await confirmDialog(ctx, 'Merge', /Merge pull request #1 "Add the 2025 prices"\?/);

  // The progress notification was up while the merge operation was polled.
  await notes.waitFor(/Merging pull request #1 into main/);
  const done = await ctx.waitForNotification(/Pull request #1 is merged: prices-2025 → main/, { timeout: ctx.scaled(60_000) });
  await ctx.screenshot('merged');
  assert.ok(await done.getByRole('button', { name: 'Show Pull Request' }).isVisible(), 'the merged notification links to the pull');

  const after = await ctx.hub.api('/databases/alice/prices/pulls/1');
  assert.equal(after.body.data.state, 'merged');
  const ops = await ctx.hub.api('/databases/alice/prices/operations');
  assert.ok(ops.body.data.some((o) => o.type === 'merge' && o.status === 'succeeded' && String(o.result?.pull_id) === '1'));
}
