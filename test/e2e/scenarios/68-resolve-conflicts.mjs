import assert from 'node:assert/strict';
import { expectAccessible } from './a11yHelpers.mjs';
import { frameWith, plainMergeBase, plainRows } from './changesHelpers.mjs';

export const name =
  'a pull conflicting in two tables is settled cell by cell (ours for one cell, theirs for another, a typed value for a third), then merged: the data holds exactly the choices';
export const given = { signedIn: 'alice', databases: ['alice/orders'] };
export const timeout = 300_000;

const DB = 'alice/orders';

/** A table at a ref by a plain read: id → row. */
async function tableAt(ctx, table, ref) {
  return new Map((await plainRows(ctx, DB, ref, `SELECT * FROM ${table}`)).map((r) => [String(r.id), r]));
}

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const pulls = (await ctx.hub.api(`/databases/${DB}/pulls`)).body.data;
  const pull = pulls.find((p) => p.title === 'Relocate Ana and fix order 2');
  const branch = 'relocate-ana';
  const base = await plainMergeBase(ctx, DB, 'main', branch);
  // Expected by plain reads: the three cells all sides disagree on, and every other change.
  const v = {};
  for (const t of ['customers', 'orders'])
    v[t] = { base: await tableAt(ctx, t, base), ours: await tableAt(ctx, t, 'main'), theirs: await tableAt(ctx, t, branch) };
  const conflicting = (t, id, col) => {
    const [b, o, th] = [v[t].base.get(id)[col], v[t].ours.get(id)[col], v[t].theirs.get(id)[col]];
    return b !== o && b !== th && o !== th;
  };
  assert.ok(conflicting('customers', '1', 'city') && conflicting('customers', '1', 'email') && conflicting('orders', '2', 'quantity'));
  const chosen = {
    'customers 1 city': v.customers.ours.get('1').city,
    'customers 1 email': v.customers.theirs.get('1').email,
    'orders 2 quantity': '8',
  };

  await ctx.expand(DB);
  await ctx.expand('Pull Requests');
  const row = await ctx.treeItem(`#${pull.pull_number} ${pull.title}`);
  await ctx.contextMenu(row, 'Resolve Conflicts…');
  const view = await frameWith(ctx, '.apply .plan', { timeout: ctx.scaled(60_000) });
  await expectAccessible(ctx, '.apply .plan', 'the Resolve view');
  const cell = (t, col) => `[data-table="${t}"][data-column="${col}"]`;
  // Base, ours and theirs are shown per conflicting cell.
  const cityRow = view.locator(`tr.cell${cell('customers', 'city')}`);
  assert.match(
    await cityRow.innerText(),
    new RegExp(`${v.customers.base.get('1').city}[\\s\\S]*${v.customers.ours.get('1').city}[\\s\\S]*${v.customers.theirs.get('1').city}`),
  );
  await view.locator(`button[data-pick="ours"]${cell('customers', 'city')}`).click();
  await view.locator(`button.chosen[data-pick="ours"]${cell('customers', 'city')}`).waitFor();
  await view.locator(`button[data-pick="theirs"]${cell('customers', 'email')}`).click();
  await view.locator(`button.chosen[data-pick="theirs"]${cell('customers', 'email')}`).waitFor();
  // A typed value is checked as the grid checks it: not a number for an int column.
  const typed = () => view.locator(`input.typed${cell('orders', 'quantity')}`);
  await typed().fill('eight');
  await typed().press('Enter');
  await view.locator('.problem', { hasText: /quantity/ }).waitFor();
  assert.equal(await view.locator('button[data-action="apply"]').isDisabled(), true, 'no Apply with a bad value');
  await typed().fill('8');
  await typed().press('Enter');
  await view.locator(`input.typed.chosen${cell('orders', 'quantity')}`).waitFor();
  assert.equal(await view.locator('.problem').count(), 0);
  // Said before it happens: a new pull rebuilt on main's head.
  assert.match(await view.locator('.plan').innerText(), /new pull request is opened/);
  await ctx.readmeScreenshot('resolve-conflicts');

  await view.locator('button[data-action="apply"]').click();
  await view.locator('.outcome.ok', { hasText: /No conflicts/ }).waitFor({ timeout: ctx.scaled(120_000) });
  await ctx.screenshot('applied');
  const settled = (await ctx.hub.api(`/databases/${DB}/pulls`)).body.data.find((p) => p.title === `${pull.title} (conflicts settled)`);
  assert.ok(settled, 'a new pull holds the settled changes');
  const comments = (await ctx.hub.api(`/databases/${DB}/pulls/${pull.pull_number}/comments`)).body.data;
  assert.ok(
    comments.some((c) => c.body.includes(`#${settled.pull_number}`)),
    'the old pull links the new one',
  );

  // Merge the new pull from its view, which Apply opened.
  const pullView = await frameWith(ctx, '#merge-preview .merge-preview[data-state="clean"]', { timeout: ctx.scaled(90_000) });
  await pullView.locator('button[data-action="merge"]').click();
  const dialog = ctx.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: ctx.scaled(90_000) });
  await dialog
    .locator('.dialog-buttons .monaco-button', { hasText: /^\s*Merge\s*$/ })
    .first()
    .click();
  await ctx.waitForNotification(new RegExp(`Pull request #${settled.pull_number} is merged`), { timeout: ctx.scaled(90_000) });

  // The data at main: the choices in the three cells, every other change of both sides kept.
  const after = { customers: await tableAt(ctx, 'customers', 'main'), orders: await tableAt(ctx, 'orders', 'main') };
  for (const [k, want] of Object.entries(chosen)) {
    const [t, id, col] = k.split(' ');
    assert.equal(after[t].get(id)[col], want, k);
  }
  for (const t of ['customers', 'orders']) {
    for (const [id, o] of v[t].ours) {
      for (const col of Object.keys(o)) {
        if (chosen[`${t} ${id} ${col}`] !== undefined) continue;
        const th = v[t].theirs.get(id);
        const want = th && th[col] !== v[t].base.get(id)?.[col] ? th[col] : o[col];
        assert.equal(after[t].get(id)[col], want, `${t} ${id} ${col}`);
      }
    }
    for (const [id, th] of v[t].theirs) if (!v[t].base.has(id)) assert.deepEqual(after[t].get(id), th, `${t} ${id} added by the pull`);
  }
}
