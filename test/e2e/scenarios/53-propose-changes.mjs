import assert from 'node:assert/strict';
import { cellOf, importTable, openFromTree, plain } from './tableHelpers.mjs';
import { plainDiff } from './changesHelpers.mjs';
import { confirmDialog, pullView, typeInTextEditor } from './pullHelpers.mjs';

export const name =
  'edits to products (two cells, a new row, a deleted row) proposed as a pull request: the branch holds exactly the edits; then a stale base (main changed the same row) is reported and the edits rebased onto main';
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };
export const timeout = 360_000;

/** Double-click, type, Enter; waits until the cell shows the value. */
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

/** The pull request the hub has from `branch`, read through the API (not the extension). */
async function pullFrom(ctx, branch) {
  const list = await ctx.hub.api('/databases/alice/prices/pulls');
  for (const p of list.body.data) {
    const pull = await ctx.hub.api(`/databases/alice/prices/pulls/${p.pull_number}`);
    if (pull.body.data.from_branch.branch_name === branch) return pull.body.data;
  }
  return undefined;
}

/** Answers the four questions of Propose Changes… and waits for the pull request's view. */
async function answerProposal(ctx, branch, title) {
  await ctx.inputBox(branch);
  await ctx.inputBox(title);
  // The description Propose Changes… writes has several lines: it opens in an editor (an input
  // box would drop its line breaks); used as written.
  await typeInTextEditor(ctx, /^Pull request description \d+/);
  await ctx.quickPick('main');
  await ctx.page
    .locator('.part.editor .tab', { hasText: title })
    .first()
    .waitFor({ state: 'visible', timeout: ctx.scaled(120_000) });
  await pullView(ctx)
    .locator('h1', { hasText: title })
    .first()
    .waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
}

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const rows = await plain(ctx, 'SELECT id, name, category, price FROM products ORDER BY id');
  const grid = await openFromTree(ctx, 'products');
  await cellOf(grid, 0, 1).waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });

  // Two cells of the table and a new row.
  await editCell(ctx, grid, 0, 1, 'Apple pie');
  await editCell(ctx, grid, 1, 3, '0.99');
  await grid.locator('[data-edit="add"]').click();
  await grid.locator('.vdb-row[data-kind="added"]').waitFor({ state: 'visible', timeout: ctx.scaled(20_000) });
  await editCell(ctx, grid, 0, 0, '77', '');
  await editCell(ctx, grid, 0, 1, 'Kiwi', '');
  // The table's fifth row (the sixth of the grid, below the new one) deleted.
  assert.equal(await cellOf(grid, 5, 0).innerText(), rows[4][0]);
  await cellOf(grid, 5, 1).click();
  await grid.locator('[data-edit="delete"]').click();
  await grid.locator('.vdb-row[data-kind="removed"]').waitFor({ state: 'visible', timeout: ctx.scaled(20_000) });
  const propose = grid.locator('[data-edit="propose"]:not([disabled])');
  await propose.waitFor({ state: 'visible', timeout: ctx.scaled(20_000) });
  await ctx.readmeScreenshot('propose-changes');

  // Propose Changes…: a branch at the commit the edits were made on, then a pull request into main.
  await propose.click();
  await answerProposal(ctx, 'edit/products-e2e', 'Apple pie and kiwis');
  await ctx.screenshot('pull-opened');
  const pull = await pullFrom(ctx, 'edit/products-e2e');
  assert.ok(pull, 'the pull request is on the hub');
  assert.match(pull.description, /:\n\n- 2 rows changed\n- 1 row added\n- 1 row deleted$/, 'the description keeps its lines');
  assert.equal(pull.to_branch.branch_name, 'main');
  // The pull's diff is exactly the edits, by plain reads of the table at main and at the branch.
  const diff = await plainDiff(ctx, 'alice/prices', 'products', 'main', 'edit/products-e2e');
  assert.deepEqual(diff.counts, { added: 1, modified: 2, removed: 1 });
  assert.deepEqual(
    diff.removed.map((r) => r.key),
    [String(rows[4][0])],
    'the deleted row is gone from the branch',
  );
  const byKey = Object.fromEntries(diff.modified.map((m) => [m.key, m.cells.map((c) => [c.column, c.old, c.new])]));
  assert.deepEqual(byKey[rows[0][0]], [['name', rows[0][1], 'Apple pie']]);
  assert.deepEqual(
    byKey[rows[1][0]].map((c) => [c[0], Number(c[2])]),
    [['price', 0.99]],
  );
  const kiwi = await ctx.hub.api(
    `/databases/alice/prices/sql?ref=${encodeURIComponent('edit/products-e2e')}&q=${encodeURIComponent('SELECT name FROM products WHERE id = 77')}`,
  );
  assert.deepEqual(kiwi.body.data.rows, [['Kiwi']]);

  // Sent: the table's change set is gone, so the edit bar has nothing to propose.
  await ctx.page.locator('.part.editor .tab', { hasText: 'products @ main' }).first().click();
  await grid.locator('[data-edit="propose"][disabled]').waitFor({ state: 'attached', timeout: ctx.scaled(20_000) });

  // A stale base: the carrot's price is edited here while someone changes the same row on main.
  await editCell(ctx, grid, 2, 3, '5.55');
  await importTable(ctx, 'products', 'id,name,category,price\n3,Carrot,vegetable,0.40\n', ['id'], 'update');
  await propose.click();
  await confirmDialog(ctx, 'Rebase onto main', /main changed 1 of the rows you edited/);
  await answerProposal(ctx, 'edit/carrot-e2e', 'Carrots at 5.55');
  const rebased = await plainDiff(ctx, 'alice/prices', 'products', 'main', 'edit/carrot-e2e');
  assert.deepEqual(rebased.counts, { added: 0, modified: 1, removed: 0 }, 'made at main as it is now: only the edited row differs');
  assert.deepEqual(
    rebased.modified[0].cells.map((c) => [c.column, c.old, Number(c.new)]),
    [['price', '0.40', 5.55]],
  );
  await ctx.screenshot('rebased-pull');
}
