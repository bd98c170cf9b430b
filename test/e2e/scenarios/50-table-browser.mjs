import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importTable, plain } from './tableHelpers.mjs';
import { expectAccessible } from './a11yHelpers.mjs';

export const name =
  'a table opens from the tree (Tables → readings), scrolls to its end, sorts and filters on the server and exports every row';
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };
export const timeout = 300_000;

const ROWS = 3000;
// Notes with characters a hand-built LIKE would get wrong: the filter must match them literally.
const NOTES = ['50% off', '50 percent', "it's", 'under_score', 'underXscore', 'plain'];

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const { page } = ctx;
  const lines = ['id,sensor,reading,note'];
  for (let i = 1; i <= ROWS; i++) lines.push(`${i * 3},s${i % 7},${(i * 37) % 1000},"${NOTES[i % NOTES.length].replace(/"/g, '""')}"`);
  await importTable(ctx, 'readings', `${lines.join('\n')}\n`, ['id']);

  await ctx.expand('alice/prices');
  await ctx.expand('Branches');
  await ctx.expand('main');
  await ctx.expand('Tables');
  // Its columns, with type and key, under the table.
  await ctx.expand('readings');
  const idColumn = await ctx.treeItem('id');
  assert.match(await idColumn.innerText(), /primary key/);
  await ctx.screenshot('tables-node');

  // Open Table from the row's inline action.
  const row = await ctx.treeItem('readings');
  await row.hover();
  await row.locator('.action-label[aria-label="Open Table"]').click();
  await page
    .locator('.part.editor .tab.active', { hasText: 'readings @ main' })
    .first()
    .waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  const frame = page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame');
  const grid = frame.locator('.vdb-result').first();
  await grid.waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  const summary = grid.locator('.vdb-summary');
  await summary.filter({ hasText: `${ROWS.toLocaleString('en-US')} rows` }).waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  const byId = await plain(ctx, 'SELECT id, sensor, reading, note FROM readings ORDER BY id');
  const cell = (r, c) => grid.locator(`.vdb-cell[data-r="${r}"][data-c="${c}"]:not(.placeholder)`).first();
  await cell(0, 0).waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  assert.equal(await cell(0, 0).innerText(), byId[0][0]);
  await ctx.readmeScreenshot('table-browser');
  await expectAccessible(ctx, '.vdb-result', 'the table browser');

  // To the end with Ctrl+End: the last row is read (from the end) and drawn.
  await cell(0, 1).click();
  await page.keyboard.press('Control+End');
  await cell(ROWS - 1, 0).waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  assert.equal(await cell(ROWS - 1, 0).innerText(), byId[ROWS - 1][0]);
  assert.equal(await cell(ROWS - 1, 3).innerText(), byId[ROWS - 1][3]);
  await ctx.screenshot('scrolled-to-end');

  // Sort by reading, descending (two clicks on the header): the server's order.
  const header = grid.locator('.vdb-hcell', { hasText: 'reading' }).first();
  await header.click();
  await grid.locator('.vdb-hcell[aria-sort="ascending"]', { hasText: 'reading' }).waitFor({ state: 'visible' });
  await header.click();
  await grid.locator('.vdb-hcell[aria-sort="descending"]', { hasText: 'reading' }).waitFor({ state: 'visible' });
  const byReading = await plain(ctx, 'SELECT id, sensor, reading, note FROM readings ORDER BY reading DESC, id ASC');
  await grid
    .locator(`.vdb-cell[data-r="0"][data-c="0"]:not(.placeholder)`, { hasText: new RegExp(`^${byReading[0][0]}$`) })
    .waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  for (let r = 0; r < 5; r++) assert.equal(await cell(r, 0).innerText(), byReading[r][0], `row ${r + 1} sorted by reading`);

  // Filter note contains "50%": the percent sign is matched literally on the server.
  await grid.locator('.vdb-hcell', { hasText: 'note' }).first().locator('.vdb-hfilter').click();
  const form = grid.locator('.vdb-filterform');
  await form.waitFor({ state: 'visible' });
  await form.locator('.vdb-filter-op').selectOption('contains');
  await form.locator('.vdb-filter-value').fill('50%');
  await form.locator('.vdb-filter-apply').click();
  const filtered = await plain(ctx, "SELECT id, sensor, reading, note FROM readings WHERE note = '50% off' ORDER BY reading DESC, id ASC");
  assert.ok(filtered.length > 0 && filtered.length < ROWS / 2, 'only the "50% off" rows match, not "50 percent"');
  await summary
    .filter({ hasText: `${filtered.length.toLocaleString('en-US')} rows` })
    .waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  await grid
    .locator(`.vdb-cell[data-r="0"][data-c="0"]:not(.placeholder)`, { hasText: new RegExp(`^${filtered[0][0]}$`) })
    .waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  assert.equal(await cell(0, 3).innerText(), '50% off');
  await ctx.screenshot('sorted-and-filtered');

  // Export every row of the current view (sort and filter) as CSV, streamed by the host.
  const exportFile = join(ctx.workspaceDir, 'readings-export.csv');
  await grid.locator('.vdb-export-format').selectOption('csv');
  await grid.locator('.vdb-export').click();
  await ctx.fileDialog(exportFile);
  await ctx.waitForNotification(`Exported ${filtered.length.toLocaleString('en-US')} rows to readings-export.csv`, {
    timeout: ctx.scaled(60_000),
  });
  const csv = readFileSync(exportFile, 'utf8').trimEnd().split(/\r?\n/);
  assert.equal(csv[0], 'id,sensor,reading,note');
  assert.deepEqual(
    csv.slice(1),
    filtered.map((r) => r.join(',')),
  );
  await ctx.screenshot('exported');
}
