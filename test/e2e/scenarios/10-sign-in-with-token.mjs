import assert from 'node:assert/strict';

export const name = 'sign in with a personal access token; the account shows in the Accounts menu';

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  await ctx.openView();
  // No account and no database: the welcome view offers sign-in and the local hub.
  await ctx.page
    .locator('.part.sidebar')
    .getByText('You are not signed in to any host.')
    .waitFor({ timeout: ctx.scaled(20_000) });
  await ctx.screenshot('welcome-no-account');

  const token = await ctx.hub.token('alice');
  await ctx.runCommand('Versioned DB: Sign In…');
  await ctx.quickPick('Test Hub');
  await ctx.quickPick('Personal access token');
  await ctx.inputBox(token);
  await ctx.waitForNotification(/Signed in to Test Hub as alice/);

  // Signed in, still no database: the welcome view now offers to add or create one.
  await ctx.page
    .locator('.part.sidebar')
    .getByText(/No database yet/)
    .waitFor({ timeout: ctx.scaled(20_000) });
  await ctx.screenshot('welcome-no-database');

  // The account is in VS Code's Accounts menu, provided by the extension.
  const accounts = ctx.page.locator('.part.activitybar [aria-label^="Accounts"]').first();
  await accounts.click();
  await ctx.page
    .locator('.monaco-menu, .context-view')
    .getByText(/alice \(Test Hub\)/)
    .first()
    .waitFor({ timeout: ctx.scaled(10_000) });
  await ctx.screenshot('accounts-menu');
  await ctx.page.keyboard.press('Escape');

  assert.ok(!ctx.extensionLog().includes(token), 'the token must never reach the log');
}
