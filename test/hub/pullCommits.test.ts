// The pull view's Commits section and its head watch (issue #25), through the real hub on the seeded
// pull #4 of alice/prices: the pull's own commits are those the head's plain dolt_log has and the
// merge base's has not (the merge base found from both branches' plain logs), in the head's log
// order; after an import commits to the pull's branch, the head read now is that branch's new head.
import assert from 'node:assert/strict';
import { startHub, type HubHandle } from '../helpers/hub';
import { hubSql, hubSqlPort } from '../helpers/hubSql';
import { loadPullCommits, pullHeadNow } from '../../src/core/review/pullCommits';
import type { DatabaseRef, Pull } from '../../src/shared/wire';
import { importCsv } from './importFlow';

describe("a pull's own commits and where its branch points now", function () {
  this.timeout(120_000);
  let hub: HubHandle;
  before(async () => {
    hub = await startHub({ seed: true });
  });
  after(async () => hub?.stop());

  const prices: DatabaseRef = { owner: 'alice', name: 'prices' };
  const sql = hubSql(() => hub, 'alice/prices');
  const port = hubSqlPort(() => hub);
  const runners = { target: port.review('hub', prices), fork: (db: DatabaseRef) => port.review('hub', db) };
  const pull = async (): Promise<Pull> => (await hub.fetch('/databases/alice/prices/pulls/4', { user: 'alice' })).body.data as Pull;
  const log = async (ref: string): Promise<string[]> => (await sql.ok('SELECT commit_hash FROM dolt_log', ref)).rows.map((r) => r[0]!);
  const branchHead = async (name: string): Promise<string> =>
    (
      (await hub.fetch('/databases/alice/prices/branches', { user: 'alice' })).body.data as { name: string; head_commit_sha: string }[]
    ).find((b) => b.name === name)!.head_commit_sha;

  const expectedCommits = async (p: Pull): Promise<string[]> => {
    const onTarget = new Set(await log(p.to_branch.branch_name));
    const head = await log(p.from_branch.branch_name);
    const base = head.find((h) => onTarget.has(h))!;
    const notInBase = new Set(await log(base));
    return head.filter((h) => !notInBase.has(h));
  };

  it("lists the commits the pull's head has and its merge base has not, newest first", async () => {
    const p = await pull();
    const loaded = await loadPullCommits(p, prices, runners);
    const expected = await expectedCommits(p);
    assert.ok(expected.length >= 1, 'the seeded pull has commits of its own');
    assert.deepEqual(
      loaded.commits.map((c) => c.hash),
      expected,
    );
    assert.equal(loaded.pinned.pair.to, await branchHead(p.from_branch.branch_name));
    assert.equal(loaded.more, false);
  });

  it("reads the branch's new head after a push, and the new commit heads the pull's list", async () => {
    const p = await pull();
    const before = await loadPullCommits(p, prices, runners);
    assert.equal(await pullHeadNow(p, runners.fork), before.pinned.pair.to, 'nothing moved yet');
    await importCsv(hub, 'alice/prices', p.from_branch.branch_name, 'review_notes', 'create', 'id,note\n1,pushed\n', {
      primary_keys: ['id'],
    });
    const now = await pullHeadNow(p, runners.fork);
    assert.equal(now, await branchHead(p.from_branch.branch_name));
    assert.notEqual(now, before.pinned.pair.to, 'the head moved');
    const after = await loadPullCommits(p, prices, runners);
    assert.deepEqual(
      after.commits.map((c) => c.hash),
      await expectedCommits(p),
    );
    assert.equal(after.commits[0]!.hash, now);
    assert.deepEqual(
      after.commits.slice(1).map((c) => c.hash),
      before.commits.map((c) => c.hash),
    );
  });
});
