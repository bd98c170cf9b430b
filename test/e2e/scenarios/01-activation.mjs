import assert from 'node:assert/strict';
import { waitFor } from '../../helpers/waitFor.cjs';

export const name = 'the extension activates with no errors and the Versioned DB view container is present';

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const { page } = ctx;

  // The activity bar entry and its side bar, as a person would find them.
  await ctx.openView();
  await ctx.screenshot('view');

  // Activated, by the extension host's own account (Developer: Show Running Extensions).
  await ctx.runCommand('Developer: Show Running Extensions');
  const row = page.locator('.runtime-extensions-editor .monaco-list-row').filter({
    has: page.locator('.name', { hasText: /^Versioned DB$/ }),
  });
  const time = row.locator('.activation-time');
  // The list is virtualized and sorted slowest first: a fast activation is drawn only once
  // scrolled into view.
  const list = page.locator('.runtime-extensions-editor .monaco-list').first();
  await list.waitFor({ state: 'visible' });
  await waitFor(
    'Versioned DB among the running extensions',
    async () => {
      if ((await row.count()) > 0) return true;
      await list.hover();
      await page.mouse.wheel(0, 300);
      return false;
    },
    { timeoutMs: ctx.scaled(30_000), intervalMs: 100 },
  );
  await time.filter({ hasText: /Activation: \d+\s*ms/i }).waitFor({ timeout: ctx.scaled(30_000) });
  const msg = (await row.locator('.msg').innerText()).trim();
  assert.doesNotMatch(msg, /error|fail/i, `the running-extensions entry reports: ${msg}`);
  ctx.log(`${(await time.innerText()).trim()} (as the extension host reports it)`);
  await ctx.screenshot('running-extensions');
  await ctx.runCommand('View: Close All Editors');

  // Its log opens from the command palette and shows what the extension wrote.
  await ctx.runCommand('Versioned DB: Show Log');
  const output = page.locator('.part.panel .output-view, .part.panel .monaco-editor').first();
  await output.waitFor({ state: 'visible' });
  const firstLine = ctx
    .extensionLog()
    .split('\n')
    .find((l) => l.trim());
  assert.ok(firstLine, 'the extension wrote nothing to its log');
  const message = firstLine.replace(/^\S+ \S+ \[\w+\]\s*/, '').slice(0, 40);
  await page.locator('.part.panel .view-lines').filter({ hasText: message }).first().waitFor({ state: 'visible' });
  await ctx.screenshot('log');
  await ctx.runCommand('View: Hide Panel');
}
