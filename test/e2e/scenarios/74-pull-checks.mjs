import assert from 'node:assert/strict';
import { plainMergeBase, plainRows, frameWith } from './changesHelpers.mjs';
import { answerHostPick } from './pullHelpers.mjs';
import { judgedTests } from './testsHelpers.mjs';

export const name =
  "a pull that breaks a test: Checks lists it newly failing first with both results and the branch's CI runs, and the merge confirmation names it and the failed CI and asks again; a pull from a fork runs its base side at the merge base";
export const given = { signedIn: 'alice', databases: ['alice/orders', 'alice/inventory'] };

const DB = 'alice/orders';

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const pulls = (await ctx.hub.api(`/databases/${DB}/pulls`)).body.data;
  const pullNumber = pulls.find((p) => p.title === 'Bulk orders').pull_number;
  const pull = (await ctx.hub.api(`/databases/${DB}/pulls/${pullNumber}`)).body.data;
  const branch = pull.from_branch.branch_name;
  // Expected: each test judged by plain reads at the merge base and at the head.
  const base = await plainMergeBase(ctx, DB, 'main', branch);
  const atBase = await judgedTests(ctx, DB, base);
  const atHead = await judgedTests(ctx, DB, branch);
  const newly = [...atHead].filter(([n, t]) => !t.pass && atBase.get(n)?.pass !== false).map(([n]) => n);
  const fixed = [...atHead].filter(([n, t]) => t.pass && atBase.get(n)?.pass === false).map(([n]) => n);
  const still = [...atHead].filter(([n, t]) => !t.pass && atBase.get(n)?.pass === false).map(([n]) => n);
  assert.ok(newly.length >= 1, 'the pull breaks a test');
  const ci = (await ctx.hub.api(`/databases/${DB}/operations`)).body.data.filter((o) => o.type === 'svc_ci' && o.ci?.branch === branch);
  const failedCi = ci.filter((o) => o.status === 'failed');
  assert.ok(failedCi.length >= 1 && ci.some((o) => o.status === 'succeeded'), 'the seed records a failed and a succeeded CI run');

  await ctx.expand(DB);
  await ctx.expand('Pull Requests');
  await (await ctx.treeItem(`#${pullNumber} ${pull.title}`)).click();
  const view = await frameWith(ctx, '#pull-checks .checks[data-state="done"]', { timeout: ctx.scaled(90_000) });
  const section = view.locator('#pull-checks');
  const rows = await section.locator('tr.check').evaluateAll((trs) =>
    trs.map((tr) => ({
      name: tr.getAttribute('data-test'),
      category: tr.getAttribute('data-category'),
      cells: [...tr.querySelectorAll('td')].map((td) => td.textContent),
    })),
  );
  const order = ['newlyFailing', 'fixed', 'stillFailing'];
  const expectedOrder = [
    ...newly.sort().map((n) => [n, 'newlyFailing']),
    ...fixed.sort().map((n) => [n, 'fixed']),
    ...still.sort().map((n) => [n, 'stillFailing']),
  ];
  assert.deepEqual(
    rows.filter((r) => order.includes(r.category)).map((r) => [r.name, r.category]),
    expectedOrder,
    'newly failing first, then fixed, then still failing',
  );
  assert.deepEqual(
    rows.slice(0, newly.length).map((r) => r.category),
    newly.map(() => 'newlyFailing'),
  );
  for (const r of rows) {
    assert.equal(r.cells[1].startsWith('PASS'), atBase.get(r.name)?.pass === true, `${r.name} at the merge base: ${r.cells[1]}`);
    assert.equal(r.cells[2].startsWith('PASS'), atHead.get(r.name)?.pass === true, `${r.name} at the head: ${r.cells[2]}`);
  }
  for (const o of ci) {
    const row = section.locator(`tr.ci[data-ci="${o.ci.workflow}"]`);
    assert.equal((await row.locator('td.status').innerText()).trim(), o.status, o.ci.workflow);
  }
  await ctx.screenshot('checks');

  // Merge: the confirmation names the newly failing test and the failed CI, then asks again.
  await view.locator('button[data-action="merge"]').click();
  const dialog = ctx.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  const detail = await dialog.locator('.dialog-message-detail').innerText();
  for (const n of newly) assert.ok(detail.includes(n), `the confirmation names ${n}: ${detail}`);
  for (const o of failedCi) assert.ok(detail.includes(o.ci.workflow), `the confirmation names ${o.ci.workflow}`);
  await ctx.screenshot('confirmation');
  await dialog
    .locator('.dialog-buttons .monaco-button', { hasText: /^\s*Merge\s*$/ })
    .first()
    .click();
  await dialog
    .locator('.dialog-message-text', { hasText: /does not pass its checks\. Merge anyway\?/ })
    .waitFor({ timeout: ctx.scaled(20_000) });
  const again = await dialog.locator('.dialog-message-detail').innerText();
  for (const n of newly) assert.ok(again.includes(n), `the second question names ${n}`);
  await ctx.screenshot('asks-again');
  await dialog
    .locator('.dialog-buttons .monaco-button', { hasText: /^\s*Cancel\s*$/ })
    .first()
    .click();
  await dialog.waitFor({ state: 'hidden', timeout: ctx.scaled(20_000) });
  assert.equal((await ctx.hub.api(`/databases/${DB}/pulls/${pullNumber}`)).body.data.state, 'open', 'nothing merged');
  await forkPullChecks(ctx);
}

/** The seeded pull from bob/inventory: Checks run the base side (in the fork) at the merge base plain dolt_log reads of both databases give. */
async function forkPullChecks(ctx) {
  const inv = 'alice/inventory';
  const n = (await ctx.hub.api(`/databases/${inv}/pulls`)).body.data.find((p) => p.title === 'Fix a typo in B-300').pull_number;
  const pull = (await ctx.hub.api(`/databases/${inv}/pulls/${n}`)).body.data;
  const fork = `${pull.from_branch.database.owner}/${pull.from_branch.database.name}`;
  assert.notEqual(fork, inv, 'the seeded pull comes from a fork');
  const onTarget = new Set(
    (await plainRows(ctx, inv, pull.to_branch.branch_name, 'SELECT commit_hash FROM dolt_log')).map((r) => r.commit_hash),
  );
  const forkLog = await plainRows(ctx, fork, pull.from_branch.branch_name, 'SELECT commit_hash FROM dolt_log');
  const base = forkLog.map((r) => r.commit_hash).find((h) => onTarget.has(h));
  assert.ok(base && base !== forkLog[0].commit_hash, 'the fork’s branch has commits of its own past the merge base');
  await ctx.runCommand('Versioned DB: Show Pull Request');
  await answerHostPick(ctx);
  await ctx.quickPick(inv);
  await ctx.quickPick(new RegExp(`^#${n} `));
  const view = await frameWith(ctx, `#pull-checks p.muted[data-side="merge base"]:has-text("${base.slice(0, 8)}")`, {
    timeout: ctx.scaled(60_000),
  });
  assert.match(await view.locator('#pull-checks p[data-side="head"]').innerText(), new RegExp(forkLog[0].commit_hash.slice(0, 8)));
  assert.equal(await view.locator('#pull-checks p.warning').count(), 0, 'neither side is left unrun');
  await view.locator('#pull-checks').scrollIntoViewIfNeeded();
  await ctx.screenshot('fork-checks');
}
