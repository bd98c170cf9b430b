import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const name = 'Ctrl+Enter runs SQL only in a .sql file that has a Versioned DB target';
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };

/**
 * In a .sql file nobody has
 * pointed at a database yet, Ctrl+Enter keeps VS Code's own meaning (insert a line below), so
 * other SQL extensions keep it; once the file has a target (chosen by the first run from the
 * editor's Run button), Ctrl+Enter runs the statement under the cursor into the result panel.
 * @param {import('../lib/context.mjs').ScenarioContext} ctx
 */
export async function run(ctx) {
  const { page } = ctx;
  writeFileSync(join(ctx.workspaceDir, 'e2e-ctrl-enter.sql'), 'SELECT count(*) AS n FROM products;\nSELECT 42 AS answer;\n');
  await ctx.openFile('e2e-ctrl-enter.sql');
  const editor = page.locator('.part.editor .editor-instance .monaco-editor').first();
  const lines = editor.locator('.view-lines .view-line');
  await lines.filter({ hasText: 'SELECT 42' }).first().waitFor({ state: 'visible' });
  const before = await lines.count();

  // No target yet: VS Code's Ctrl+Enter (insert line below), not ours.
  await lines.filter({ hasText: 'FROM products' }).first().click();
  await page.keyboard.press('Control+Enter');
  await page.waitForFunction(([el, n]) => el.querySelectorAll('.view-lines .view-line').length > n, [await editor.elementHandle(), before]);
  assert.equal(await ctx.quickInput.isVisible(), false, 'no "which database" question: the key was not ours');
  await page.keyboard.press('Control+Z');
  await page.waitForFunction(
    ([el, n]) => el.querySelectorAll('.view-lines .view-line').length === n,
    [await editor.elementHandle(), before],
  );
  await ctx.screenshot('no-target-ctrl-enter-is-vscodes');

  // The first run from the palette asks where to run and remembers it for this file.
  await lines.filter({ hasText: 'FROM products' }).first().click();
  await ctx.runCommand('Versioned DB: Run SQL Statement or Selection');
  // alice/prices is the only database in the view: the first question is the ref.
  await ctx.quickInput
    .locator('.quick-input-title', { hasText: 'Run at which ref of alice/prices?' })
    .first()
    .waitFor({ state: 'visible' });
  await ctx.quickPick('main');
  const frame = page.frameLocator('iframe.webview.ready').first().frameLocator('iframe#active-frame');
  await frame
    .locator('.vdb-result .vdb-header', { hasText: 'n' })
    .first()
    .waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  await page.locator('.part.editor .tab', { hasText: 'SQL: alice/prices @ main' }).first().waitFor({ state: 'visible' });

  // Now the file has a target: Ctrl+Enter on the second statement runs that statement.
  await lines.filter({ hasText: 'SELECT 42' }).first().click();
  await page.keyboard.press('Control+Enter');
  await frame
    .locator('.vdb-result .vdb-header', { hasText: 'answer' })
    .first()
    .waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  const grid = await frame.locator('.vdb-result').first().innerText();
  assert.match(grid, /\b42\b/, `the grid shows 42: ${grid}`);
  assert.equal(await lines.count(), before, 'Ctrl+Enter ran the statement instead of inserting a line');
  await ctx.screenshot('target-ctrl-enter-runs');
}
