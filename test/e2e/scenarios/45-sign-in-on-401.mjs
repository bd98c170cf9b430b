import assert from 'node:assert/strict';

export const name = 'signed out, a write answers 401 and the notification offers Sign in, which fixes it';
// This scenario provokes a 401 on purpose; a component that logs that refusal as an error is
// expected here, and only here. Any other error line still fails the scenario.
export const expectedErrors = [/\b401\b|UNAUTHENTICATED/];
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  await ctx.runCommand('Versioned DB: Sign Out…');
  await ctx.waitForNotification(/Signed out alice from Test Hub; its token was deleted/);

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
}
