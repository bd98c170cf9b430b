import assert from 'node:assert/strict';
import { expectAccessible } from './a11yHelpers.mjs';
import { plainRows } from './changesHelpers.mjs';
import { cellOf, headerNames, openFromTree } from './tableHelpers.mjs';

export const name =
  "Show History of a table lists the commits that changed it; Show Row History from the table browser's grid shows each version of the row and who last changed the cell";
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };
export const timeout = 300_000;

const norm = (v) => (v === null || v === undefined ? 'NULL' : /^-?\d+(\.\d+)?$/.test(v) ? String(Number(v)) : v);
const rowText = (r) => (r ? JSON.stringify(Object.entries(r).map(([k, v]) => [k, norm(v)])) : '');

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const { page } = ctx;
  // Expected, by plain reads: main's log; suppliers at each commit and at its first parent.
  const log = await plainRows(ctx, 'alice/prices', 'main', 'SELECT commit_hash, committer, message, date FROM dolt_log');
  const parents = new Map(
    (await plainRows(ctx, 'alice/prices', 'main', 'SELECT commit_hash, parent_hash FROM dolt_commit_ancestors WHERE parent_index = 0')).map(
      (r) => [r.commit_hash, r.parent_hash],
    ),
  );
  const suppliersAt = async (ref) => {
    const r = await ctx.hub.api(`/databases/alice/prices/sql?ref=${ref}&q=${encodeURIComponent('SELECT * FROM suppliers ORDER BY id')}`);
    return r.body.data.status === 'success'
      ? r.body.data.rows.map((row) => Object.fromEntries(r.body.data.columns.map((c, i) => [c.name, row[i]])))
      : undefined;
  };
  const at = new Map();
  for (const c of log) at.set(c.commit_hash, await suppliersAt(c.commit_hash));
  const changedSuppliers = [];
  for (const c of log) {
    const p = parents.get(c.commit_hash);
    const before = p ? (at.get(p) ?? (await suppliersAt(p))) : undefined;
    if (JSON.stringify((at.get(c.commit_hash) ?? []).map(rowText)) !== JSON.stringify((before ?? []).map(rowText)))
      changedSuppliers.push(c);
  }
  assert.ok(changedSuppliers.length >= 3, 'the seed changes suppliers several times');

  // ---- Show History on the table node: the commits that changed suppliers.
  await ctx.expand('alice/prices');
  await ctx.expand('Branches');
  await ctx.expand('main');
  await ctx.expand('Tables');
  const tableRow = await ctx.treeItem('suppliers');
  await ctx.contextMenu(tableRow, 'Show History');
  const list = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  await list.first().waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  const shown = await list.evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? r.textContent ?? ''));
  await ctx.screenshot('table-history');
  assert.equal(shown.length, changedSuppliers.length, `the commits that changed suppliers: ${shown.join(' | ')}`);
  for (const c of changedSuppliers)
    assert.ok(
      shown.some((s) => s.includes(c.commit_hash.slice(0, 8))),
      `${c.commit_hash.slice(0, 8)} listed`,
    );
  const first = changedSuppliers[0];
  await ctx.quickPick(new RegExp(first.message.split('\n')[0].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  // What to do with it: Show Changes is offered (the Changes view is installed), then Copy Commit Hash.
  await page
    .locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'Show Changes' })
    .first()
    .waitFor({ timeout: ctx.scaled(10_000) });
  await ctx.quickPick(/Copy Commit Hash/);
  await ctx.waitForNotification(`Copied commit ${first.commit_hash.slice(0, 8)}.`);

  // ---- Show Row History from the table browser: right-click the rating cell of supplier 1.
  // Expected versions: row 1 at each commit of main in log order, newest first, runs of equal rows collapsed.
  // In the ref's log order (the commit graph, newest first), never by date: commits can share a second.
  const runs = [];
  for (const c of log) {
    const row = (at.get(c.commit_hash) ?? []).find((r) => String(r.id) === '1');
    if (!row) continue;
    const last = runs[runs.length - 1];
    if (last && rowText(last.row) === rowText(row)) last.commit = c;
    else runs.push({ commit: c, row });
  }
  assert.ok(runs.length >= 2);
  const ratingChange = runs.findIndex((r, i) => runs[i + 1] && norm(r.row.rating) !== norm(runs[i + 1].row.rating));

  const grid = await openFromTree(ctx, 'suppliers');
  const headers = await headerNames(grid);
  const idCol = headers.indexOf('id');
  const ratingCol = headers.indexOf('rating');
  assert.ok(idCol >= 0 && ratingCol >= 0, headers.join(','));
  let r = 0;
  for (; ; r++) {
    await cellOf(grid, r, idCol).waitFor({ timeout: ctx.scaled(30_000) });
    if ((await cellOf(grid, r, idCol).innerText()) === '1') break;
  }
  await cellOf(grid, r, ratingCol).click({ button: 'right' });
  const item = grid.locator('.vdb-menu [role="menuitem"]', { hasText: 'Show Row History' });
  await item.waitFor({ timeout: ctx.scaled(10_000) });
  await ctx.screenshot('row-menu');
  await item.click();

  await page
    .locator('.part.editor .tab.active', { hasText: /History of suppliers \(id = 1\)/ })
    .first()
    .waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  const history = page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame').locator('.vdb-result').first();
  await history.waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  await cellOf(history, 0, 0).waitFor({ timeout: ctx.scaled(30_000) });
  await ctx.screenshot('row-history');
  const hHeaders = await headerNames(history);
  assert.deepEqual(hHeaders.slice(0, 3), ['commit', 'author', 'date']);
  const versions = await history.locator('.vdb-row:not([hidden])').count();
  assert.equal(versions, runs.length, 'one grid row per version');
  for (let i = 0; i < runs.length; i++) {
    assert.equal(await cellOf(history, i, 0).innerText(), runs[i].commit.commit_hash.slice(0, 8), `version ${i} commit`);
    // A changed cell reads `old → new`: the version's value is the new one.
    const shownRating = (await cellOf(history, i, hHeaders.indexOf('rating')).innerText()).split('→').pop().trim();
    assert.equal(norm(shownRating), norm(runs[i].row.rating), `version ${i} rating`);
  }
  // The rating cell of the version that changed it is drawn as changed.
  assert.match((await cellOf(history, ratingChange, hHeaders.indexOf('rating')).getAttribute('class')) ?? '', /\bchanged\b/);
  // Who last changed the cell, said above the grid.
  const blamed = runs[ratingChange].commit;
  await expectAccessible(ctx, '.vdb-notices:has-text("last changed in")', 'the row history view');
  await history
    .locator('.vdb-notices', { hasText: `rating last changed in ${blamed.commit_hash.slice(0, 8)} by ${blamed.committer}` })
    .waitFor({ timeout: ctx.scaled(10_000) });
}
