import assert from 'node:assert/strict';

export const name = 'the installed extension starts its built-in local hub, signs in and shows the sample databases';

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  await ctx.openView();
  await ctx.runCommand('Versioned DB: Start Local Hub');
  // dist/hub.js from the installed .vsix, run with the editor's own runtime, seeding global storage.
  const started = await ctx.waitForNotification(
    /Local Hub is running at http:\/\/127\.0\.0\.1:\d+; signed in as alice\. Sample databases were added\./,
    { timeout: ctx.scaled(180_000) },
  );
  const url = /running at (http:\/\/127\.0\.0\.1:\d+)/.exec(await started.innerText())?.[1];
  assert.ok(url, 'the notification names the hub URL');
  await ctx.treeItem('Local Hub');
  await ctx.screenshot('local-hub-running');

  // The hub the extension started is a real API v2 server with the seeded data.
  const res = await fetch(`${url}/api/v2/databases/acme/warehouse`);
  assert.equal(res.status, 200);
  assert.equal((await res.json()).data.name, 'warehouse');
  assert.ok(!ctx.extensionLog().includes('vdbp_'), 'no token in the log');

  await ctx.runCommand('Versioned DB: Stop Local Hub');
  await ctx.waitForNotification(/The local hub stopped/);
  await ctx.treeItem('The local hub is stopped.');
  await assert.rejects(fetch(`${url}/api/v2/user`), 'the hub process is gone after Stop');
}
