import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPEN, CLOSE, unwrappedWords } from '../lib/pseudoL10n.mjs';
import { pullView } from './pullHelpers.mjs';

export const name =
  'under the pseudo-locale every word the extension writes in the tree, a notebook result, the table browser and a pull view is wrapped';
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };
/** Runs only in `E2E_PSEUDO_L10N=1 npm run test:e2e` (lib/pseudoL10n.mjs), and then only scenarios like it. */
export const pseudoL10n = true;
export const timeout = 300_000;

const w = (s) => `${OPEN}${s}${CLOSE}`;
const QUERY = 'SELECT id, name, price FROM products';

/**
 * The words the hub holds, which are data and never translated: read from the hub itself (names
 * of the owner, database, branches, tags, releases, pulls, tables, columns, and the values shown).
 */
async function dataWords(ctx) {
  const get = async (path) => (await ctx.hub.api(path)).body.data;
  const sql = async (q) => get(`/databases/alice/prices/sql?ref=main&q=${encodeURIComponent(q)}`);
  const [db, branches, tags, releases, pulls, tables, products] = await Promise.all([
    get('/databases/alice/prices'),
    get('/databases/alice/prices/branches'),
    get('/databases/alice/prices/tags'),
    get('/databases/alice/prices/releases'),
    get('/databases/alice/prices/pulls'),
    sql('SHOW TABLES'),
    sql('SELECT * FROM products'),
  ]);
  const texts = [
    'alice',
    'prices',
    'Test Hub',
    db.description ?? '',
    ...branches.map((b) => b.name),
    ...tags.flatMap((t) => [t.name, t.message ?? '']),
    ...releases.flatMap((r) => [r.tag, r.title ?? '', r.body ?? '']),
    ...pulls.flatMap((p) => [p.title, p.description ?? '', p.creator, p.from_branch?.branch_name ?? '', p.to_branch?.branch_name ?? '']),
    ...tables.rows.map((r) => String(r[0])),
    ...products.columns.map((c) => c.name),
    ...products.rows.flat().map(String),
  ];
  // What the pull view shows of the open pulls: their comments, and the commits, tests and diffs at both ends.
  for (const listed of pulls.filter((x) => x.state === 'open')) {
    // The list's items are summaries: the branches are on the pull itself.
    const p = await get(`/databases/alice/prices/pulls/${listed.pull_number}`);
    texts.push(...(await get(`/databases/alice/prices/pulls/${p.pull_number}/comments`)).flatMap((c) => [c.author ?? '', c.body ?? '']));
    for (const ref of [p.from_branch?.branch_name, p.to_branch?.branch_name].filter(Boolean)) {
      const at = async (q) => {
        const r = await ctx.hub.api(`/databases/alice/prices/sql?ref=${encodeURIComponent(ref)}&q=${encodeURIComponent(q)}`);
        if (r.status !== 200 || r.body.data.status !== 'success') throw new Error(`${q} at ${ref}: ${JSON.stringify(r.body)}`);
        return r.body.data;
      };
      // Every table at both ends (the conflict table shows their rows), the log and the tests.
      const names = (await at('SHOW TABLES')).rows.map((r) => String(r[0]));
      for (const q of [
        'SELECT * FROM dolt_log',
        'SELECT * FROM dolt_tests',
        ...names.map((t) => `SELECT * FROM \`${t.replace(/`/g, '``')}\``),
      ]) {
        const r = await at(q);
        texts.push(...r.columns.map((c) => c.name), ...r.rows.flat().map((v) => String(v ?? '')));
      }
    }
  }
  return texts.flatMap((t) => t.split(/[^\p{L}'_-]+/u)).filter(Boolean);
}

/** No word outside ⟦ ⟧ but data. */
function assertWrapped(where, text, data) {
  // Commit hashes (hex, or Dolt's base-32 short form) are data: a run of hash letters with a digit in it.
  const bare = text.replace(/\b(?=[0-9a-v]*\d)[0-9a-v]{7,40}\b/g, ' ');
  assert.deepEqual(unwrappedWords(bare, data), [], `${where}: words outside ${OPEN}${CLOSE}:\n${text}`);
}

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const { page } = ctx;
  const data = await dataWords(ctx);

  // The tree: categories, a branch's Tables and Commits, the pulls.
  await ctx.expand('alice/prices');
  await ctx.expand(w('Branches'));
  await ctx.expand('main');
  await ctx.expand(w('Tables'));
  await ctx.treeItem('products');
  await ctx.expand(w('Pull Requests'));
  await ctx.screenshot('tree');
  const labels = await page.locator('.part.sidebar .monaco-list-row .label-name').allInnerTexts();
  assertWrapped('tree labels', labels.join('\n'), data);

  // A notebook result.
  writeFileSync(join(ctx.workspaceDir, 'pseudo.vdbnb'), JSON.stringify({ version: 1, cells: [{ kind: 'sql', source: QUERY }] }, null, 2));
  await ctx.openFile('pseudo.vdbnb');
  const pickItem = page.locator('.cell-statusbar-container .cell-status-item', { hasText: 'Pick where this cell runs' }).first();
  await pickItem.waitFor({ state: 'visible' });
  assert.match(await pickItem.innerText(), /⟦/, 'the cell status bar item is wrapped');
  await pickItem.click();
  await ctx.quickPick('main');
  await ctx.runCommand('Notebook: Run All');
  const output = page
    .frameLocator('.notebookOverlay iframe.webview.ready, .notebook-editor iframe.webview.ready')
    .first()
    .frameLocator('iframe#active-frame');
  const result = output.locator('.vdb-result').first();
  await result.waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  // The renderer draws again once the host's bundle came: wait for the wrapped summary.
  await result.locator('.vdb-summary', { hasText: OPEN }).waitFor({ timeout: ctx.scaled(30_000) });
  await ctx.screenshot('notebook-result');
  assertWrapped('notebook result', await result.innerText(), data);

  // The table browser, from the table's inline action.
  const row = await ctx.treeItem('products');
  await row.hover();
  await row.locator('.action-label[aria-label="Open Table"]').click();
  await page
    .locator('.part.editor .tab.active', { hasText: 'products' })
    .first()
    .waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  const browser = page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame').locator('.vdb-result').first();
  await browser.locator('.vdb-summary', { hasText: OPEN }).waitFor({ timeout: ctx.scaled(60_000) });
  await ctx.screenshot('table-browser');
  assertWrapped('table browser', await browser.innerText(), data);

  // A pull view, from the pull's row in the tree.
  const pulls = (await ctx.hub.api('/databases/alice/prices/pulls')).body.data.filter((p) => p.state === 'open');
  assert.ok(pulls.length > 0, 'the seed has an open pull request');
  await (await ctx.treeItem(`#${pulls[0].pull_number} ${pulls[0].title}`)).click();
  const view = pullView(ctx);
  await view.locator('.pull-title', { hasText: pulls[0].title }).waitFor({ timeout: ctx.scaled(30_000) });
  // The sections that load after the page (commits, changes, checks) have said what they found.
  await view
    .locator('section.checks[data-state="done"], section.checks[data-state="failed"]')
    .first()
    .waitFor({ timeout: ctx.scaled(60_000) });
  await ctx.screenshot('pull-view');
  assertWrapped('pull view', await view.locator('body').innerText(), data);
}
