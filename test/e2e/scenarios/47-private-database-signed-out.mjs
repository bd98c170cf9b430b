import assert from 'node:assert/strict';

export const name = 'signed out, a private database in the view says it may be private and offers Sign In, which shows it again';
/** The window opens signed in to Test Hub as alice, with alice/notes in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/notes'] };

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  // The hub hides a private database from anyone who may not read it (404, not 403).
  assert.equal((await ctx.hub.api('/databases/alice/notes', { user: null })).status, 404);
  assert.equal((await ctx.hub.api('/databases/alice/notes')).body.data.visibility, 'private');

  await ctx.expand('alice/notes');
  await ctx.treeItem('Branches');

  await ctx.runCommand('Versioned DB: Sign Out…');
  await ctx.waitForNotification(/Signed out alice from Test Hub; its token was deleted/);
  const hint = await ctx.treeItem('alice/notes may be private: sign in to see it');
  assert.match(await hint.innerText(), /Sign In/, 'the row offers Sign In');
  assert.doesNotMatch(
    await ctx.page.locator('.part.sidebar').innerText(),
    /NOT_FOUND|click to retry/,
    'no raw not-found error with a useless retry',
  );
  await ctx.screenshot('private-signed-out');

  // Clicking the row signs in to that host (no host question), and the database shows again.
  await hint.click();
  await ctx.quickPick('Personal access token');
  await ctx.inputBox(await ctx.hub.token('alice'));
  await ctx.waitForNotification(/Signed in to Test Hub as alice/);
  await ctx.expand('alice/notes');
  await ctx.treeItem('Branches');
  await ctx.screenshot('private-signed-in-again');
}
