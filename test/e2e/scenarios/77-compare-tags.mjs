import assert from 'node:assert/strict';
import { frameWith, plainDiff } from './changesHelpers.mjs';
import { cellOf, headerNames } from './tableHelpers.mjs';

export const name =
  "Compare Refs… of tags v1 and v2 shows the changed table and the changed cell old → new, and the changed row's history from the diff";
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const expected = await plainDiff(ctx, 'alice/prices', 'products', 'v1', 'v2');
  assert.equal(expected.counts.modified, 1, 'the seed changes one product between v1 and v2');

  await ctx.runCommand('Versioned DB: Compare Refs…');
  await ctx.quickPick('v1');
  await ctx.quickPick('v2');
  await ctx.quickPick('v1..v2');

  const view = await frameWith(ctx, '.chg-list button[data-table]', { timeout: ctx.scaled(60_000) });
  const tables = await view.locator('.chg-list button[data-table]').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-table')));
  assert.deepEqual(tables, ['products']);
  const counts = view.locator('.chg-list button[data-table="products"] [data-count="modified"]');
  assert.equal(await counts.innerText(), `${expected.counts.modified} modified`);
  for (const c of expected.modified[0].cells) {
    await view
      .locator('.vdb-row[data-kind="modified"] .vdb-cell.changed', { hasText: `${c.old ?? 'NULL'} → ${c.new ?? 'NULL'}` })
      .waitFor({ timeout: ctx.scaled(30_000) });
  }
  await ctx.screenshot('compare-tags');

  // Show Row History on the modified row of the diff: its versions up to v2, the newest first, the
  // newest holding v2's value of the changed cell (expected from the plain read at v2).
  const changed = expected.modified[0];
  const cell = changed.cells[0];
  await view
    .locator('.vdb-row[data-kind="modified"] .vdb-cell.changed', { hasText: `${cell.old ?? 'NULL'} → ${cell.new ?? 'NULL'}` })
    .first()
    .click({ button: 'right' });
  const item = view.locator('.vdb-menu [role="menuitem"]', { hasText: 'Show Row History' });
  await item.waitFor({ timeout: ctx.scaled(10_000) });
  await item.click();
  await ctx.page
    .locator('.part.editor .tab.active', { hasText: new RegExp(`History of products \\(id = ${changed.key}\\)`) })
    .first()
    .waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  const history = ctx.page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame').locator('.vdb-result').first();
  // At least two versions: the row differs between v1 and v2.
  await cellOf(history, 1, 0).waitFor({ timeout: ctx.scaled(30_000) });
  const hHeaders = await headerNames(history);
  const col = hHeaders.indexOf(cell.column);
  assert.ok(col >= 0, `the row history shows ${cell.column}: ${hHeaders.join(',')}`);
  const newest = (await cellOf(history, 0, col).innerText()).split('→').pop().trim();
  const norm = (v) => (v === null || v === undefined ? 'NULL' : /^-?\d+(\.\d+)?$/.test(String(v)) ? String(Number(v)) : String(v));
  assert.equal(norm(newest), norm(cell.new), "the newest version holds v2's value");
  await ctx.screenshot('diff-row-history');
}
