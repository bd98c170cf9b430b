import assert from 'node:assert/strict';
import { frameWith, plainDiff, plainRows } from './changesHelpers.mjs';

export const name = 'the Changes view filters by kind, hides unchanged columns and opens a schema diff';
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };

async function compare(ctx, from, to, dots) {
  await ctx.runCommand('Versioned DB: Compare Refs…');
  await ctx.quickPick(from);
  await ctx.quickPick(to);
  await ctx.quickPick(`${from}${dots}${to}`);
}

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  // Three dots from main to supplier-updates: the pull's diff. Expected from plain reads.
  const onMain = new Set((await plainRows(ctx, 'alice/prices', 'main', 'SELECT commit_hash FROM dolt_log')).map((r) => r.commit_hash));
  const base = (await plainRows(ctx, 'alice/prices', 'supplier-updates', 'SELECT commit_hash FROM dolt_log'))
    .map((r) => r.commit_hash)
    .find((h) => onMain.has(h));
  const products = await plainDiff(ctx, 'alice/prices', 'products', base, 'supplier-updates');
  assert.ok(products.counts.added && products.counts.modified && products.counts.removed, 'the seed changes products every way');
  await compare(ctx, 'main', 'supplier-updates', '...');
  let view = await frameWith(ctx, '.chg-list button[data-table="products"]', { timeout: ctx.scaled(60_000) });
  await view.locator('.chg-list button[data-table="products"]').click();
  await view.locator('.chg-list button[data-table="products"][aria-current="true"]').waitFor();
  await view
    .locator('.vdb-row[data-kind="modified"]')
    .first()
    .waitFor({ timeout: ctx.scaled(30_000) });

  // Only added and removed rows: the filter runs on the server.
  await view.locator('input[data-kind-filter="modified"]').uncheck();
  await view
    .locator('.vdb-row[data-kind="added"]')
    .first()
    .waitFor({ timeout: ctx.scaled(30_000) });
  await view
    .locator('.vdb-summary', { hasText: `${products.counts.added + products.counts.removed} rows` })
    .waitFor({ timeout: ctx.scaled(30_000) });
  assert.equal(await view.locator('.vdb-row[data-kind="modified"]').count(), 0);

  // Hide unchanged columns: the key and the columns some modified row changed (plain reads).
  await view.locator('input[data-kind-filter="modified"]').check();
  await view
    .locator('.vdb-row[data-kind="modified"]')
    .first()
    .waitFor({ timeout: ctx.scaled(30_000) });
  await view.locator('input[data-hide-unchanged]').check();
  const changed = new Set(products.modified.flatMap((m) => m.cells.map((c) => c.column)));
  const all = Object.keys((await plainRows(ctx, 'alice/prices', 'supplier-updates', 'SELECT * FROM products LIMIT 1'))[0]);
  const want = all.filter((c) => c === 'id' || changed.has(c));
  assert.ok(want.length < all.length, 'some column is unchanged');
  await view.locator('.vdb-summary', { hasText: `× ${want.length} columns` }).waitFor({ timeout: ctx.scaled(30_000) });
  await ctx.screenshot('hide-unchanged');

  // v2 → main two dots: suppliers is a new table, marked as a schema change; its schema diff opens.
  await compare(ctx, 'v2', 'main', '..');
  view = await frameWith(ctx, '.chg-list button[data-table="suppliers"] [data-schema="changed"]', { timeout: ctx.scaled(60_000) });
  await view.locator('.chg-list button[data-table="suppliers"]').click();
  await view.locator('button[data-action="schemaDiff"]').click();
  const columns = Object.keys((await plainRows(ctx, 'alice/prices', 'main', 'SELECT * FROM suppliers LIMIT 1'))[0]);
  await ctx.page
    .locator('.tab', { hasText: 'suppliers schema' })
    .first()
    .waitFor({ timeout: ctx.scaled(30_000) });
  // The diff editor's lines (Monaco draws spaces as no-break spaces): the new side's CREATE statement.
  const handle = await ctx.page.waitForFunction(
    () =>
      [...document.querySelectorAll('.monaco-diff-editor .view-lines')]
        .map((e) => (e.textContent ?? '').replace(/\u00a0/g, ' '))
        .find((t) => /CREATE\s+TABLE/.test(t)),
    undefined,
    { timeout: ctx.scaled(30_000) },
  );
  const text = await handle.jsonValue();
  for (const c of columns) assert.ok(text.includes(c), `the CREATE statement at main names ${c}: ${text}`);
  await ctx.screenshot('schema-diff');
}
