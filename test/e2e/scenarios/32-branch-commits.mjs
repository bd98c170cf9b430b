import assert from 'node:assert/strict';
import { frameWith, plainRows } from './changesHelpers.mjs';

export const name =
  "a branch's Commits: the log as a plain dolt_log read shows it, merges marked; Copy Commit Hash, Create Branch Here and Show Changes on a commit";
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };

/** The labels and descriptions of the rows under the "Commits" row, in order, while they are commits. */
async function commitRows(ctx) {
  const rows = ctx.page.locator('.part.sidebar .monaco-list-row');
  const texts = await rows.evaluateAll((els) =>
    els.map((el) => ({
      label: el.querySelector('.label-name')?.textContent ?? '',
      description: el.querySelector('.label-description')?.textContent ?? '',
      mergeIcon: el.querySelector('.codicon-git-merge') !== null,
      ariaLabel: el.getAttribute('aria-label') ?? '',
      level: Number(el.getAttribute('aria-level')),
    })),
  );
  const at = texts.findIndex((t) => t.label === 'Commits');
  assert.ok(at >= 0, 'a Commits row under main');
  const out = [];
  for (const t of texts.slice(at + 1)) {
    if (t.level !== texts[at].level + 1) break;
    out.push(t);
  }
  return out;
}

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  // Expected: the plain log at main, its merge commits (two parents) and main's head by the API.
  const log = await plainRows(ctx, 'alice/prices', 'main', 'SELECT commit_hash, committer, message FROM dolt_log');
  const merges = new Set(
    (await plainRows(ctx, 'alice/prices', 'main', 'SELECT commit_hash FROM dolt_commit_ancestors WHERE parent_index = 1')).map(
      (r) => r.commit_hash,
    ),
  );
  const head = (await ctx.hub.api('/databases/alice/prices/branches')).body.data.find((b) => b.name === 'main').head_commit_sha;
  assert.ok(log.length >= 5 && log.length <= 50, `the seed's main has a page of commits (${log.length})`);
  const subject = (m) => m.split('\n')[0].trim() || '(no message)';

  await ctx.expand('alice/prices');
  await ctx.expand('Branches');
  await ctx.expand('main');
  await ctx.expand('Commits');
  // A commit row reads like `git log --oneline`: the short hash, then age · author · subject.
  await ctx.treeItem(head.slice(0, 8));
  // Collapse the side bar's other sections out of the way is not needed: the rows are read from the DOM,
  // scrolled into view in steps so the virtualized list draws them all.
  const seen = new Map();
  for (let i = 0; i < 20 && seen.size < log.length; i++) {
    for (const r of await commitRows(ctx)) seen.set(r.label, r);
    await ctx.page.locator('.part.sidebar .monaco-list').first().hover();
    await ctx.page.mouse.wheel(0, 300);
  }
  await ctx.screenshot('commits');
  // At the side bar's default width, every commit row's hash, age and author are drawn whole (the
  // subject after them may be cut): the text up to the author ends inside the row. (A merge is
  // marked by its icon, so a word ahead of the age cannot push the author out.)
  const clipped = await ctx.page.locator('.part.sidebar .monaco-list-row').evaluateAll((els) =>
    els
      .map((el) => el.querySelector('.monaco-icon-label-container'))
      .filter((c) => c && /^[0-9a-v]{8}$/.test(c.querySelector('.label-name')?.textContent ?? ''))
      .filter((c) => {
        const box = c.getBoundingClientRect();
        const name = c.querySelector('.label-name');
        const desc = c.querySelector('.label-description');
        const text = desc.firstChild;
        const upTo = (desc.textContent ?? '').split(' · ').slice(0, 2).join(' · ').length;
        const range = document.createRange();
        range.setStart(text, 0);
        range.setEnd(text, Math.min(upTo, text.textContent.length));
        return name.getBoundingClientRect().right > box.right + 1 || range.getBoundingClientRect().right > box.right + 1;
      })
      .map((c) => c.textContent),
  );
  assert.deepEqual(clipped, [], 'no commit row has its hash, age or author cut off');
  assert.equal(seen.size, log.length, 'every commit of the plain log, once');
  for (const c of log) {
    const row = seen.get(c.commit_hash.slice(0, 8));
    assert.ok(row, `commit ${c.commit_hash.slice(0, 8)} shown`);
    assert.ok(row.description.endsWith(` · ${subject(c.message)}`), `${row.description} ends with the subject`);
    assert.ok(row.description.includes(c.committer), `${row.description} names ${c.committer}`);
    const merge = merges.has(c.commit_hash);
    assert.equal(row.mergeIcon, merge, `merge icon of ${row.label}`);
    assert.equal(row.ariaLabel.startsWith(`Merge commit ${row.label}, `), merge, `a screen reader hears "Merge commit" for ${row.label}`);
  }
  assert.ok(merges.size > 0, 'the seed has a merge on main');

  // Copy Commit Hash from the context menu of an older commit.
  await ctx.page.mouse.wheel(0, -5000);
  const older = log.find((c) => c.commit_hash !== head && !merges.has(c.commit_hash));
  const row = await ctx.treeItem(older.commit_hash.slice(0, 8));
  await ctx.contextMenu(row, 'Copy Commit Hash');
  await ctx.waitForNotification(`Copied commit ${older.commit_hash.slice(0, 8)}.`);

  // Create Branch Here… on the same commit: the new branch starts there (the API says so).
  await ctx.contextMenu(row, 'Create Branch Here…');
  await ctx.inputBox('from-history');
  await ctx.waitForNotification(/Created branch from-history at/);
  const made = (await ctx.hub.api('/databases/alice/prices/branches')).body.data.find((b) => b.name === 'from-history');
  assert.ok(made, 'the branch exists on the server');
  assert.equal(made.head_commit_sha, older.commit_hash);
  await ctx.screenshot('branch-created');

  // Show Changes on the same commit: the Changes view lists the tables whose rows differ between
  // the commit and its first parent (expected from plain reads of every table at both).
  const [parent] = await plainRows(
    ctx,
    'alice/prices',
    'main',
    `SELECT parent_hash FROM dolt_commit_ancestors WHERE commit_hash = '${older.commit_hash}' AND parent_index = 0`,
  );
  assert.ok(parent?.parent_hash, 'the older commit has a parent');
  const tablesAt = async (ref) => (await plainRows(ctx, 'alice/prices', ref, 'SHOW TABLES')).map((r) => Object.values(r)[0]);
  const contents = async (ref, t) => JSON.stringify(await plainRows(ctx, 'alice/prices', ref, `SELECT * FROM \`${t}\` ORDER BY 1`));
  const changed = [];
  const before = await tablesAt(parent.parent_hash);
  for (const t of new Set([...before, ...(await tablesAt(older.commit_hash))])) {
    const a = before.includes(t) ? await contents(parent.parent_hash, t) : null;
    const b = (await tablesAt(older.commit_hash)).includes(t) ? await contents(older.commit_hash, t) : null;
    if (a !== b) changed.push(t);
  }
  assert.ok(changed.length > 0, 'the commit changed some table');
  await ctx.contextMenu(row, 'Show Changes');
  const view = await frameWith(ctx, '.chg-list button[data-table]', { timeout: ctx.scaled(60_000) });
  const shown = await view.locator('.chg-list button[data-table]').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-table')));
  assert.deepEqual([...shown].sort(), [...changed].sort(), "the commit's changed tables");
  await ctx.screenshot('commit-changes');
}
