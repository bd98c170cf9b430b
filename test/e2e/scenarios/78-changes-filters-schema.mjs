import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { frameWith, plainDiff, plainRows } from './changesHelpers.mjs';

export const name =
  'the Changes view exports a diff as CSV and as a SQL patch, filters by kind, hides unchanged columns and opens a schema diff';
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };

async function compare(ctx, from, to, dots) {
  await ctx.runCommand('Versioned DB: Compare Refs…');
  await ctx.quickPick(from);
  await ctx.quickPick(to);
  await ctx.quickPick(`${from}${dots}${to}`);
}

/**
 * The products diff saved both ways, as a person would: the grid's Export… as CSV (one line per
 * changed row, its kind first) and Export SQL patch… (one statement per changed row). Both
 * files are checked against the plain reads of the two refs.
 */
async function exportBoth(ctx, view, products) {
  const { added, modified, removed } = products.counts;
  const total = added + modified + removed;
  const csvFile = join(ctx.workspaceDir, 'products-changes.csv');
  await view.locator('.vdb-export-format').selectOption('csv');
  await view.locator('.vdb-export').click();
  await ctx.fileDialog(csvFile);
  await ctx.waitForNotification(`Exported ${total.toLocaleString('en-US')} rows to products-changes.csv`, { timeout: ctx.scaled(60_000) });
  const [header, ...lines] = readFileSync(csvFile, 'utf8').trimEnd().split(/\r?\n/);
  assert.deepEqual(header.split(',').slice(0, 3), ['diff_type', 'from_id', 'to_id']);
  const kinds = (k) => lines.filter((l) => l.startsWith(`${k},`)).length;
  assert.deepEqual({ added: kinds('added'), modified: kinds('modified'), removed: kinds('removed') }, products.counts);
  for (const r of products.removed)
    assert.ok(
      lines.some((l) => l.startsWith(`removed,${r.key},`)),
      `the CSV removes ${r.key}`,
    );

  const patchFile = join(ctx.workspaceDir, 'products.patch.sql');
  await view.locator('button[data-action="exportPatch"]').click();
  await ctx.fileDialog(patchFile);
  await ctx.waitForNotification(`Exported ${total.toLocaleString('en-US')} statements to products.patch.sql`, {
    timeout: ctx.scaled(60_000),
  });
  const statements = readFileSync(patchFile, 'utf8').trimEnd().split(/\r?\n/);
  const verbs = (v) => statements.filter((l) => l.startsWith(v)).length;
  assert.deepEqual({ added: verbs('INSERT'), modified: verbs('UPDATE'), removed: verbs('DELETE') }, products.counts, statements.join('\n'));
  for (const m of products.modified)
    for (const c of m.cells)
      if (c.new !== null)
        assert.ok(
          statements.some((l) => l.startsWith('UPDATE') && l.includes(`\`${c.column}\``) && l.includes(String(c.new))),
          `the patch sets ${c.column} of ${m.key} to ${c.new}`,
        );
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

  await exportBoth(ctx, view, products);

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
