import assert from 'node:assert/strict';
import { answerHostPick, typeInTextEditor } from './pullHelpers.mjs';
import { frameWith, plainMergeBase, plainRows } from './changesHelpers.mjs';
import { headerNames, importTable } from './tableHelpers.mjs';
import { waitFor } from '../../helpers/waitFor.cjs';

export const name =
  "comments on a pull's rows and cells: posted from the Changes grid, readable through the API, threads in the pull view marked outdated after a push, a reply, Changes Since Last Review, a cell's thread and a reply beside the grid, the pull's tree item counting new commits, and a suggested value over two lines (typed in an editor) applied onto the branch";
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };
export const timeout = 300_000;

const norm = (v) => (v === null || v === undefined ? null : /^-?\d+(\.\d+)?$/.test(v) ? String(Number(v)) : v);
const byId = (rows) => new Map(rows.map((r) => [String(r.id), r]));

/** The anchor of a comment body, decoded here from its first line (the format of src/core/review/commentAnchor.ts). */
function anchorOf(body) {
  const m = /^\[vdb-anchor\]: https:\/\/anchor\.invalid\/v1\/([A-Za-z0-9_-]+)\n/.exec(body);
  return m ? JSON.parse(Buffer.from(m[1], 'base64url').toString('utf8')) : undefined;
}

async function openPull(ctx) {
  await ctx.runCommand('Versioned DB: Show Pull Request');
  await answerHostPick(ctx);
  await ctx.quickPick('alice/prices');
  await ctx.quickPick('#4 Update suppliers and the catalogue');
  return frameWith(ctx, '#pull-commits li.pull-commit', { timeout: ctx.scaled(60_000) });
}

/** The description VS Code shows beside a tree row. */
const description = async (row) => (await row.locator('.label-description').first().textContent()) ?? '';

