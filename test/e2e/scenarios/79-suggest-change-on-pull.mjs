import assert from 'node:assert/strict';
import { browserGrid, cellOf } from './tableHelpers.mjs';
import { answerHostPick } from './pullHelpers.mjs';
import { frameWith } from './changesHelpers.mjs';

export const name =
  'a suggested change on the open pull "Add the 2025 prices": from its Changes view the table is edited at the pull\'s branch and committed onto it, and the pull says so';
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };
export const timeout = 300_000;

const BRANCH = 'prices-2025';
const TABLE = 'prices_2025';

async function sqlAt(ctx, ref, q) {
  const r = await ctx.hub.api(`/databases/alice/prices/sql?ref=${encodeURIComponent(ref)}&q=${encodeURIComponent(q)}`);
  assert.equal(r.body.data.status, 'success', r.body.data.message);
  return r.body.data.rows;
}

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const { page } = ctx;
  const pulls = (await ctx.hub.api('/databases/alice/prices/pulls')).body.data.filter((p) => p.state === 'open');
  let pull;
  for (const p of pulls) {
    const full = (await ctx.hub.api(`/databases/alice/prices/pulls/${p.pull_number}`)).body.data;
    if (full.from_branch.branch_name === BRANCH) pull = full;
  }
  assert.ok(pull, `the seed has an open pull from ${BRANCH}`);
  const before = await sqlAt(ctx, BRANCH, `SELECT product_id, price FROM ${TABLE} ORDER BY product_id`);
  const comments = (await ctx.hub.api(`/databases/alice/prices/pulls/${pull.pull_number}/comments`)).body.data.length;

  // The pull's Changes view: its table's diff, then "Edit at <branch>…" opens the table there.
  await ctx.runCommand('Versioned DB: Show Pull Request');
  await answerHostPick(ctx);
  await ctx.quickPick('alice/prices');
  await ctx.quickPick(`#${pull.pull_number} ${pull.title}`);
  const view = await frameWith(ctx, `#pull-changes button[data-changes-table="${TABLE}"]`, { timeout: ctx.scaled(60_000) });
  await view.locator(`#pull-changes button[data-changes-table="${TABLE}"]`).click();
  const changes = await frameWith(ctx, `.chg-list button[data-table="${TABLE}"][aria-current="true"]`, { timeout: ctx.scaled(60_000) });
  await changes.locator('button[data-action="editAtHead"]', { hasText: `Edit at ${BRANCH}` }).click();
  await page
    .locator('.part.editor .tab.active', { hasText: `${TABLE} @ ${BRANCH}` })
    .first()
    .waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  const grid = browserGrid(ctx);
  await cellOf(grid, 0, 1).waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  assert.equal(await cellOf(grid, 0, 1).innerText(), before[0][1]);

  // The apple's 2025 price, typed into its cell.
  await cellOf(grid, 0, 1).dblclick();
  const input = grid.locator('.vdb-editor .vdb-editor-input');
  await input.waitFor({ state: 'visible', timeout: ctx.scaled(10_000) });
  await input.fill('0.61');
  await input.press('Enter');
  await grid
    .locator('.vdb-cell.changed[data-r="0"][data-c="1"]', { hasText: '0.61' })
    .waitFor({ state: 'visible', timeout: ctx.scaled(20_000) });

  // Propose: the branch is the pull's, so the edit may go onto it as a suggestion.
  await grid.locator('[data-edit="propose"]:not([disabled])').click();
  await ctx.quickPick(`Commit onto ${BRANCH}`);
  await ctx.inputBox('Round the 2025 apple price');
  const title = new RegExp(pull.title);
  await page
    .locator('.part.editor .tab', { hasText: title })
    .first()
    .waitFor({ state: 'visible', timeout: ctx.scaled(120_000) });
  // The pull's view (open since the start, so not the newest webview) shows the note.
  await frameWith(ctx, `.comment:has-text("Committed suggested changes to ${TABLE}")`, { timeout: ctx.scaled(30_000) });
  await ctx.screenshot('suggestion-committed');

  // On the pull's branch: the one cell, in a commit of its own with the message typed; the pull notes it.
  const after = await sqlAt(ctx, BRANCH, `SELECT product_id, price FROM ${TABLE} ORDER BY product_id`);
  assert.deepEqual(after, [[before[0][0], '0.61'], ...before.slice(1)]);
  assert.deepEqual(await sqlAt(ctx, BRANCH, 'SELECT message FROM dolt_log LIMIT 1'), [['Round the 2025 apple price']]);
  const now = (await ctx.hub.api(`/databases/alice/prices/pulls/${pull.pull_number}/comments`)).body.data;
  assert.equal(now.length, comments + 1);
  assert.match(now.at(-1).body, /Committed suggested changes to `prices_2025`: 1 row changed/);
  assert.equal((await sqlAt(ctx, 'main', `SHOW TABLES`)).flat().includes(TABLE), false, 'main is untouched: the pull is not merged');
}
