import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const name =
  'the SQL result panel: Load All Rows pages a 50,000-row SELECT to its last row, and says why a result with repeated column names cannot be paged';
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };
/** Written before the window opens (lib/window.mjs), which reads them as it starts. */
export const workspaceSettings = { 'versionedDb.sql.rowLimit': 60_000 };
export const timeout = 240_000;

const TOTAL = 50_000;
const CTE = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${TOTAL})`;
// MySQL refuses a derived table whose columns repeat a name, so this one is never wrapped.
const REPEATED = `${CTE} SELECT i AS id, i * 2 AS ID FROM n;`;
const PAGED = `${CTE} SELECT i AS id, 'row ' || i AS label FROM n;`;

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const { page } = ctx;
  writeFileSync(join(ctx.workspaceDir, 'e2e-load-all.sql'), `${REPEATED}\n${PAGED}\n`);
  const server = await ctx.hub.api(`/databases/alice/prices/sql?ref=main&limit=60000&q=${encodeURIComponent(PAGED)}`);
  assert.equal(server.body.data.status, 'row_limit');
  const cap = server.body.data.rows.length;

  await ctx.openFile('e2e-load-all.sql');
  const editor = page.locator('.part.editor .editor-instance .monaco-editor').first();
  const lines = editor.locator('.view-lines .view-line');
  await lines.filter({ hasText: 'AS ID FROM' }).first().click();
  await ctx.runCommand('Versioned DB: Run SQL Statement or Selection');
  await ctx.quickInput
    .locator('.quick-input-title', { hasText: 'Run at which ref of alice/prices?' })
    .first()
    .waitFor({ state: 'visible' });
  await ctx.quickPick('main');
  const frame = page.frameLocator('iframe.webview.ready').first().frameLocator('iframe#active-frame');

  // Repeated column names: the banner says why Load All Rows is not offered, and there is no button.
  const refused = frame.locator('.vdb-result [data-banner="row_limit"]', { hasText: 'Load All Rows is not available' });
  await refused.waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  assert.match(await refused.innerText(), /more than one column named "id"; give each a name of its own with AS/);
  assert.equal(await frame.locator('.vdb-loadall').count(), 0);
  await ctx.screenshot('repeated-names-not-paged');

  // A plain SELECT past the cap: Load All Rows, then the last row.
  await lines.filter({ hasText: "'row ' ||" }).first().click();
  await page.keyboard.press('Control+Enter');
  const banner = frame.locator('.vdb-result [data-banner="row_limit"]', { hasText: `${cap.toLocaleString('en-US')} rows (its cap)` });
  await banner.waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  await frame.locator('.vdb-result .vdb-loadall').click();
  const paged = frame.locator('.vdb-result[data-status="paged"]').first();
  await paged
    .locator('.vdb-summary', { hasText: `${TOTAL.toLocaleString('en-US')} rows` })
    .waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  const first = paged.locator('.vdb-cell[data-r="0"][data-c="1"]:not(.placeholder)');
  await first.waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  assert.equal(await first.innerText(), 'row 1');
  await paged.locator('.vdb-grid').evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  const last = paged.locator(`.vdb-cell[data-r="${TOTAL - 1}"][data-c="1"]:not(.placeholder)`);
  await last.waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  assert.equal(await last.innerText(), `row ${TOTAL}`);
  assert.equal(await paged.locator(`.vdb-cell[data-r="${TOTAL - 1}"][data-c="0"]`).innerText(), String(TOTAL));
  await ctx.screenshot('panel-last-row');
}
