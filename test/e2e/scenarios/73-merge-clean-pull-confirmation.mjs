import assert from 'node:assert/strict';
import { answerHostPick } from './pullHelpers.mjs';
import { frameWith, plainDiff, plainMergeBase } from './changesHelpers.mjs';

export const name = 'the clean pull #4 merges through a confirmation that names its tables and row counts and says it will not conflict';
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };

function countsText(c) {
  return [c.added ? `${c.added} added` : '', c.modified ? `${c.modified} modified` : '', c.removed ? `${c.removed} removed` : '']
    .filter(Boolean)
    .join(', ');
}

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const pull = (await ctx.hub.api('/databases/alice/prices/pulls/4')).body.data;
  const base = await plainMergeBase(ctx, 'alice/prices', 'main', pull.from_branch.branch_name);
  const expected = {};
  for (const table of ['products', 'suppliers'])
    expected[table] = (await plainDiff(ctx, 'alice/prices', table, base, pull.from_branch.branch_name)).counts;
  const total = Object.values(expected).reduce((n, c) => n + c.added + c.modified + c.removed, 0);

  await ctx.runCommand('Versioned DB: Show Pull Request');
  await answerHostPick(ctx);
  await ctx.quickPick('alice/prices');
  await ctx.quickPick(/^#4 /);
  const view = await frameWith(ctx, '#merge-preview .merge-preview[data-state="clean"]', { timeout: ctx.scaled(60_000) });
  const section = view.locator('#merge-preview');
  assert.equal((await section.locator('.verdict').innerText()).trim(), 'No conflicts: it merges cleanly.');
  for (const [table, c] of Object.entries(expected)) {
    assert.equal(
      (await section.locator(`tr[data-table="${table}"] td`).nth(1).innerText()).trim(),
      countsText(c),
      `${table} in the section`,
    );
  }
  await ctx.screenshot('before-merging');

  // Recorded, not waited for as visible: the progress toast may last only a few frames.
  const notes = await ctx.recordNotifications();
  await view.locator('button[data-action="merge"]').click();
  const dialog = ctx.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  const detail = dialog.locator('.dialog-message-detail');
  await detail.waitFor({ timeout: ctx.scaled(10_000) });
  const text = await detail.innerText();
  assert.match(text, new RegExp(`It changes ${total} rows in 2 tables:`));
  for (const [table, c] of Object.entries(expected))
    assert.ok(text.includes(`• ${table}: ${countsText(c)}`), `${table}: ${countsText(c)} in ${text}`);
  assert.match(text, /No conflicts: it merges cleanly\./);
  await ctx.screenshot('confirmation');
  await dialog
    .locator('.dialog-buttons .monaco-button', { hasText: /^\s*Merge\s*$/ })
    .first()
    .click();
  await notes.waitFor(/Merging pull request #4 into main/);
  await ctx.waitForNotification(/Pull request #4 is merged/, { timeout: ctx.scaled(60_000) });
  assert.equal((await ctx.hub.api('/databases/alice/prices/pulls/4')).body.data.state, 'merged');
}
