import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shownText } from './tableHelpers.mjs';

export const name =
  'a 50,000-row notebook result past the hub cap: the banner names the cap, Load All Rows reaches row 50,000, exports every row to CSV, and sorts on the server by a header click';
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };
export const timeout = 300_000;

const TOTAL = 50_000;
// 50,000 rows from nothing; the hub stops every result at 10,000 (its --max-rows).
const QUERY = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${TOTAL})
SELECT i AS id, 'row ' || i AS label, i * 3 AS tripled FROM n`;
const LIMIT = 60_000;
/** Written before the window opens (lib/window.mjs), which reads them as it starts. */
export const workspaceSettings = { 'versionedDb.sql.rowLimit': LIMIT };

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const { page } = ctx;
  // The user raised the row limit above the server's cap.
  const exportFile = join(ctx.workspaceDir, 'e2e-all-rows.csv');

  // What the server answers in one response, read independently of the extension.
  const server = await ctx.hub.api(`/databases/alice/prices/sql?ref=main&limit=${LIMIT}&q=${encodeURIComponent(QUERY)}`);
  assert.equal(server.body.data.status, 'row_limit');
  const cap = server.body.data.rows.length;
  assert.ok(cap < TOTAL && cap < LIMIT, `the hub's cap (${cap}) is below the query's rows and the setting`);

  writeFileSync(
    join(ctx.workspaceDir, 'e2e-load-all.vdbnb'),
    JSON.stringify({ version: 1, cells: [{ kind: 'sql', source: QUERY }] }, null, 2),
  );
  await ctx.openFile('e2e-load-all.vdbnb');
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

  const output = page
    .frameLocator('.notebookOverlay iframe.webview.ready, .notebook-editor iframe.webview.ready')
    .first()
    .frameLocator('iframe#active-frame');
  const grid = output.locator('.vdb-result').first();
  await grid.waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });

  // The banner names the limit that applied: the server's cap, below the user's setting.
  const banner = grid.locator('[data-banner="row_limit"]');
  const bannerText = await shownText(banner, ctx.scaled(30_000));
  const fmt = (n) => n.toLocaleString('en-US');
  assert.match(bannerText, new RegExp(`first ${fmt(cap)} rows`));
  assert.ok(
    bannerText.includes(`The server stops every result at ${fmt(cap)} rows (its cap), below your limit of ${fmt(LIMIT)}`),
    bannerText,
  );
  assert.ok(bannerText.includes(server.body.data.message), `banner shows the server message: ${bannerText}`);
  await ctx.screenshot('row-limit-banner');

  // Load All Rows: the same grid now reads the query a page at a time at the same commit.
  await grid.locator('.vdb-loadall').click();
  await output.locator('.vdb-result[data-status="paged"]').waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  const paged = output.locator('.vdb-result[data-status="paged"]').first();
  await paged.locator('.vdb-summary', { hasText: `${fmt(TOTAL)} rows` }).waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  await ctx.screenshot('loaded-all');

  // Scroll to the very end: row 50,000's values, read from the server page by page. A leap is drawn
  // on the grid's canvas in the frame that shows it (src/renderer/gridMotion.ts), the rows as row
  // elements once the scroll settles (below).
  const leapt = await paged.locator('.vdb-grid').evaluate(async (el) => {
    el.scrollTop = el.scrollHeight;
    await new Promise((r) => requestAnimationFrame(r));
    const motion = el.querySelector('.vdb-motion');
    return motion && !motion.hidden ? (motion.dataset.rows ?? '') : null;
  });
  const last = TOTAL - 1;
  assert.ok(leapt && Number(leapt.split('-')[1]) === last, `the leap's frame drew rows ${leapt} on the canvas, to row ${last}`);
  const lastLabel = paged.locator(`.vdb-cell[data-r="${last}"][data-c="1"]:not(.placeholder)`);
  await lastLabel.waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  assert.equal(await shownText(lastLabel, ctx.scaled(30_000)), `row ${TOTAL}`);
  await paged.locator('.vdb-motion[hidden]').waitFor({ state: 'attached', timeout: ctx.scaled(10_000) });
  assert.equal(await shownText(paged.locator(`.vdb-cell[data-r="${last}"][data-c="0"]`), ctx.scaled(30_000)), String(TOTAL));
  assert.equal(await shownText(paged.locator(`.vdb-cell[data-r="${last}"][data-c="2"]`), ctx.scaled(30_000)), String(TOTAL * 3));
  // The first page's ids had 1 to 3 digits; the column has widened for the 5-digit ids that came
  // since, so each value of the last row shows whole, none cut short with an ellipsis.
  // Measured in fractions of a pixel: the browser puts the ellipsis on text 0.2 px too wide, which
  // the rounded scrollWidth does not tell apart from a fit.
  for (const c of [0, 1, 2]) {
    const fit = await paged.locator(`.vdb-cell[data-r="${last}"][data-c="${c}"]`).evaluate((el) => {
      const range = el.ownerDocument.createRange();
      range.selectNodeContents(el);
      const style = getComputedStyle(el);
      const room = el.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { text: el.textContent, needs: range.getBoundingClientRect().width, room };
    });
    assert.ok(fit.needs <= fit.room, `column ${c} shows "${fit.text}" whole (needs ${fit.needs}px, has ${fit.room}px)`);
  }
  await ctx.screenshot('last-row');

  // Export every row (not just the first response) to CSV, streamed by the host.
  await paged.locator('.vdb-export-format').selectOption('csv');
  await paged.locator('.vdb-export').click();
  await ctx.fileDialog(exportFile);
  await ctx.waitForNotification(`Exported ${fmt(TOTAL)} rows to e2e-all-rows.csv`, { timeout: ctx.scaled(120_000) });
  const lines = readFileSync(exportFile, 'utf8').trimEnd().split('\r\n');
  assert.equal(lines[0], 'id,label,tripled');
  assert.equal(lines.length, TOTAL + 1);
  assert.equal(lines[1], '1,row 1,3');
  assert.equal(lines[TOTAL], `${TOTAL},row ${TOTAL},${TOTAL * 3}`);
  await ctx.screenshot('exported');

  // Sorted on the server: a header click twice (ascending, then descending) re-reads the whole
  // result by that column, with the arrow shown and the first page in view: row 1 is id 50,000.
  const header = paged.locator('.vdb-hcell[data-col="2"]');
  await header.click();
  await paged
    .locator('.vdb-hcell[data-col="2"][aria-sort="ascending"] .vdb-sort')
    .waitFor({ state: 'visible', timeout: ctx.scaled(20_000) });
  await header.click();
  await paged
    .locator('.vdb-hcell[data-col="2"][aria-sort="descending"] .vdb-sort')
    .waitFor({ state: 'visible', timeout: ctx.scaled(20_000) });
  const firstId = paged.locator('.vdb-cell[data-r="0"][data-c="0"]:not(.placeholder)', { hasText: String(TOTAL) });
  await firstId.waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  assert.equal(await shownText(paged.locator('.vdb-cell[data-r="1"][data-c="0"]'), ctx.scaled(30_000)), String(TOTAL - 1));
  await paged.locator('.vdb-summary', { hasText: `${fmt(TOTAL)} rows` }).waitFor({ state: 'visible' });
  await ctx.screenshot('sorted-descending');
}
