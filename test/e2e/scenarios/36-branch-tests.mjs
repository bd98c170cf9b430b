import assert from 'node:assert/strict';
import { plainRows } from './changesHelpers.mjs';
import { judgedTests } from './testsHelpers.mjs';

export const name =
  "a branch's Tests: Run Tests shows PASS and FAIL with the message as plain reads judge them, and a failing test opens its query in a notebook at that commit";
export const given = { signedIn: 'alice', databases: ['alice/orders'] };

const DB = 'alice/orders';
const BRANCH = 'bulk-orders';

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
  await testsRow.click({ button: 'right' });
  await ctx.page
    .locator('.monaco-menu .action-item .action-label', { hasText: /^Run Tests$/ })
    .first()
    .click();
  await ctx.waitForNotification(`Tests at ${BRANCH}: ${passing.length} passed, ${failing.length} failed.`, { timeout: ctx.scaled(60_000) });
  for (const [name, t] of expected) {
    const row = await ctx.treeItem(name);
    const text = await description(row);
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
}
