import assert from 'node:assert/strict';
import { frameWith, plainRows } from './changesHelpers.mjs';
import { cellOf } from './tableHelpers.mjs';
import { typeInTextEditor } from './pullHelpers.mjs';
import { judgedTests } from './testsHelpers.mjs';
import { waitFor } from '../../helpers/waitFor.cjs';

export const name =
  "a branch's Tests: Run Tests shows PASS and FAIL with the message as plain reads judge them, a failing test opens its query in a notebook at that commit, and a test added in the grid (Edit Tests…) is proposed as a pull whose Checks run it";
export const given = { signedIn: 'alice', databases: ['alice/orders'] };

const DB = 'alice/orders';
const BRANCH = 'bulk-orders';

/** The test a person adds through the grid, in dolt_tests' column order (test_name first: the key). */
const NEW_TEST = ['no huge orders', 'integrity', 'SELECT id FROM orders WHERE quantity > 100000', 'expected_rows', '==', '0'];
const NEW_BRANCH = 'tests/no-huge-orders';

/** The description VS Code shows beside a tree row. */
const description = async (row) => (await row.locator('.label-description').first().textContent()) ?? '';

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const expected = await judgedTests(ctx, DB, BRANCH);
  const failing = [...expected].filter(([, t]) => !t.pass);
  const passing = [...expected].filter(([, t]) => t.pass);
  assert.ok(failing.length >= 1 && passing.length >= 1, 'the seed has passing and failing tests on the branch');
  const head = (await ctx.hub.api(`/databases/${DB}/branches`)).body.data.find((b) => b.name === BRANCH).head_commit_sha;

  await ctx.expand(DB);
  await ctx.expand('Branches');
  await ctx.expand(BRANCH);
  const testsRow = await ctx.expand('Tests');
  for (const group of new Set([...expected.values()].map((t) => t.group))) await ctx.expand(group);
  await ctx.screenshot('tests-listed');

  // Run Tests on the Tests node (its context menu): every test, at the branch's commit.
  await ctx.contextMenu(testsRow, 'Run Tests');
  await ctx.waitForNotification(`Tests at ${BRANCH}: ${passing.length} passed, ${failing.length} failed.`, { timeout: ctx.scaled(60_000) });
  for (const [name, t] of expected) {
    const row = await ctx.treeItem(name);
    // The outcome notification can come before the tree's redraw reaches the window (the row
    // still showed its assertion, "expected_single_value >= 3", in a clean clone's first attempt).
    let text = '';
    await waitFor(`an outcome beside ${name}`, async () => /^(PASS|FAIL)/.test((text = await description(row))), {
      timeoutMs: ctx.scaled(10_000),
      intervalMs: 100,
    }).catch(() => undefined);
    if (t.pass) assert.equal(text, 'PASS', name);
    else assert.match(text, /^FAIL: Assertion failed/, name);
  }
  await ctx.screenshot('tests-run');

  // A failing test whose query returns rows: a click opens its query in a notebook at the commit.
  const [failName, fail] = failing.find(([, t]) => /^SELECT \*/.test(t.query)) ?? failing[0];
  await (await ctx.treeItem(failName)).click();
  const cellEditor = ctx.page.locator('.notebook-editor .cell-list-container .monaco-list-row .monaco-editor').first();
  await cellEditor.waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  assert.equal(
    (await cellEditor.locator('.view-lines').innerText()).replace(/\u00a0/g, ' ').trim(),
    fail.query,
    'the cell holds the test query',
  );
  // Run it: the grid shows the rows that made the test fail, read at the commit the tests ran at.
  const offending = await plainRows(ctx, DB, head, fail.query);
  assert.ok(offending.length > 0);
  await cellEditor.locator('.view-lines .view-line').first().click();
  await ctx.page.keyboard.press('End');
  await ctx.page.keyboard.press('Control+Enter');
  const output = ctx.page
    .frameLocator('.notebookOverlay iframe.webview.ready, .notebook-editor iframe.webview.ready')
    .first()
    .frameLocator('iframe#active-frame');
  const grid = output.locator('.vdb-result').first();
  await grid.waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  const firstValue = String(
    Object.values(offending[0]).find((v) => v !== null && String(v).startsWith('-')) ?? Object.values(offending[0])[0],
  );
  await grid.locator('.vdb-row').filter({ hasText: firstValue }).first().waitFor({ state: 'visible' });
  await ctx.screenshot('failing-test-query');
  // The cell runs where the tests ran: the branch's commit (its status bar names it).
  await ctx.page
    .locator('.notebook-editor .cell-statusbar-container', { hasText: `${DB} @ ${head.slice(0, 8)}` })
    .first()
    .waitFor({ state: 'visible' });

  await addTestInGrid(ctx, head);
}

