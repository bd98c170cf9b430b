import assert from 'node:assert/strict';
import { frameWith, plainDiff } from './changesHelpers.mjs';

export const name = 'Compare Refs… of tags v1 and v2 shows the changed table and the changed cell old → new';
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
    await view.locator('.vdb-row[data-kind="modified"] .vdb-cell.changed', { hasText: `${c.old ?? "NULL"} → ${c.new ?? "NULL"}` }).waitFor({ timeout: ctx.scaled(30_000) });
  }
  await ctx.screenshot('compare-tags');
}
