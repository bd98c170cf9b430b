import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectAccessible } from './a11yHelpers.mjs';
import { shownText } from './tableHelpers.mjs';

export const name = 'a SQL notebook cell runs against the hub and shows the result grid';
/** The window opens signed in to Test Hub as alice (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice' };

const QUERY = 'SELECT id, name, price FROM products ORDER BY id';

/**
 * The notebook file names its target the way a saved notebook does: host id (the normalized site
 * URL), database and ref.
 * @param {import('../lib/context.mjs').ScenarioContext} ctx
 */
export async function run(ctx) {
  const { page } = ctx;
  const hostId = ctx.hub.url.replace(/\/+$/, '');
  writeFileSync(
    join(ctx.workspaceDir, 'e2e-prices.vdbnb'),
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

  // What the server answers for the same query: the grid must show exactly this.
  const expected = await ctx.hub.api(`/databases/alice/prices/sql?ref=main&q=${encodeURIComponent(QUERY)}`);
  assert.equal(expected.status, 200);
  assert.equal(expected.body.data.status, 'success');
  const rows = expected.body.data.rows;
  assert.ok(rows.length > 0, 'the seeded products table has rows');

  await ctx.openFile('e2e-prices.vdbnb');
  const tabOpened = Date.now();
  // VS Code draws a notebook's cells only once the notebook's output webview has started (it
  // loads through a service worker); a run where that never happens fails here, with the frames'
  // service worker state in failure-frames.json.
  const firstCell = page
    .locator('.notebookOverlay .cell-list-container .monaco-list-row, .notebook-editor .cell-list-container .monaco-list-row')
    .first();
  await firstCell.waitFor({ state: 'visible' });
  ctx.log(`cells drawn ${((Date.now() - tabOpened) / 1000).toFixed(1)} s after the tab opened`);
  await ctx.screenshot('notebook-open');

  // Notebook commands are in the palette only while the notebook has focus: opening the file
  // does not always give it focus by the time the palette opens.
  await firstCell.click();
  await ctx.runCommand('Notebook: Run All');
  // Ours is the only controller for this notebook type, and it says it is preferred: never a kernel picker.

  // The result grid is drawn by the renderer inside the notebook's output webview.
  const output = page
    .frameLocator('.notebookOverlay iframe.webview.ready, .notebook-editor iframe.webview.ready')
    .first()
    .frameLocator('iframe#active-frame');
  const grid = output.locator('.vdb-result').first();
  await grid.waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  const header = (await shownText(grid.locator('.vdb-header'), ctx.scaled(30_000))).replace(/\s+/g, ' ');
  for (const col of ['id', 'name', 'price']) assert.match(header, new RegExp(`\\b${col}\\b`), `the grid header shows ${col}`);
  const first = rows[0];
  const firstRow = grid
    .locator('.vdb-row')
    .filter({ hasText: String(first[1]) })
    .first();
  await firstRow.waitFor({ state: 'visible' });
  const firstText = await shownText(firstRow, ctx.scaled(30_000));
  for (const cell of first) if (cell !== null) assert.ok(firstText.includes(String(cell)), `row 1 shows ${cell}`);
  const summary = await shownText(grid.locator('.vdb-summary'), ctx.scaled(30_000));
  assert.match(summary, new RegExp(`\\b${rows.length}\\b`), `the summary counts ${rows.length} rows: "${summary}"`);
  await ctx.readmeScreenshot('workbench-notebook');
  await expectAccessible(ctx, '.vdb-result', 'a notebook result', { within: '.vdb-result' });
}
