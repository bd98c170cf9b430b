import assert from 'node:assert/strict';
import { browserGrid } from './tableHelpers.mjs';
import { plainRows } from './changesHelpers.mjs';

export const name =
  "keyboard only: the Databases view, a table opened from its row's menu, moves, a server sort (Alt+S), a filter (Alt+F), a range copied and a row's history, without the mouse";
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };
export const timeout = 240_000;

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const { page } = ctx;
  const kb = page.keyboard;
  const expected = await plainRows(ctx, 'alice/prices', 'main', 'SELECT id, name FROM products ORDER BY name DESC');

  // The palette by F1, the command typed and run with Enter.
  const palette = async (title) => {
    await kb.press('F1');
    await ctx.quickInput
      .locator('input')
      .first()
      .waitFor({ timeout: ctx.scaled(10_000) });
    await kb.type(title);
    await ctx.quickInput
      .locator('.quick-input-list .monaco-list-row.focused', { hasText: title })
      .first()
      .waitFor({ timeout: ctx.scaled(10_000) });
    await kb.press('Enter');
  };
  const focusedRow = page.locator('.part.sidebar .monaco-list-row.focused');
  /** Down until the tree's focused row is `label` (waiting for rows that are still loading). */
  const downTo = async (label) => {
    for (let i = 0; i < 40; i++) {
      const text = (
        await focusedRow
          .locator('.label-name')
          .first()
          .innerText()
          .catch(() => '')
      ).trim();
      if (text === label) return;
      if (i > 0 && i % 10 === 0) await ctx.treeItem(label);
      await kb.press('ArrowDown');
    }
    assert.fail(`the tree's focused row never reached ${label}`);
  };
  const expandTo = async (label, child) => {
    await downTo(label);
    await kb.press('ArrowRight');
    await ctx.treeItem(child);
  };

  await palette('Versioned DB: Focus on Databases View');
  await page.locator('.part.sidebar .monaco-list:focus').waitFor({ timeout: ctx.scaled(10_000) });
  // A list that has the focus but no focused row yet takes one on Home.
  await kb.press('Home');
  await focusedRow.waitFor({ timeout: ctx.scaled(10_000) });
  await expandTo('alice/prices', 'Branches');
  await expandTo('Branches', 'main');
  await expandTo('main', 'Tables');
  await expandTo('Tables', 'products');
  await downTo('products');
  // The row's menu (Shift+F10): Down to Open Table, Enter.
  await kb.press('Shift+F10');
  await page
    .locator('.monaco-menu .action-item')
    .first()
    .waitFor({ timeout: ctx.scaled(10_000) });
  // Read without waiting: the menu opens with no item focused (innerText would wait its whole timeout).
  const focusedItem = page.locator('.monaco-menu .action-item.focused');
  for (let i = 0; i < 8 && (await focusedItem.allInnerTexts()).join('').trim() !== 'Open Table'; i++) await kb.press('ArrowDown');
  await page.locator('.monaco-menu .action-item.focused', { hasText: 'Open Table' }).waitFor({ timeout: ctx.scaled(5_000) });
  await kb.press('Enter');
  await page
    .locator('.part.editor .tab.active', { hasText: 'products @ main' })
    .first()
    .waitFor({ timeout: ctx.scaled(30_000) });
  const grid = browserGrid(ctx);
  await grid.locator('.vdb-cell[data-r="0"][data-c="1"]').waitFor({ timeout: ctx.scaled(30_000) });
  // The grid has the keyboard as soon as the browser opens.
  await grid.locator('.vdb-grid:focus').waitFor({ timeout: ctx.scaled(10_000) });

  // Moves: the first cell (the first key only places the cursor), two down, one right → row 3, name.
  await kb.press('Control+Home');
  await grid.locator('.vdb-cell.active[data-r="0"][data-c="0"]').waitFor();
  await kb.press('ArrowDown');
  await kb.press('ArrowDown');
  await kb.press('ArrowRight');
  await grid.locator('.vdb-cell.active[data-r="2"][data-c="1"]').waitFor();

  // Alt+S twice: sorted by name on the server, descending; the arrow shows it.
  await kb.press('Alt+s');
  await grid.locator('.vdb-hcell[data-col="1"][aria-sort="ascending"]').waitFor({ timeout: ctx.scaled(20_000) });
  await kb.press('Alt+s');
  await grid.locator('.vdb-hcell[data-col="1"][aria-sort="descending"]').waitFor({ timeout: ctx.scaled(20_000) });
  await grid
    .locator('.vdb-cell[data-r="0"][data-c="1"]:not(.placeholder)', { hasText: expected[0].name })
    .waitFor({ timeout: ctx.scaled(20_000) });
  await ctx.screenshot('sorted-by-keyboard');

  // Alt+F: the name filter, typed and applied with Enter; the focus comes back to the grid.
  await kb.press('Alt+f');
  await grid.locator('.vdb-filterform input.vdb-filter-value:focus').waitFor({ timeout: ctx.scaled(10_000) });
  const kept = expected.filter((r) => r.name.toLowerCase().includes('a'));
  assert.ok(kept.length >= 2 && kept.length < expected.length, `the filter keeps some rows: ${kept.length}`);
  await kb.type('a');
  await kb.press('Enter');
  await grid.locator('.vdb-hfilter.on[data-filter="1"]').waitFor({ timeout: ctx.scaled(20_000) });
  await grid.locator('.vdb-summary', { hasText: `${kept.length} row` }).waitFor({ timeout: ctx.scaled(20_000) });
  await grid.locator('.vdb-grid:focus').waitFor({ timeout: ctx.scaled(10_000) });
  await ctx.screenshot('filtered-by-keyboard');

  // A range: the first two rows' id and name, copied with Ctrl+C.
  await kb.press('Control+Home');
  await kb.press('Shift+ArrowDown');
  await kb.press('Shift+ArrowRight');
  await kb.press('Control+c');
  await page.locator('.part.statusbar', { hasText: /Copied 2 rows/ }).waitFor({ timeout: ctx.scaled(20_000) });

  // The row menu on the first row (Shift+F10) → Show Row History, by arrows and Enter.
  await kb.press('Control+Home');
  await kb.press('Shift+F10');
  const menu = grid.locator('.vdb-menu[role="menu"]');
  await menu.waitFor({ timeout: ctx.scaled(10_000) });
  for (let i = 0; i < 6; i++) {
    const focused = (await menu.locator('[role="menuitem"]:focus').allInnerTexts()).join('').trim();
    if (focused === 'Show Row History') break;
    await kb.press('ArrowDown');
  }
  await kb.press('Enter');
  await page
    .locator('.part.editor .tab.active', { hasText: new RegExp(`History of products \\(id = ${kept[0].id}\\)`) })
    .first()
    .waitFor({ timeout: ctx.scaled(60_000) });
  await ctx.screenshot('row-history-by-keyboard');
}
