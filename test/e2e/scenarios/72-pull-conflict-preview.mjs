import assert from 'node:assert/strict';
import { answerHostPick } from './pullHelpers.mjs';
import { frameWith, plainMergeBase, plainRows } from './changesHelpers.mjs';

export const name = "the conflicting pull #5 previews its conflict before merging: the table and the row's base, ours and theirs";
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };

const norm = (v) => (v === null || v === undefined ? 'NULL' : /^-?\d+(\.\d+)?$/.test(v) ? String(Number(v)) : v);

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const pull = (await ctx.hub.api('/databases/alice/prices/pulls/5')).body.data;
  assert.equal(pull.state, 'open');
  const [ours, theirs] = [pull.to_branch.branch_name, pull.from_branch.branch_name];
  // Expected, by plain reads of suppliers at the merge base and both heads: the rows both sides changed differently.
  const base = await plainMergeBase(ctx, 'alice/prices', ours, theirs);
  const read = async (ref) => new Map((await plainRows(ctx, 'alice/prices', ref, 'SELECT * FROM suppliers')).map((r) => [String(r.id), r]));
  const [b, o, t] = [await read(base), await read(ours), await read(theirs)];
  const same = (x, y) =>
    JSON.stringify(Object.entries(x ?? {}).map(([k, v]) => [k, norm(v)])) ===
    JSON.stringify(Object.entries(y ?? {}).map(([k, v]) => [k, norm(v)]));
  const conflicting = [...new Set([...b.keys(), ...o.keys(), ...t.keys()])].filter(
    (k) => !same(b.get(k), o.get(k)) && !same(b.get(k), t.get(k)) && !same(o.get(k), t.get(k)),
  );
  assert.equal(conflicting.length, 1, 'the seed makes one conflicting row');
  const key = conflicting[0];

  await ctx.runCommand('Versioned DB: Show Pull Request');
  await answerHostPick(ctx);
  await ctx.quickPick('alice/prices');
  await ctx.quickPick(/^#5 /);
  const view = await frameWith(ctx, '#merge-preview .merge-preview[data-state="conflicts"]', { timeout: ctx.scaled(60_000) });
  const section = view.locator('#merge-preview');
  assert.match(await section.locator('.verdict').innerText(), /It will conflict in suppliers \(1 row\)/);
  const table = section.locator('.conflict-table[data-table="suppliers"]');
  const headers = await table.locator('thead th').allInnerTexts();
  assert.equal(headers[0], 'side');
  const columns = headers.slice(1);
  const sideCells = async (cls) => (await table.locator(`tbody.conflict-row tr.${cls} td`).allInnerTexts()).map((s) => s.trim());
  const expect = (row) => columns.map((c) => norm(row?.[c]));
  assert.deepEqual((await sideCells('base')).map(norm), expect(b.get(key)), 'base');
  assert.deepEqual((await sideCells('ours')).map(norm), expect(o.get(key)), 'ours');
  assert.deepEqual((await sideCells('theirs')).map(norm), expect(t.get(key)), 'theirs');
  // The cells where ours and theirs disagree are marked, on both rows.
  const differing = columns.filter((c) => norm(o.get(key)[c]) !== norm(t.get(key)[c]));
  assert.ok(differing.length > 0);
  assert.equal(await table.locator('tbody.conflict-row td.differs').count(), differing.length * 2);
  await ctx.screenshot('conflict-preview');

  // Merge asks first, and the confirmation says it will conflict; declining leaves the pull open.
  await view.locator('button[data-action="merge"]').click();
  const dialog = ctx.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  await dialog
    .locator('.dialog-message-detail', { hasText: /It will conflict in suppliers \(1 row\)/ })
    .waitFor({ timeout: ctx.scaled(10_000) });
  await ctx.screenshot('confirmation');
  await dialog
    .locator('.dialog-buttons .monaco-button', { hasText: /^\s*Cancel\s*$/ })
    .first()
    .click();
  await dialog.waitFor({ state: 'hidden', timeout: ctx.scaled(20_000) });
  assert.equal((await ctx.hub.api('/databases/alice/prices/pulls/5')).body.data.state, 'open');
}
