import assert from 'node:assert/strict';
import { cellOf, openFromTree, plain } from './tableHelpers.mjs';
import { frameWith } from './changesHelpers.mjs';

export const name =
  'editing products at main: two cells, a new row, a deleted row, one edit undone, NULL refused in a NOT NULL column; the change set survives a reload and shows in the Changes view';
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };
export const timeout = 300_000;

/**
 * Opens the cell's editor with a double-click, types `value`, commits with Enter and waits for the
 * cell to show it (marked changed on a row of the table; a new row's cells are all new).
 */
async function editCell(ctx, grid, r, c, value, mark = '.changed') {
  await cellOf(grid, r, c).dblclick();
  const input = grid.locator('.vdb-editor .vdb-editor-input');
  await input.waitFor({ state: 'visible', timeout: ctx.scaled(10_000) });
  await input.fill(value);
  await input.press('Enter');
  await grid
    .locator(`.vdb-cell${mark}[data-r="${r}"][data-c="${c}"]`, { hasText: value })
    .first()
    .waitFor({ state: 'visible', timeout: ctx.scaled(20_000) });
}

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const { page } = ctx;
  // The rows as they are at main, read plainly: the grid shows them by primary key.
  const rows = await plain(ctx, 'SELECT id, name, category, price FROM products ORDER BY id');
  assert.ok(rows.length >= 5);
  let grid = await openFromTree(ctx, 'products');
  await cellOf(grid, 0, 1).waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  assert.match(await grid.locator('.vdb-edithint').innerText(), /New rows are listed at the top of the grid/);
  const counts = () => grid.locator('[data-counts]');
  const waitCounts = (text) =>
    counts()
      .filter({ hasText: text })
      .waitFor({ state: 'visible', timeout: ctx.scaled(20_000) });

  // Two cells, then the second edit undone.
  await editCell(ctx, grid, 0, 1, 'Apple pie');
  await editCell(ctx, grid, 1, 2, 'tropical');
  await waitCounts('2 changed · 0 new · 0 deleted');
  await page.keyboard.press('Control+z');
  await waitCounts(/^1 changed · 0 new · 0 deleted$/);
  await grid.locator('.vdb-cell[data-r="1"][data-c="2"]:not(.changed)').waitFor({ state: 'visible', timeout: ctx.scaled(10_000) });
  assert.equal(await cellOf(grid, 1, 2).innerText(), rows[1][2]);

  // NULL in name (NOT NULL) is refused at the cell, and the changes cannot be proposed until fixed.
  await cellOf(grid, 2, 1).click();
  await page.keyboard.press('Delete');
  const bad = grid.locator('.vdb-cell.invalid[data-r="2"][data-c="1"]');
  await bad.waitFor({ state: 'visible', timeout: ctx.scaled(20_000) });
  assert.equal(await bad.getAttribute('title'), `name cannot be NULL.\nWas: ${rows[2][1]}`);
  assert.equal(await grid.locator('[data-edit="propose"]').isDisabled(), true);
  await ctx.screenshot('not-null-refused');
  await page.keyboard.press('Control+z');
  await waitCounts(/^1 changed · 0 new · 0 deleted$/);

  // A new row, at the top, with a key the table does not have.
  await grid.locator('[data-edit="add"]').click();
  await grid.locator('.vdb-row[data-kind="added"]').waitFor({ state: 'visible', timeout: ctx.scaled(20_000) });
  await editCell(ctx, grid, 0, 0, '10', '');
  await editCell(ctx, grid, 0, 1, 'Kiwi', '');
  // Row 5 of the table is the sixth row of the grid now; deleting it strikes it through.
  assert.equal(await cellOf(grid, 5, 0).innerText(), rows[4][0]);
  await cellOf(grid, 5, 1).click();
  await grid.locator('[data-edit="delete"]').click();
  await grid.locator('.vdb-row[data-kind="removed"]').waitFor({ state: 'visible', timeout: ctx.scaled(20_000) });
  await waitCounts(/^1 changed · 1 new · 1 deleted$/);
  await grid.locator('[data-edit="propose"]:not([disabled])').waitFor({ state: 'visible', timeout: ctx.scaled(20_000) });
  await ctx.screenshot('edited');

  // Reload the window: the change set is kept, and the table reopens on it.
  const reloaded = page.waitForEvent('framenavigated', { predicate: (f) => f === page.mainFrame(), timeout: ctx.scaled(60_000) });
  await ctx.runCommand('Developer: Reload Window');
  await reloaded;
  await page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: ctx.scaled(90_000) });
  await ctx.openView();
  grid = await openFromTree(ctx, 'products');
  await waitCounts(/^1 changed · 1 new · 1 deleted$/);
  await grid.locator('.vdb-cell[data-r="0"][data-c="1"]', { hasText: 'Kiwi' }).waitFor({ state: 'visible', timeout: ctx.scaled(20_000) });
  assert.equal(await grid.locator('.vdb-row[data-kind="added"] .vdb-rownum').innerText(), 'new');
  assert.equal(await cellOf(grid, 0, 0).innerText(), '10');
  const changed = grid.locator('.vdb-cell.changed[data-r="1"][data-c="1"]');
  await changed.waitFor({ state: 'visible', timeout: ctx.scaled(20_000) });
  assert.equal(await changed.innerText(), 'Apple pie');
  assert.equal(await changed.getAttribute('title'), `Was: ${rows[0][1]}`);
  assert.equal(await grid.locator('.vdb-row[data-kind="removed"] .vdb-rownum').innerText(), '5');
  await ctx.screenshot('kept-after-reload');

  // Review Changes: the Changes view shows the change set as a diff against the rows it was made on.
  await grid.locator('[data-edit="review"]').click();
  await page
    .locator('.part.editor .tab', { hasText: 'Unsent changes: products @ main' })
    .first()
    .waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  const view = await frameWith(ctx, '.chg-list button[data-table="products"]');
  const item = view.locator('.chg-list button[data-table="products"]');
  assert.equal(await item.locator('[data-count="added"]').innerText(), '1 added');
  assert.equal(await item.locator('[data-count="modified"]').innerText(), '1 modified');
  assert.equal(await item.locator('[data-count="removed"]').innerText(), '1 removed');
  const diffCell = (r, c) => view.locator(`.vdb-cell[data-r="${r}"][data-c="${c}"]:not(.placeholder)`).first();
  await diffCell(2, 1).waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  const kinds = await view
    .locator('.vdb-row[data-kind]')
    .evaluateAll((els) =>
      els
        .map((e) => [Number(e.querySelector('.vdb-rownum')?.getAttribute('data-rownum')), e.getAttribute('data-kind')])
        .sort((a, b) => a[0] - b[0]),
    );
  assert.deepEqual(
    kinds.map((k) => k[1]),
    ['modified', 'removed', 'added'],
  );
  assert.equal(await diffCell(0, 0).innerText(), rows[0][0]);
  assert.equal(await diffCell(0, 1).innerText(), `${rows[0][1]} → Apple pie`);
  assert.equal(await diffCell(1, 0).innerText(), rows[4][0]);
  assert.equal(await diffCell(1, 1).innerText(), rows[4][1]);
  assert.equal(await diffCell(2, 0).innerText(), '10');
  assert.equal(await diffCell(2, 1).innerText(), 'Kiwi');
  await ctx.screenshot('changes-view');
}
