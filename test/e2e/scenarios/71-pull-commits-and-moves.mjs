import assert from 'node:assert/strict';
import { answerHostPick, confirmDialog } from './pullHelpers.mjs';
import { frameWith, plainMergeBase, plainRows } from './changesHelpers.mjs';
import { importTable } from './tableHelpers.mjs';
import { waitFor } from '../../helpers/waitFor.cjs';

export const name =
  "a pull's own commits (each opening its changes), a push to its branch noticed by the open view, and a conflicting pull's primary path";
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };

async function openPull(ctx, pick) {
  await ctx.runCommand('Versioned DB: Show Pull Request');
  await answerHostPick(ctx);
  await ctx.quickPick('alice/prices');
  await ctx.quickPick(pick);
}

/** The pull's own commits by plain reads: the head's log less the merge base's, newest first. */
async function plainPullCommits(ctx, to, from) {
  const base = await plainMergeBase(ctx, 'alice/prices', to, from);
  const inBase = new Set((await plainRows(ctx, 'alice/prices', base, 'SELECT commit_hash FROM dolt_log')).map((r) => r.commit_hash));
  return (await plainRows(ctx, 'alice/prices', from, 'SELECT commit_hash FROM dolt_log'))
    .map((r) => r.commit_hash)
    .filter((h) => !inBase.has(h));
}

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const pull = (await ctx.hub.api('/databases/alice/prices/pulls/4')).body.data;
  const [to, from] = [pull.to_branch.branch_name, pull.from_branch.branch_name];
  const expected = await plainPullCommits(ctx, to, from);
  assert.ok(expected.length > 0);

  await openPull(ctx, '#4 Update suppliers and the catalogue');
  const view = await frameWith(ctx, '#pull-commits li.pull-commit', { timeout: ctx.scaled(60_000) });
  const listed = async () =>
    view.locator('#pull-commits li.pull-commit').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-commit')));
  assert.deepEqual(await listed(), expected, 'the commits of the pull, newest first');
  await ctx.screenshot('pull-commits');

  // A commit opens its own changes.
  await view.locator(`#pull-commits button[data-commit-open="${expected[0]}"]`).click();
  await ctx.page
    .locator('.part.editor .tab', { hasText: `Changes: ${expected[0].slice(0, 7)}` })
    .first()
    .waitFor({ timeout: ctx.scaled(60_000) });
  await frameWith(ctx, '.chg-list button[data-table]', { timeout: ctx.scaled(60_000) });

  // A push to the pull's branch: the view notices when it is shown again, and Refresh lists the new commit.
  await importTable(ctx, 'review_notes', 'id,note\n1,pushed later\n', ['id'], 'create', from);
  const [head] = (await plainRows(ctx, 'alice/prices', from, 'SELECT commit_hash FROM dolt_log LIMIT 1')).map((r) => r.commit_hash);
  await ctx.page.locator('.part.editor .tab', { hasText: /^#4 / }).first().click();
  const pullView = await frameWith(ctx, '#pull-head-moved .head-moved', { timeout: ctx.scaled(60_000) });
  assert.equal(await pullView.locator('#pull-head-moved .head-moved').getAttribute('data-head'), head);
  assert.match(await pullView.locator('#pull-head-moved').innerText(), new RegExp(`${from} moved on`));
  assert.deepEqual(await pullView.locator('#pull-commits li.pull-commit').count(), expected.length, 'still what it read');
  await ctx.screenshot('head-moved');
  await pullView.locator('#pull-head-moved button[data-action="refresh"]').click();
  await pullView.locator(`#pull-commits li.pull-commit[data-commit="${head}"]`).waitFor({ timeout: ctx.scaled(60_000) });
  assert.deepEqual(
    await pullView.locator('#pull-commits li.pull-commit').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-commit'))),
    await plainPullCommits(ctx, to, from),
  );
  assert.equal(await pullView.locator('#pull-head-moved .head-moved').count(), 0, 'the notice is gone after Refresh');

  // Another push while the view stays the active editor: coming back to it from the side bar (no
  // view state changes) with a click in the view looks again, well before the 30 s poll. (Not a
  // click on its tab at once: see e2e/README, "Coming back to a webview".)
  await importTable(ctx, 'review_notes', 'id,note\n2,pushed again\n', ['id'], 'update', from);
  const [again] = (await plainRows(ctx, 'alice/prices', from, 'SELECT commit_hash FROM dolt_log LIMIT 1')).map((r) => r.commit_hash);
  await (await ctx.treeItem('alice/prices')).click();
  await pullView.locator('h1 .pull-title').click();
  await pullView.locator(`#pull-head-moved .head-moved[data-head="${again}"]`).waitFor({ timeout: ctx.scaled(10_000) });

  // The conflicting pull #5: Settle Conflicts is the primary button, Merge a secondary one.
  await openPull(ctx, /^#5 /);
  const conflict = await frameWith(ctx, '#merge-preview .merge-preview[data-state="conflicts"]', { timeout: ctx.scaled(60_000) });
  const background = (loc) => loc.evaluate((b) => getComputedStyle(b).backgroundColor);
  const primary = await background(conflict.locator('#merge-preview button[data-action="settleConflicts"]'));
  const secondary = await background(conflict.locator('button[data-action="refresh"]').first());
  assert.equal(await background(conflict.locator('button[data-action="merge"]')), secondary, 'Merge looks secondary');
  assert.notEqual(primary, secondary, 'Settle Conflicts looks primary');
  await ctx.screenshot('conflict-primary');

  // Merging anyway fails, and its progress notification ends with the failure.
  // Recorded (toast or VS Code's announcement): an error added while the progress toast shows may
  // be announced and kept in the notification center without being drawn (see the fixtures).
  const notes = await ctx.recordNotifications();
  await conflict.locator('button[data-action="merge"]').click();
  await confirmDialog(ctx, 'Merge');
  await notes.waitFor(/Merging pull request #5 failed/, { timeout: ctx.scaled(60_000) });
  await waitFor(
    'the merge progress notification to close',
    async () => (await ctx.page.locator('.notification-toast', { hasText: /Merging pull request #5 into/ }).count()) === 0,
    { timeoutMs: ctx.scaled(20_000), intervalMs: 200 },
  );
  await ctx.screenshot('merge-failed');
  assert.equal((await ctx.hub.api('/databases/alice/prices/pulls/5')).body.data.state, 'open');
}
