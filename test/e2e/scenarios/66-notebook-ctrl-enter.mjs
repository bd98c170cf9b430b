import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shownText } from './tableHelpers.mjs';

export const name = 'Ctrl+Enter in a notebook SQL cell runs the cell (as each new notebook says) instead of inserting a line';
/** The window opens signed in to Test Hub as alice (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice' };

const QUERY = 'SELECT count(*) AS n FROM products';

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const { page } = ctx;
  const hostId = ctx.hub.url.replace(/\/+$/, '');
  writeFileSync(
    join(ctx.workspaceDir, 'e2e-keys.vdbnb'),
    JSON.stringify(
      {
        version: 1,
        target: { hostId, owner: 'alice', name: 'prices', ref: 'main' },
        cells: [{ kind: 'sql', source: QUERY }],
      },
      null,
      2,
    ),
  );
  // The count the server gives for the same query: the grid must show it.
  const expected = await ctx.hub.api(`/databases/alice/prices/sql?ref=main&q=${encodeURIComponent(QUERY)}`);
  assert.equal(expected.body.data.status, 'success');
  const count = String(expected.body.data.rows[0][0]);

  await ctx.openFile('e2e-keys.vdbnb');
  // Put the cursor at the end of the cell's text, in its editor, as a person typing would.
  const cellEditor = page.locator('.notebook-editor .cell-list-container .monaco-list-row .monaco-editor').first();
  const cellLines = cellEditor.locator('.view-lines .view-line');
  await cellLines.filter({ hasText: 'FROM products' }).first().click();
  await page.keyboard.press('End');
  const before = await cellLines.count();
  await page.keyboard.press('Control+Enter');

  const output = page
    .frameLocator('.notebookOverlay iframe.webview.ready, .notebook-editor iframe.webview.ready')
    .first()
    .frameLocator('iframe#active-frame');
  const grid = output.locator('.vdb-result').first();
  await grid.waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  assert.match(await shownText(grid.locator('.vdb-header'), ctx.scaled(30_000)), /\bn\b/);
  await grid.locator('.vdb-row').filter({ hasText: count }).first().waitFor({ state: 'visible' });
  assert.equal(await cellLines.count(), before, 'Ctrl+Enter ran the cell; it did not insert a line');
  // Monaco draws spaces as no-break spaces.
  assert.equal((await cellEditor.locator('.view-lines').innerText()).replace(/\u00a0/g, ' ').trim(), QUERY, 'the cell text is unchanged');
  await ctx.screenshot('ctrl-enter-ran-the-cell');
}
