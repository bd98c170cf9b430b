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

describe('running a pull’s checks', () => {
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

  it('a side that times out is not run with the reason; a fork pull has no merge base here; a failed CI listing is said', async () => {
    const sent: SqlAt[] = [];
    const checks = await runPullChecks(
      {
        runOn: () => runner(sent, HEAD),
        operations: async () => {
          throw new Error('403');
        },
      },
      { db, fromBranch: { database: fork, branch_name: 'feat' }, toBranch: { database: db, branch_name: 'main' } },
    );
    assert.equal(checks.base.kind, 'notRun');
    assert.match(checks.base.kind === 'notRun' ? checks.base.reason : '', /fork/);
    assert.deepEqual(
      checks.tests.map((t) => t.category),
      ['notRun', 'notRun'],
    );
    assert.match(checks.tests[0]!.head?.status === 'notRun' ? checks.tests[0]!.head.reason : '', /Timed out/);
    assert.equal(checks.ciError, '403');
  });
});
