import { strict as assert } from 'node:assert';
import { runPullChecks } from '../../../../src/core/dataTests/runChecks';
import type { SqlAt } from '../../../../src/core/sql/sqlPort';
import type { DatabaseRef, QueryResult } from '../../../../src/shared/wire';
import { anOperation } from '../../../builders/wire';

const db: DatabaseRef = { owner: 'alice', name: 'orders' };
const fork: DatabaseRef = { owner: 'bob', name: 'orders' };
const HEAD = 'h'.repeat(32);
const BASE = 'b'.repeat(32);
const ok = (columns: string[], rows: (string | null)[][]): QueryResult => ({
  columns: columns.map((name) => ({ name, type: 'text', is_primary_key: false, source_table: '' })),
  rows,
  status: 'success',
});

function runner(sent: SqlAt[], timeoutAt?: string) {
  return async (q: SqlAt): Promise<QueryResult> => {
    sent.push(q);
    if (/HASHOF/i.test(q.sql)) return ok(['commit_hash'], [[HEAD]]);
    if (/MERGE_BASE/i.test(q.sql)) return ok(['merge_base'], [[BASE]]);
    if (/FROM dolt_tests/.test(q.sql))
      return ok(
        ['test_name', 'test_group'],
        [
          ['t1', 'g'],
          ['t2', 'g'],
        ],
      );
    if (q.at === timeoutAt) return { columns: [], rows: [], status: 'timeout', message: 'ran longer than 1000 ms' };
    return ok(
      ['test_name', 'test_group_name', 'status', 'message'],
      [
        ['t1', 'g', q.at === HEAD ? 'FAIL' : 'PASS', q.at === HEAD ? 'got 1' : ''],
        ['t2', 'g', 'PASS', ''],
      ],
    );
  };
}

const MID = 'm'.repeat(32);
const log = (hashes: string[]): QueryResult =>
  ok(
    ['commit_hash', 'committer', 'email', 'date', 'message', 'parents'],
    hashes.map((h) => [h, 'bob', 'b@x', '2026-01-01 00:00:00', 'm', '']),
  );

/** The fork answers its head's log (HEAD, MID, BASE); the target reaches `reached` of them. */
function forkAware(d: DatabaseRef, rest: (q: SqlAt) => Promise<QueryResult>, reached: string[]) {
  return async (q: SqlAt): Promise<QueryResult> => {
    if (d.owner === fork.owner && /DOLT_LOG\(/.test(q.sql)) return log([HEAD, MID, BASE]);
    if (d.owner === db.owner && /FROM dolt_log WHERE commit_hash IN/.test(q.sql))
      return ok(
        ['commit_hash'],
        [...reached].filter((h) => q.sql.includes(h)).map((h) => [h]),
      );
    assert.ok(d.owner === fork.owner, `only the fork runs tests: ${q.sql} on ${d.owner}`);
    return rest(q);
  };
}

describe('running a pull’s checks', () => {
  it('a pull from a fork runs the base side in the fork at the first commit of its head’s log the target reaches', async () => {
    const sent: SqlAt[] = [];
    const checks = await runPullChecks(
      { runOn: (d) => forkAware(d, runner(sent), [MID, BASE]), operations: async () => [] },
      { db, fromBranch: { database: fork, branch_name: 'feat' }, toBranch: { database: db, branch_name: 'main' } },
    );
    assert.equal(checks.base.kind === 'ran' ? checks.base.commit : checks.base.reason, MID);
    assert.equal(checks.head.kind === 'ran' ? checks.head.commit : checks.head.reason, HEAD);
    assert.ok(!sent.some((q) => /MERGE_BASE/i.test(q.sql)), 'no DOLT_MERGE_BASE across databases');
  });

  it('runs the tests at the pinned merge base and head, never at the moving branch names', async () => {
    const sent: SqlAt[] = [];
    const checks = await runPullChecks(
      {
        runOn: () => runner(sent),
        operations: async () => [
          anOperation({ type: 'svc_ci', status: 'failed', ci: { branch: 'feat', commit_sha: HEAD, workflow: 'w' } }),
        ],
      },
      { db, fromBranch: { database: db, branch_name: 'feat' }, toBranch: { database: db, branch_name: 'main' } },
    );
    assert.deepEqual(
      checks.tests.map((t) => [t.name, t.category]),
      [
        ['t1', 'newlyFailing'],
        ['t2', 'passing'],
      ],
    );
    for (const q of sent.filter((x) => /dolt_test/.test(x.sql))) assert.ok(q.at === HEAD || q.at === BASE, q.at);
    assert.equal(checks.ci.length, 1);
  });

  it('a side that times out is not run with the reason; a fork pull with no common commit says so; a failed CI listing is said', async () => {
    const sent: SqlAt[] = [];
    const checks = await runPullChecks(
      {
        runOn: (d) => forkAware(d, runner(sent, HEAD), []),
        operations: async () => {
          throw new Error('403');
        },
      },
      { db, fromBranch: { database: fork, branch_name: 'feat' }, toBranch: { database: db, branch_name: 'main' } },
    );
    assert.equal(checks.base.kind, 'notRun');
    assert.match(
      checks.base.kind === 'notRun' ? checks.base.reason : '',
      /fork and its merge base was not found: No common commit with main/,
    );
    assert.deepEqual(
      checks.tests.map((t) => t.category),
      ['notRun', 'notRun'],
    );
    assert.match(checks.tests[0]!.head?.status === 'notRun' ? checks.tests[0]!.head.reason : '', /Timed out/);
    assert.equal(checks.ciError, '403');
  });
});
