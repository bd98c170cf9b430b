import assert from 'node:assert/strict';
import { answerHostPick } from './pullHelpers.mjs';
import { frameWith, plainDiff, plainMergeBase } from './changesHelpers.mjs';
import { expectAccessible } from './a11yHelpers.mjs';

export const name = "a pull's Changes: table counts, a modified cell old → new, a Viewed mark kept across reopening";
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };

async function openPull(ctx) {
  await ctx.runCommand('Versioned DB: Show Pull Request');
  await answerHostPick(ctx);
  await ctx.quickPick('alice/prices');
  await ctx.quickPick('#4 Update suppliers and the catalogue');
  return frameWith(ctx, '#pull-changes tr[data-table-row]', { timeout: ctx.scaled(60_000) });
}

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const pull = (await ctx.hub.api('/databases/alice/prices/pulls/4')).body.data;
  assert.equal(pull.from_branch.branch_name, 'supplier-updates');
  // Expected: plain reads of each table at the merge base and at the head of the pull's branch.
  const base = await plainMergeBase(ctx, 'alice/prices', 'main', 'supplier-updates');
  const expected = {
    products: await plainDiff(ctx, 'alice/prices', 'products', base, 'supplier-updates'),
    suppliers: await plainDiff(ctx, 'alice/prices', 'suppliers', base, 'supplier-updates'),
  };

  let view = await openPull(ctx);
  const rows = view.locator('#pull-changes tr[data-table-row]');
  assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-table-row'))), ['products', 'suppliers']);
  for (const table of ['products', 'suppliers']) {
    const row = view.locator(`#pull-changes tr[data-table-row="${table}"]`);
    const shown = {
      added: Number((await row.locator('[data-count="added"]').innerText()).replace(/[^\d]/g, '')),
      modified: Number((await row.locator('[data-count="modified"]').innerText()).replace(/[^\d]/g, '')),
      removed: Number((await row.locator('[data-count="removed"]').innerText()).replace(/[^\d]/g, '')),
    };
    assert.deepEqual(shown, expected[table].counts, `${table} counts`);
  }
  await ctx.screenshot('pull-changes');

  // Mark suppliers viewed.
  await view.locator('#pull-changes input[data-viewed-table="suppliers"]').check();
  await view.locator('#pull-changes [data-viewed-count]', { hasText: '1 of 2 viewed' }).waitFor({ timeout: ctx.scaled(20_000) });

  // Open suppliers' diff: the Changes view shows a modified cell as old → new.
  await view.locator('#pull-changes button[data-changes-table="suppliers"]').click();
  const changes = await frameWith(ctx, '.chg-list button[data-table="suppliers"][aria-current="true"]', { timeout: ctx.scaled(60_000) });
  const cell = expected.suppliers.modified[0].cells.find((c) => c.column !== 'id');
  const text = `${cell.old ?? 'NULL'} → ${cell.new ?? 'NULL'}`;
  await changes
    .locator('.vdb-row[data-kind="modified"] .vdb-cell.changed', { hasText: text })
    .first()
    .waitFor({ timeout: ctx.scaled(30_000) });
  // Every changed row of the table is listed with its kind.
  await changes
    .locator('.vdb-row[data-kind]')
    .nth(expected.suppliers.counts.added + expected.suppliers.counts.modified + expected.suppliers.counts.removed - 1)
    .waitFor();
  assert.equal(await changes.locator('.vdb-row[data-kind="removed"]').count(), expected.suppliers.counts.removed);
  assert.equal(await changes.locator('.vdb-row[data-kind="added"]').count(), expected.suppliers.counts.added);
  await ctx.screenshot('changes-view');
  await expectAccessible(ctx, '.chg-list', 'the Changes view');

  // Close every editor, reopen the pull: the mark is still there.
  await ctx.runCommand('View: Close All Editors');
  view = await openPull(ctx);
  assert.equal(await view.locator('#pull-changes input[data-viewed-table="suppliers"]').isChecked(), true, 'suppliers stays viewed');
  assert.equal(await view.locator('#pull-changes input[data-viewed-table="products"]').isChecked(), false);
  await view.locator('#pull-changes [data-viewed-count]', { hasText: '1 of 2 viewed' }).waitFor();
}
