import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '../../helpers/waitFor.cjs';
import { shownText } from './tableHelpers.mjs';

export const name =
  'a saved notebook keeps the first response of a result past the cap; reopened, Load All Rows still reads every row at the commit it ran at';
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };
/** Written before the window opens (lib/window.mjs), which reads them as it starts. */
export const workspaceSettings = { 'versionedDb.sql.rowLimit': 60_000, 'versionedDb.notebooks.saveOutputs': true };
export const timeout = 300_000;

const TOTAL = 30_000;
const QUERY = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${TOTAL}) SELECT i AS id, 'row ' || i AS label FROM n`;

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const { page } = ctx;
  const file = join(ctx.workspaceDir, 'e2e-saved.vdbnb');
  writeFileSync(file, JSON.stringify({ version: 1, cells: [{ kind: 'sql', source: QUERY }] }, null, 2));
  await ctx.openFile('e2e-saved.vdbnb');
  const pickItem = page.locator('.cell-statusbar-container .cell-status-item', { hasText: 'Pick where this cell runs' }).first();
  await pickItem.waitFor({ state: 'visible' });
  await pickItem.click();
  await ctx.quickInput
    .locator('.quick-input-title', { hasText: /alice\/prices/ })
    .first()
    .waitFor({ state: 'visible' });
  await ctx.quickPick('main');
  await page
    .locator('.cell-statusbar-container .cell-status-item', { hasText: 'alice/prices @ main' })
    .first()
    .waitFor({ state: 'visible' });
  await ctx.runCommand('Notebook: Run All');
  const outputFrame = () =>
    page
      .frameLocator('.notebookOverlay iframe.webview.ready, .notebook-editor iframe.webview.ready')
      .first()
      .frameLocator('iframe#active-frame');
  await outputFrame()
    .locator('.vdb-result .vdb-loadall')
    .waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });

  // Saved: the file holds the first response (not pages, which only the host can serve).
  // Ctrl+S, as a person saves. (Through the palette, the row under the pointer left there by the
  // quick pick above can raise a hover that covers "File: Save" and takes the click.)
  await page.mouse.move(1, 1);
  await page.keyboard.press('Control+s');
  const main = (await ctx.hub.api('/databases/alice/prices/branches')).body.data.find((b) => b.name === 'main');
  // Saving is asynchronous, and VS Code writes the file in pieces: read it until it parses whole
  // with the output in it (a file cut short is "Unexpected end of JSON input", not yet saved).
  const saved = await waitFor(
    'the saved notebook, whole, with the output',
    () => {
      let notebook;
      try {
        notebook = JSON.parse(readFileSync(file, 'utf8'));
      } catch (e) {
        if (e instanceof SyntaxError) return undefined;
        throw e;
      }
      return notebook.cells[0].outputs?.length ? notebook : undefined;
    },
    { timeoutMs: ctx.scaled(10_000), intervalMs: 100 },
  );
  const item = saved.cells[0].outputs[0].items.find((it) => it.mime === 'application/vnd.versioned-db.query-result+json');
  assert.ok(item, `the saved output has the grid's JSON: ${JSON.stringify(saved.cells[0].outputs[0].items.map((it) => it.mime))}`);
  const output = JSON.parse(item.data);
  assert.equal(output.result.status, 'row_limit');
  assert.equal(output.canLoadAll, true);
  assert.equal(output.commit, main.head_commit_sha);

  // Closed and reopened: the saved output, and Load All Rows still reads every row.
  await page.mouse.move(1, 1);
  await ctx.runCommand('View: Close All Editors');
  await ctx.openFile('e2e-saved.vdbnb');
  const grid = outputFrame().locator('.vdb-result').first();
  await grid.locator('.vdb-loadall').waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  await grid.locator('.vdb-loadall').click();
  const paged = outputFrame().locator('.vdb-result[data-status="paged"]').first();
  await paged
    .locator('.vdb-summary', { hasText: `${TOTAL.toLocaleString('en-US')} rows` })
    .waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  await paged.locator('.vdb-grid').evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  const last = paged.locator(`.vdb-cell[data-r="${TOTAL - 1}"][data-c="1"]:not(.placeholder)`);
  await last.waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  assert.equal(await shownText(last, ctx.scaled(30_000)), `row ${TOTAL}`);
  await ctx.screenshot('reopened-last-row');
}