/** Double-click a cell of the grid, type, Enter; waits until the cell shows the value. */
async function editCell(ctx, grid, r, c, value) {
  await cellOf(grid, r, c).dblclick();
  const input = grid.locator('.vdb-editor .vdb-editor-input');
  await input.waitFor({ state: 'visible', timeout: ctx.scaled(10_000) });
  await input.fill(value);
  await input.press('Enter');
  await grid
    .locator(`.vdb-cell[data-r="${r}"][data-c="${c}"]`, { hasText: value })
    .first()
    .waitFor({ state: 'visible', timeout: ctx.scaled(20_000) });
}

/**
 * Edit Tests… on the branch's Tests node: dolt_tests in the table browser at the branch; a new row
 * typed in, proposed into the branch; the pull opens and its Checks run the new test at its head.
 */
async function addTestInGrid(ctx, head) {
  const testsRow = await ctx.treeItem('Tests');
  await testsRow.hover();
  await testsRow.locator('.action-label[aria-label="Edit Tests…"]').click();
  await ctx.page
    .locator('.part.editor .tab.active', { hasText: `dolt_tests @ ${BRANCH}` })
    .first()
    .waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  // The table browser's grid: the one with an edit bar (the notebook's output grid is open too).
  const grid = (await frameWith(ctx, '.vdb-result [data-edit="add"]', { timeout: ctx.scaled(60_000) })).locator('.vdb-result').first();
  await cellOf(grid, 0, 0).waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  await waitFor(
    'the columns of dolt_tests, its key test_name first',
    async () => /test_name[\s\S]*test_group[\s\S]*test_query/.test((await grid.locator('[role="columnheader"]').allInnerTexts()).join(' ')),
    { timeoutMs: ctx.scaled(20_000), intervalMs: 100 },
  );

  await grid.locator('[data-edit="add"]').click();
  await grid.locator('.vdb-row[data-kind="added"]').waitFor({ state: 'visible', timeout: ctx.scaled(20_000) });
  for (const [c, value] of NEW_TEST.entries()) await editCell(ctx, grid, 0, c, value);
  const propose = grid.locator('[data-edit="propose"]:not([disabled])');
  await propose.waitFor({ state: 'visible', timeout: ctx.scaled(20_000) });
  await ctx.screenshot('test-added-in-grid');

  await propose.click();
  // bulk-orders is the branch of an open pull: the test goes to a new branch and pull instead.
  await ctx.quickPick('New branch and pull request');
  await ctx.inputBox(NEW_BRANCH);
  await ctx.inputBox('Test: no huge orders');
  // The description Propose Changes… writes has several lines: it opens in an editor, used as written.
  await typeInTextEditor(ctx, /^Pull request description \d+/);
  await ctx.quickPick(BRANCH);
  // The pull's view: its Checks run the new test at the head (it is not at the merge base).
  const view = await frameWith(ctx, '#pull-checks .checks[data-state="done"] tr.check[data-test="no huge orders"]', {
    timeout: ctx.scaled(120_000),
  });
  await view
    .locator('h1', { hasText: 'Test: no huge orders' })
    .first()
    .waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  const judged = (await judgedTests(ctx, DB, NEW_BRANCH)).get(NEW_TEST[0]);
  assert.ok(judged, 'the new test is in dolt_tests at the new branch');
  const cells = await view.locator('#pull-checks tr.check[data-test="no huge orders"] td').allInnerTexts();
  assert.equal(cells[1], 'not at the merge base');
  assert.equal(cells[2].startsWith('PASS'), judged.pass, `at the head: ${cells[2]}`);
  await ctx.screenshot('test-pull-checks');

  // Read back plainly: the pull into the branch, made at the commit the grid read, adds exactly the test.
  const pulls = (await ctx.hub.api(`/databases/${DB}/pulls`)).body.data;
  const mine = [];
  for (const p of pulls) {
    const pull = (await ctx.hub.api(`/databases/${DB}/pulls/${p.pull_number}`)).body.data;
    if (pull.from_branch.branch_name === NEW_BRANCH) mine.push(pull);
  }
  assert.equal(mine.length, 1);
  assert.equal(mine[0].to_branch.branch_name, BRANCH);
  const all =
    'SELECT test_name, test_group, test_query, assertion_type, assertion_comparator, assertion_value FROM dolt_tests ORDER BY test_name';
  const before = await plainRows(ctx, DB, head, all);
  const after = await plainRows(ctx, DB, NEW_BRANCH, all);
  const key = (r) => r.test_name;
  assert.deepEqual(
    after.filter((r) => key(r) !== NEW_TEST[0]),
    before,
    'the other tests are as they were',
  );
  assert.deepEqual(Object.values(after.find((r) => key(r) === NEW_TEST[0])), NEW_TEST);
}
