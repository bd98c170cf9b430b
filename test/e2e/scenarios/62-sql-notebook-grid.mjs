import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shownText } from './tableHelpers.mjs';

export const name = 'a notebook cell gets its branch from the picker, runs, sorts, copies, exports and shows the row_limit banner';
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };

const QUERY = 'SELECT id, name, price FROM products';
const LIMIT = 3;
/** Written before the window opens (lib/window.mjs), which reads them as it starts. */
export const workspaceSettings = { 'versionedDb.sql.rowLimit': LIMIT };

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const { page } = ctx;
  // Every scenario starts in an empty workspace: this one's settings cap results at LIMIT rows.
  const exportFile = join(ctx.workspaceDir, 'e2e-export.csv');

  // A notebook without a target: the cell's status bar asks where to run.
  writeFileSync(join(ctx.workspaceDir, 'e2e-grid.vdbnb'), JSON.stringify({ version: 1, cells: [{ kind: 'sql', source: QUERY }] }, null, 2));
  await ctx.openFile('e2e-grid.vdbnb');
  const pickItem = page.locator('.cell-statusbar-container .cell-status-item', { hasText: 'Pick where this cell runs' }).first();
  await pickItem.waitFor({ state: 'visible' });
  await pickItem.click();
  // One database in the view: the picker goes straight to its branches, tags and commits.
  await ctx.quickInput
    .locator('.quick-input-title', { hasText: /alice\/prices/ })
    .first()
    .waitFor({ state: 'visible' });
  await ctx.quickPick('main');
  await page
    .locator('.cell-statusbar-container .cell-status-item', { hasText: 'alice/prices @ main' })
    .first()
    .waitFor({ state: 'visible' });
  await ctx.screenshot('target-picked');

  await ctx.runCommand('Notebook: Run All');
  // Ours is the only controller for this notebook type, and it says it is preferred: never a kernel picker.

  const output = page
    .frameLocator('.notebookOverlay iframe.webview.ready, .notebook-editor iframe.webview.ready')
    .first()
    .frameLocator('iframe#active-frame');
  const grid = output.locator('.vdb-result').first();
  await grid.waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });

  // row_limit: the banner says how many rows, the server's message, and what to do.
  const server = await ctx.hub.api(`/databases/alice/prices/sql?ref=main&limit=${LIMIT}&q=${encodeURIComponent(QUERY)}`);
  assert.equal(server.body.data.status, 'row_limit', 'the seeded products table has more rows than the limit');
  const banner = grid.locator('[data-banner="row_limit"]');
  const bannerText = await shownText(banner, ctx.scaled(30_000));
  assert.match(bannerText, new RegExp(`first ${server.body.data.rows.length} rows`));
  assert.ok(bannerText.includes(server.body.data.message), `banner shows the server message: ${bannerText}`);
  assert.match(bannerText, /versionedDb\.sql\.rowLimit/);
  await ctx.screenshot('row-limit-banner');

  // Sort by price, descending (two clicks): numbers in numeric order.
  const priceHeader = grid.locator('.vdb-hcell', { hasText: 'price' }).first();
  await priceHeader.click();
  await priceHeader.click();
  assert.equal(await priceHeader.getAttribute('aria-sort'), 'descending');
  const priceCol = await priceHeader.getAttribute('data-col');
  const shown = await grid.locator(`.vdb-row:not([hidden]) .vdb-cell[data-c="${priceCol}"]`).allInnerTexts();
  const expected = server.body.data.rows.map((r) => r[2]).sort((a, b) => Number(b) - Number(a));
  assert.deepEqual(shown, expected);
  await ctx.screenshot('sorted-by-price');

  // Copy one cell with Ctrl+C: the host puts it on the clipboard and says so.
  await grid.locator(`.vdb-row:not([hidden]) .vdb-cell[data-c="${priceCol}"]`).first().click();
  await page.keyboard.press('Control+c');
  await page.locator('.part.statusbar', { hasText: 'Copied 1 row as TSV' }).waitFor({ state: 'visible' });

  // Export the whole result as CSV through the host's save dialog.
  await grid.locator('.vdb-export-format').selectOption('csv');
  await grid.locator('.vdb-export').click();
  // The simple save dialog fills in its folder a moment after it opens; fileDialog waits for
  // that before typing, or the two paths end up glued together on a loaded machine.
  await ctx.fileDialog(exportFile);
  await ctx.waitForNotification(`Exported ${server.body.data.rows.length} rows to e2e-export.csv`);
  const csv = readFileSync(exportFile, 'utf8').trimEnd().split('\r\n');
  assert.equal(csv[0], 'id,name,price');
  assert.equal(csv.length, server.body.data.rows.length + 1);
  await ctx.screenshot('exported');
}
