import assert from 'node:assert/strict';

export const name = 'sign in with OAuth in a browser tab (deny, then allow as bob), switch accounts, sign bob out';
/** The window opens signed in to Test Hub as alice (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice' };

/**
 * Runs Sign In → Test Hub → "Sign in with the browser" and resolves the hub's login page, which
 * VS Code opens in a new browser tab (through code-server's port proxy, as in any remote window).
 * @param {import('../lib/context.mjs').ScenarioContext} ctx
 */
async function openConsentPage(ctx) {
  await runPickerCommand(ctx, 'Versioned DB: Sign In…');
  await ctx.quickPick('Test Hub');
  const popup = ctx.page.context().waitForEvent('page', { timeout: ctx.scaled(30_000) });
  await ctx.quickPick('Sign in with the browser');
  // VS Code may ask before it opens a site it does not trust yet; a person answers "Open".
  const openButton = ctx.page.locator('.monaco-dialog-box').getByRole('button', { name: 'Open', exact: true });
  const page = await Promise.race([
    popup,
    openButton.waitFor({ state: 'visible', timeout: ctx.scaled(30_000) }).then(async () => {
      await openButton.click();
      return popup;
    }),
  ]);
  await page.waitForLoadState('domcontentloaded');
  await page.getByRole('heading', { name: 'Sign in to the local hub' }).waitFor({ timeout: ctx.scaled(20_000) });
  return page;
}

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const accountsBefore = await ctx.hub.api('/user', { user: 'bob' });
  assert.equal(accountsBefore.status, 200);

  // 1. The user denies: a clear message, and no account is stored.
  ctx.log('deny');
  let consent = await openConsentPage(ctx);
  // The page says where the answer goes: back to this VS Code (code-server's origin).
  const origin = new URL(ctx.page.url()).origin;
  await consent.getByText(`You will be sent back to ${origin}`).waitFor({ timeout: ctx.scaled(10_000) });
  await consent.screenshot({ path: `${ctx.artifactsDir}/consent-page.png` });
  await consent.getByRole('button', { name: 'Deny' }).click();
  await ctx.waitForNotification(/Sign-in to Test Hub was denied in the browser; nothing was stored/, { timeout: ctx.scaled(30_000) });
  await consent.close().catch(() => undefined);
  await ctx.page.bringToFront();
  assert.deepEqual(await accountsMenu(ctx), ['alice (Test Hub)'], 'a denied sign-in stores no account');

  // 2. A wrong password keeps the user on the page with a message; then bob signs in and allows.
  ctx.log('allow as bob');
  consent = await openConsentPage(ctx);
  await consent.getByLabel('Username').fill('bob');
  await consent.getByLabel('Password').fill('not-bobs-password');
  await consent.getByRole('button', { name: 'Sign in and allow' }).click();
  await consent
    .getByRole('alert')
    .filter({ hasText: 'Wrong username or password.' })
    .waitFor({ timeout: ctx.scaled(10_000) });
  await consent.getByLabel('Username').fill('bob');
  await consent.getByLabel('Password').fill('bob-password');
  await consent.getByRole('button', { name: 'Sign in and allow' }).click();
  // The browser goes back through code-server's /callback page, which hands the answer to VS Code.
  await consent.waitForURL(/\/callback\?/, { timeout: ctx.scaled(20_000) });
  await ctx.waitForNotification(/Signed in to Test Hub as bob/, { timeout: ctx.scaled(30_000) });
  await consent.close().catch(() => undefined);
  await ctx.page.bringToFront();

  // Both accounts are in VS Code's Accounts menu; bob, the last one signed in, is the active one.
  assert.deepEqual(await accountsMenu(ctx), ['alice (Test Hub)', 'bob (Test Hub)']);
  await ctx.screenshot('signed-in-as-bob');

  // 3. Switch back to alice (no database is in the tree yet, so from the palette; the host
  //    row's context menu runs the same command). The picker marks bob as active.
  ctx.log('switch account');
  await runPickerCommand(ctx, 'Versioned DB: Switch Account…');
  const active = ctx.quickInput.locator('.monaco-list-row', { hasText: 'active' });
  await active.first().waitFor({ state: 'visible' });
  assert.match((await active.first().textContent()) ?? '', /bob.*Test Hub · active/);
  await ctx.screenshot('switch-account-picker');
  await ctx.quickPick(/^\s*alice\s*$/);
  await ctx.waitForNotification(/Test Hub now uses alice/);
  // Requests now carry alice's token: the picker shows her as active.
  await runPickerCommand(ctx, 'Versioned DB: Switch Account…');
  await active.first().waitFor({ state: 'visible' });
  assert.match((await active.first().textContent()) ?? '', /alice.*Test Hub · active/);
  await ctx.page.keyboard.press('Escape');

  // 4. Sign bob out: his OAuth token is deleted and alice stays.
  ctx.log('sign bob out');
  await runPickerCommand(ctx, 'Versioned DB: Sign Out…');
  await ctx.quickPick('bob (Test Hub)');
  await ctx.waitForNotification(/Signed out bob from Test Hub; its token was deleted/);
  assert.deepEqual(await accountsMenu(ctx), ['alice (Test Hub)']);

  assert.ok(!/vdbo_[A-Za-z0-9_-]{10,}/.test(ctx.extensionLog()), 'no OAuth token reaches the log');
}

/**
 * Runs a palette command that opens its own quick pick. ctx.runCommand waits for the quick input
 * to close, which such a command never lets happen (20 s lost each time); here the palette is
 * done as soon as the box no longer holds the command text.
 */
async function runPickerCommand(ctx, title) {
  const box = ctx.quickInput.locator('.quick-input-box input');
  await ctx.page.keyboard.press('Escape');
  await ctx.page
    .locator('.monaco-workbench')
    .focus()
    .catch(() => undefined);
  await ctx.page.keyboard.press('F1');
  await box.waitFor({ state: 'visible' });
  await box.fill(`>${title}`);
  const exact = new RegExp(`^\\s*${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  await ctx.quickInput
    .locator('.monaco-list-row')
    .filter({ has: ctx.page.locator('.label-name').filter({ hasText: exact }) })
    .first()
    .click();
  await ctx.page.waitForFunction((el) => !el.value.startsWith('>'), await box.elementHandle(), { timeout: ctx.scaled(20_000) });
}

/** The Versioned DB accounts VS Code's Accounts menu lists, sorted. */
async function accountsMenu(ctx) {
  ctx.log('accounts menu');
  await ctx.page.keyboard.press('Escape');
  await ctx.page.locator('.part.activitybar [aria-label^="Accounts"]').first().click();
  // Entries read "alice (Test Hub) (Versioned DB)": the account, then the provider.
  const entries = ctx.page.locator('.monaco-menu, .context-view').getByText(/\w \(Test Hub\)( \(Versioned DB\))?$/);
  // Any account of the host shows up; alice is signed in throughout this scenario.
  await entries.first().waitFor({ state: 'visible', timeout: ctx.scaled(10_000) });
  const labels = await entries.allTextContents();
  await ctx.page.keyboard.press('Escape');
  return [...new Set(labels.map((l) => l.trim().replace(/ \(Versioned DB\)$/, '')))].sort();
}
