import assert from 'node:assert/strict';
import { waitFor } from '../../helpers/waitFor.cjs';
import { answerHostPick, typeInTextEditor } from './pullHelpers.mjs';

export const name =
  'signed out, a write answers 401 and the notification offers Sign in, which fixes it; a comment refused so is kept, and Edit and Try Again posts it';
// This scenario provokes a 401 on purpose; a component that logs that refusal as an error is
// expected here, and only here. Any other error line still fails the scenario.
export const expectedErrors = [/\b401\b|UNAUTHENTICATED/];
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  await ctx.runCommand('Versioned DB: Sign Out…');
  await ctx.waitForNotification(/Signed out alice from Test Hub; its token was deleted/);

  // The editor a comment over several lines is written in says how to end the edit, for as long as
  // it lasts; that notification's Cancel cancels it (the editor closes).
  await openCommentEditor(ctx);
  const hint = await ctx.waitForNotification(/Use This Text in the title bar/);
  await hint.getByRole('button', { name: 'Cancel' }).click();
  await ctx.page.locator('.part.editor .tab', { hasText: /^Comment \d+/ }).waitFor({ state: 'detached', timeout: ctx.scaled(30_000) });

  // A comment written over several lines is refused: what was written is kept with the failure.
  const comment = ['Are the dairy prices final?', '', '- milk', '- cheese'];
  await openCommentEditor(ctx);
  await typeInTextEditor(ctx, /^Comment \d+/, comment);
  const kept = await ctx.waitForNotification(
    /Could not comment on pull request #1 of alice\/prices: .*What you wrote was not sent; it is kept here/,
  );
  assert.ok(await kept.getByRole('button', { name: 'Copy What You Wrote' }).isVisible(), 'the text can be copied');

  // Public reads still work signed out (the branch picker lists branches); the write is refused.
  await ctx.runCommand('Versioned DB: Create Branch…');
  // alice/prices is the only database in the view: the command goes straight to where to start.
  await ctx.quickInput.locator('.quick-input-title', { hasText: 'Create Branch in alice/prices' }).waitFor({ state: 'visible' });
  await ctx.quickPick('main');
  await ctx.inputBox('needs-an-account');
  const toast = await ctx.waitForNotification(/Could not create branch needs-an-account: Test Hub needs you to sign in/);
  await ctx.screenshot('401-sign-in');
  assert.ok(await toast.getByRole('button', { name: 'Copy request id' }).isVisible(), 'the request id can be copied');
  await toast.getByRole('button', { name: 'Sign in' }).click();

  // "Sign in" goes straight to that host's sign-in.
  await ctx.quickPick('Personal access token');
  await ctx.inputBox(await ctx.hub.token('alice'));
  await ctx.waitForNotification(/Signed in to Test Hub as alice/);

  const branches = (await ctx.hub.api('/databases/alice/prices/branches')).body.data;
  assert.ok(!branches.some((b) => b.name === 'needs-an-account'), 'the refused write changed nothing');

  // Signed in again, the refused comment is still offered: it opens where it was written (it has
  // several lines), with its text, and is posted as written.
  const comments = async () => (await ctx.hub.api('/databases/alice/prices/pulls/1/comments')).body.data.map((c) => c.body);
  assert.ok(!(await comments()).includes(comment.join('\n')), 'the refused comment was not posted');
  // Shown before the sign-in, it is looked for where a person finds an earlier one: the notification center.
  const again = await ctx.waitForNotification(/Could not comment on pull request #1 of alice\/prices: .*What you wrote was not sent/, {
    center: true,
  });
  await again.getByRole('button', { name: 'Edit and Try Again' }).click();
  const editor = ctx.page.locator('.part.editor .editor-instance .monaco-editor').first();
  await editor.locator('.view-lines .view-line', { hasText: '- cheese' }).waitFor({ timeout: ctx.scaled(30_000) });
  await ctx.screenshot('refused-comment-offered-again');
  await typeInTextEditor(ctx, /^Comment \d+/, null);
  await waitFor('the comment to be posted', async () => (await comments()).includes(comment.join('\n')) || undefined, {
    timeoutMs: ctx.scaled(30_000),
    intervalMs: 250,
  });
}

/** Comment on Pull Request… on alice/prices #1, going on in the editor the box offers. */
async function openCommentEditor(ctx) {
  await ctx.runCommand('Versioned DB: Comment on Pull Request…');
  await answerHostPick(ctx);
  await ctx.quickPick('alice/prices');
  await ctx.quickPick('#1 Add the 2025 prices');
  await ctx.quickInput.locator('.action-label[aria-label^="Write over several lines in an editor"]').click();
  await ctx.page.locator('.part.editor .tab.active', { hasText: /^Comment \d+/ }).waitFor({ timeout: ctx.scaled(30_000) });
}