/** The tree row of pull #4 once its description matches `pattern` (the tree re-renders when its read answers). */
async function pullItemSays(ctx, pattern) {
  return waitFor(
    `pull #4's tree item to match ${pattern}`,
    async () => {
      const row = await ctx.treeItem(/^#4 /);
      const text = await description(row);
      return pattern.test(text) ? text : undefined;
    },
    { timeoutMs: ctx.scaled(60_000), intervalMs: 250 },
  );
}

/**
 * Right-clicks a cell of the diff grid and picks the menu item, then types the comment: in the box,
 * or when it has several lines, in the editor the box's "several lines" button opens.
 */
async function commentVia(ctx, grid, r, c, item, text) {
  await grid.locator(`.vdb-cell[data-r="${r}"][data-c="${c}"]:not(.placeholder)`).first().click({ button: 'right' });
  const entry = grid.locator('.vdb-menu [role="menuitem"]', { hasText: item });
  await entry.waitFor({ timeout: ctx.scaled(10_000) });
  await entry.click();
  if (!text.includes('\n')) return ctx.inputBox(text);
  const button = ctx.quickInput.locator('.action-label[aria-label^="Write over several lines in an editor"]');
  await button.waitFor({ timeout: ctx.scaled(10_000) });
  await button.click();
  await typeInTextEditor(ctx, /^Comment \d+/, text.split('\n'), 'comment-in-an-editor');
}

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const pull = (await ctx.hub.api('/databases/alice/prices/pulls/4')).body.data;
  const from = pull.from_branch.branch_name;
  const base = await plainMergeBase(ctx, 'alice/prices', 'main', from);
  const [before, after] = [
    byId(await plainRows(ctx, 'alice/prices', base, 'SELECT * FROM suppliers')),
    byId(await plainRows(ctx, 'alice/prices', from, 'SELECT * FROM suppliers')),
  ];
  const modifiedId = [...after.keys()].find((k) => before.has(k) && JSON.stringify(before.get(k)) !== JSON.stringify(after.get(k)));
  const addedId = [...after.keys()].find((k) => !before.has(k));
  assert.ok(modifiedId && addedId, 'the seeded pull modifies and adds suppliers');
  const head = (await plainRows(ctx, 'alice/prices', from, 'SELECT commit_hash FROM dolt_log LIMIT 1'))[0].commit_hash;

  let view = await openPull(ctx);
  await view.locator('#pull-commits button[data-review="mark"]').click();
  await view.locator('#pull-commits [data-review-state="current"]').waitFor({ timeout: ctx.scaled(20_000) });

  // The suppliers diff: comment on the modified row's first changed cell and on the added row.
  await view.locator('#pull-changes button[data-changes-table="suppliers"]').click();
  const changes = await frameWith(ctx, '.chg-list button[data-table="suppliers"][aria-current="true"]', { timeout: ctx.scaled(60_000) });
  const grid = changes.locator('.vdb-result').first();
  await grid
    .locator('.vdb-row[data-kind]')
    .first()
    .waitFor({ timeout: ctx.scaled(60_000) });
  const headers = await headerNames(grid);
  const idCol = headers.indexOf('id');
  const column = Object.keys(after.get(modifiedId)).find((c) => norm(before.get(modifiedId)[c]) !== norm(after.get(modifiedId)[c]));
  const colIndex = headers.indexOf(column);
  const rowOf = async (id) => {
    for (let r = 0; r < 200; r++) {
      const cell = grid.locator(`.vdb-cell[data-r="${r}"][data-c="${idCol}"]:not(.placeholder)`).first();
      await cell.waitFor({ timeout: ctx.scaled(30_000) });
      if ((await cell.innerText()).trim() === id) return r;
    }
    throw new Error(`no row ${id} in the diff`);
  };
  await commentVia(ctx, grid, await rowOf(modifiedId), colIndex, 'Comment on Cell…', `Why is ${column} changed?`);
  await grid
    .locator(`.vdb-cell.commented[data-comments="1"][data-c="${colIndex}"][data-r="${await rowOf(modifiedId)}"]`)
    .waitFor({ timeout: ctx.scaled(60_000) });
  // Over several lines: written in the editor the comment box offers.
  const rowComment = 'Is this supplier real?\n\nI found no VAT number.';
  await commentVia(ctx, grid, await rowOf(addedId), idCol, 'Comment on Row…', rowComment);
  // Both marked in the grid with their count: the cell, and the added row at its key.
  await grid
    .locator(`.vdb-cell.commented[data-comments="1"][data-c="${idCol}"][data-r="${await rowOf(addedId)}"]`)
    .waitFor({ timeout: ctx.scaled(60_000) });
  const places = await grid.locator('.vdb-cell.commented').evaluateAll((cs) => cs.map((c) => `${c.dataset.r},${c.dataset.c}`));
  assert.equal(new Set(places).size, 2, `exactly the two commented places: ${places.join(' ')}`);
  await ctx.screenshot('commented-in-grid');

  // Through the API: ordinary comments, readable on the web, carrying the exact anchors.
  const listed = async () => (await ctx.hub.api('/databases/alice/prices/pulls/4/comments')).body.data;
  const anchored = (await listed()).filter((c) => anchorOf(c.body));
  assert.deepEqual(
    anchored.map((c) => anchorOf(c.body)),
    [
      { table: 'suppliers', key: { id: modifiedId }, column, commit: head },
      { table: 'suppliers', key: { id: addedId }, commit: head },
    ],
  );
  assert.match(anchored[0].body.split('\n')[1], new RegExp(`^\\*\\*suppliers\\*\\* · id \\\\= ${modifiedId} · column ${column}`));
  assert.ok(anchored[0].body.endsWith(`Why is ${column} changed?`));
  assert.ok(anchored[1].body.endsWith(`\n\n${rowComment}`), 'the comment keeps its lines');

  // Show Comments on the commented cell: its thread in the pane beside the grid, as text.
  await grid
    .locator(`.vdb-cell[data-r="${await rowOf(modifiedId)}"][data-c="${colIndex}"]:not(.placeholder)`)
    .first()
    .click({ button: 'right' });
  const showItem = grid.locator('.vdb-menu [role="menuitem"]', { hasText: 'Show Comments (1)' });
  await showItem.waitFor({ timeout: ctx.scaled(10_000) });
  await showItem.click();
  const pane = changes.locator('aside.chg-thread:not([hidden])');
  await pane.locator('.t-comment .t-text', { hasText: `Why is ${column} changed?` }).waitFor({ timeout: ctx.scaled(30_000) });
  assert.equal(await pane.locator('.t-comment').count(), 1, "only that cell's comment");
  assert.match(await pane.locator('h2').innerText(), new RegExp(`suppliers, id = ${modifiedId}, ${column}`));
  // A reply from the pane: anchored at the head the grid shows, naming the thread.
  await pane.locator(`button[data-thread-reply="${anchored[0].comment_id}"]`).click();
  await ctx.inputBox('Looking into it.');
  await changes
    .locator('aside.chg-thread:not([hidden]) .t-comment .t-text', { hasText: 'Looking into it.' })
    .waitFor({ timeout: ctx.scaled(60_000) });
  const paneReply = (await listed()).find((c) => c.body.endsWith('Looking into it.'));
  assert.deepEqual(anchorOf(paneReply.body), {
    table: 'suppliers',
    key: { id: modifiedId },
    column,
    commit: head,
    replyTo: anchored[0].comment_id,
  });
  // The grid takes the new count where it is: the cell says 2, and it was not shown again from the
  // top (the cell right-clicked is still the active one).
  const modifiedRow = await rowOf(modifiedId);
  await grid
    .locator(`.vdb-cell.commented[data-comments="2"][data-c="${colIndex}"][data-r="${modifiedRow}"]`)
    .waitFor({ timeout: ctx.scaled(30_000) });
  assert.equal(
    await grid.locator(`.vdb-cell.active[data-c="${colIndex}"][data-r="${modifiedRow}"]`).count(),
    1,
    'the grid kept its active cell: it was not read again',
  );
  await ctx.readmeScreenshot('review-comments');

  // The pull view shows both as threads, current.
  await ctx.page.locator('.part.editor .tab', { hasText: /^#4 / }).first().click();
  view = await frameWith(ctx, '#pull-threads article.thread', { timeout: ctx.scaled(60_000) });
  await view
    .locator('#pull-threads article.thread')
    .nth(1)
    .waitFor({ timeout: ctx.scaled(30_000) });
  assert.equal(await view.locator('#pull-threads [data-thread-state="outdated"]').count(), 0);
  assert.equal(
    await view.locator('section.comments article.comment', { hasText: 'Is this supplier real?' }).count(),
    0,
    'not in the conversation',
  );

  // A push changes the commented cell: after Refresh the thread is outdated.
  const cols = Object.keys(after.get(modifiedId));
  const changed = {
    ...after.get(modifiedId),
    [column]: /^-?\d+(\.\d+)?$/.test(after.get(modifiedId)[column] ?? '')
      ? String(Number(after.get(modifiedId)[column]) + 1)
      : `${after.get(modifiedId)[column] ?? ''} (edited)`,
  };
  const csv = `${cols.join(',')}\n${cols.map((c) => (changed[c] === null ? '' : `"${String(changed[c]).replace(/"/g, '""')}"`)).join(',')}\n`;
  await importTable(ctx, 'suppliers', csv, ['id'], 'update', from);
  const newHead = (await plainRows(ctx, 'alice/prices', from, 'SELECT commit_hash FROM dolt_log LIMIT 1'))[0].commit_hash;
  assert.notEqual(newHead, head);
  await view.locator('.actions button[data-action="refresh"]').first().click();
  const thread = view.locator(`#pull-threads article.thread[data-column="${column}"]`);
  await thread.locator('[data-thread-state="outdated"]').waitFor({ timeout: ctx.scaled(60_000) });
  assert.equal(await view.locator('#pull-threads [data-thread-state="outdated"]').count(), 1, 'only the changed row');
  await ctx.screenshot('outdated');

  // Reply on the outdated thread.
  await thread.locator('button[data-thread-reply]').click();
  await ctx.inputBox('Updated in the new commit.');
  await thread.locator('.thread-comment', { hasText: 'Updated in the new commit.' }).waitFor({ timeout: ctx.scaled(60_000) });
  const reply = (await listed()).find((c) => c.body.endsWith('Updated in the new commit.'));
  assert.deepEqual(anchorOf(reply.body), {
    table: 'suppliers',
    key: { id: modifiedId },
    column,
    commit: newHead,
    replyTo: anchored[0].comment_id,
  });

  // The pull's Changes view, open in its tab all along, took the reply posted in the pull view: the
  // cell says 3 and the pane beside the grid shows the reply, without the table being shown again.
  await ctx.page
    .locator('.part.editor .tab', { hasText: /^Changes: #4/ })
    .first()
    .click();
  await grid
    .locator(`.vdb-cell.commented[data-comments="3"][data-c="${colIndex}"][data-r="${modifiedRow}"]`)
    .waitFor({ timeout: ctx.scaled(30_000) });
  await pane.locator('.t-comment .t-text', { hasText: 'Updated in the new commit.' }).waitFor({ timeout: ctx.scaled(30_000) });
  assert.equal(await grid.locator(`.vdb-cell.active[data-c="${colIndex}"][data-r="${modifiedRow}"]`).count(), 1, 'not read again');
  await ctx.page.locator('.part.editor .tab', { hasText: /^#4 / }).first().click();
  view = await frameWith(ctx, '#pull-commits [data-new-commits="1"]', { timeout: ctx.scaled(60_000) });

  // Changes Since Last Review: only the new commit's rows.
  await view.locator('#pull-commits [data-new-commits="1"]').waitFor({ timeout: ctx.scaled(30_000) });
  await view.locator('#pull-commits button[data-review="since"]').click();
  // The new Changes view (the pull's own is still open in another tab): its subtitle names the new head.
  const since = await frameWith(ctx, `.chg-sub:has-text("${newHead.slice(0, 7)}")`, { timeout: ctx.scaled(60_000) });
  await since
    .locator('.chg-list button[data-table]')
    .first()
    .waitFor({ timeout: ctx.scaled(60_000) });
  await ctx.page
    .locator('.part.editor .tab.active', { hasText: `Changes: ${head.slice(0, 7)} ↔ ${newHead.slice(0, 7)}` })
    .first()
    .waitFor({ timeout: ctx.scaled(30_000) });
  const tables = await since.locator('.chg-list button[data-table]').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-table')));
  assert.deepEqual(tables, ['suppliers']);
  const sinceGrid = since.locator('.vdb-result').first();
  await sinceGrid
    .locator('.vdb-row[data-kind="modified"]')
    .first()
    .waitFor({ timeout: ctx.scaled(60_000) });
  assert.equal(await sinceGrid.locator('.vdb-row[data-kind]').count(), 1, 'one row changed since the review');
  await ctx.screenshot('since-last-review');

  // The pull's item in the Databases tree says how many commits are new since the review.
  await ctx.expand('alice/prices');
  await ctx.expand('Pull Requests');
  assert.match(await pullItemSays(ctx, /since your review/), /^1 new commit since your review · open/);
  // A long title hides the description in a sidebar of default width: the icon says it too.
  assert.equal(await (await ctx.treeItem(/^#4 /)).locator('.codicon-git-pull-request-new-changes').count(), 1);

  // Suggest a value for the added row's name in the pull's Changes grid, then apply it from the pull view.
  await ctx.page.locator('.part.editor .tab', { hasText: /^#4 / }).first().click();
  view = await frameWith(ctx, '#pull-changes button[data-changes-table="suppliers"]', { timeout: ctx.scaled(60_000) });
  await view.locator('#pull-changes button[data-changes-table="suppliers"]').click();
  await changes.locator('.chg-list button[data-table="suppliers"][aria-current="true"]').waitFor({ timeout: ctx.scaled(60_000) });
  const nameCol = headers.indexOf('name');
  assert.ok(nameCol >= 0, `a name column among ${headers.join(', ')}`);
  // Over two lines: an input box takes one, so the value is edited in an editor of its own.
  const lines = ['Fornecedor "Novo" ünï', 'Armazém 2'];
  const suggested = lines.join('\n');
  await grid
    .locator(`.vdb-cell[data-r="${await rowOf(addedId)}"][data-c="${nameCol}"]:not(.placeholder)`)
    .first()
    .click({ button: 'right' });
  const suggestItem = grid.locator('.vdb-menu [role="menuitem"]', { hasText: 'Suggest a Value…' });
  await suggestItem.waitFor({ timeout: ctx.scaled(10_000) });
  await suggestItem.click();
  await ctx.quickPick('A value over several lines…');
  await typeInTextEditor(ctx, /^Suggested value \d+/, lines, 'suggested-value-in-an-editor');
  await ctx.inputBox('Its legal name.');
  const suggestion = await waitFor(
    'the suggestion comment through the API',
    async () => (await listed()).find((c) => anchorOf(c.body)?.suggestion?.value === suggested),
    { timeoutMs: ctx.scaled(30_000), intervalMs: 250 },
  );
  // Written at the head the pull's Changes view shows (pinned when it opened, or after a re-pin).
  const { commit: writtenAt, ...where } = anchorOf(suggestion.body);
  assert.ok([head, newHead].includes(writtenAt), writtenAt);
  assert.deepEqual(where, { table: 'suppliers', key: { id: addedId }, column: 'name', suggestion: { value: suggested } });
  assert.ok(suggestion.body.includes(`\n\n\`\`\`text\n${suggested}\n\`\`\`\n`), 'readable on the web as a code block');

  await ctx.page.locator('.part.editor .tab', { hasText: /^#4 / }).first().click();
  view = await frameWith(ctx, `#pull-threads button[data-thread-apply="${suggestion.comment_id}"]`, { timeout: ctx.scaled(60_000) });
  await view.locator(`#pull-threads button[data-thread-apply="${suggestion.comment_id}"]`).click();
  view = await frameWith(ctx, `#pull-threads [data-suggestion="${suggestion.comment_id}"] [data-suggestion-applied]`, {
    timeout: ctx.scaled(120_000),
  });
  const applied = (await plainRows(ctx, 'alice/prices', from, 'SELECT commit_hash FROM dolt_log LIMIT 1'))[0].commit_hash;
  assert.notEqual(applied, newHead);
  const nameNow = (await plainRows(ctx, 'alice/prices', from, `SELECT name FROM suppliers WHERE id = ${addedId}`))[0].name;
  assert.equal(nameNow, suggested, 'the branch holds exactly the suggested value');
  assert.equal(
    await view
      .locator(`#pull-threads [data-suggestion="${suggestion.comment_id}"] [data-suggestion-applied]`)
      .getAttribute('data-suggestion-applied'),
    applied,
  );
  const record = (await listed()).find((c) => anchorOf(c.body)?.applied === suggestion.comment_id);
  assert.deepEqual(anchorOf(record.body), {
    table: 'suppliers',
    key: { id: addedId },
    column: 'name',
    commit: applied,
    replyTo: suggestion.comment_id,
    applied: suggestion.comment_id,
  });
  await ctx.screenshot('suggestion-applied');

  // The tree's pull list refreshed: two commits since the review; Mark as Reviewed clears it.
  await ctx.runCommand('Versioned DB: Refresh');
  assert.match(await pullItemSays(ctx, /^2 new commits/), /^2 new commits since your review/);
  await view.locator('#pull-commits button[data-review="mark"]').click();
  await view.locator('#pull-commits [data-review-state="current"]').waitFor({ timeout: ctx.scaled(20_000) });
  await pullItemSays(ctx, /^open · /);
  await waitFor(
    'the plain pull icon again',
    async () => (await (await ctx.treeItem(/^#4 /)).locator('.codicon-git-pull-request-new-changes').count()) === 0,
    { timeoutMs: ctx.scaled(30_000), intervalMs: 250 },
  );
}
