// The test runs kept by commit (issue #24): the pull checks run the tests again only at a commit
// hash not seen, within a bound, and never keep a run that did not finish.
import { strict as assert } from 'node:assert';
import { runPullChecks, type ChecksDeps } from '../../../../src/core/dataTests/runChecks';
import { TestRunCache } from '../../../../src/core/dataTests/testRunCache';
import type { SqlAt } from '../../../../src/core/sql/sqlPort';
import type { DatabaseRef, QueryResult } from '../../../../src/shared/wire';

const db: DatabaseRef = { owner: 'alice', name: 'orders' };
const BASE = 'b'.repeat(32);
const ok = (columns: string[], rows: (string | null)[][]): QueryResult => ({
  columns: columns.map((name) => ({ name, type: 'text', is_primary_key: false, source_table: '' })),
  rows,
  status: 'success',
});

/** A server whose branch `feat` points at `heads.feat`; `t1` fails at `failsAt`; runs at `timeoutAt` time out. */
class Server {
  heads = { feat: 'h'.repeat(32) };
  base = BASE;
  timeoutAt: string | undefined;
  readonly failsAt = new Set<string>();
  /** The commits dolt_test_run ran at, in order. */
  readonly ranAt: string[] = [];

  readonly run = async (q: SqlAt): Promise<QueryResult> => {
    if (/HASHOF/i.test(q.sql)) return ok(['commit_hash'], [[this.heads.feat]]);
    if (/MERGE_BASE/i.test(q.sql)) return ok(['merge_base'], [[this.base]]);
    if (/FROM dolt_tests/.test(q.sql))
      return ok(
        ['test_name', 'test_group'],
        [
          ['t1', 'g'],
          ['t2', 'g'],
        ],
      );
    this.ranAt.push(q.at ?? '');
    if (q.at === this.timeoutAt) return { columns: [], rows: [], status: 'timeout', message: 'ran longer than 1000 ms' };
    const t1 = this.failsAt.has(q.at ?? '') ? ['t1', 'g', 'FAIL', 'got 1'] : ['t1', 'g', 'PASS', ''];
    return ok(['test_name', 'test_group_name', 'status', 'message'], [t1, ['t2', 'g', 'PASS', '']]);
  };
}

const sides = { db, fromBranch: { database: db, branch_name: 'feat' }, toBranch: { database: db, branch_name: 'main' } };
const deps = (server: Server, runs: TestRunCache): ChecksDeps => ({
  runOn: () => server.run,
  operations: async () => [],
  cache: { runs, hostId: 'hub' },
});
const categories = async (server: Server, runs: TestRunCache): Promise<string[]> =>
  (await runPullChecks(deps(server, runs), sides)).tests.map((t) => `${t.name}:${t.category}`);

describe('test runs kept by commit', () => {
  it('the same base and head hashes run the tests once; the answers are the same', async () => {
    const server = new Server();
    server.failsAt.add(server.heads.feat);
    const runs = new TestRunCache();
    const first = await categories(server, runs);
    assert.deepEqual(first, ['t1:newlyFailing', 't2:passing']);
    assert.deepEqual(server.ranAt.sort(), [BASE, server.heads.feat].sort());
    assert.deepEqual(await categories(server, runs), first);
    assert.deepEqual(await categories(server, runs), first);
    assert.equal(server.ranAt.length, 2, 'no run again at the same hashes');
  });

  it('a moved head runs again there (and the result follows it); a moved base runs again there', async () => {
    const server = new Server();
    server.failsAt.add(server.heads.feat);
    const runs = new TestRunCache();
    await categories(server, runs);
    server.heads.feat = 'f'.repeat(32);
    assert.deepEqual(await categories(server, runs), ['t1:passing', 't2:passing'], 'the fix at the new head is seen');
    assert.deepEqual(server.ranAt.slice(2), ['f'.repeat(32)], 'only the moved head ran');
    server.base = 'c'.repeat(32);
    server.failsAt.add(server.base);
    assert.deepEqual(await categories(server, runs), ['t1:fixed', 't2:passing']);
    assert.deepEqual(server.ranAt.slice(3), ['c'.repeat(32)]);
  });

  it('keeps at most its bound, the least recently used leaving first', async () => {
    const server = new Server();
    const runs = new TestRunCache(3);
    const heads = ['1', '2', '3'].map((c) => c.repeat(32));
    for (const h of heads) {
      server.heads.feat = h;
      await categories(server, runs);
    }
    // Base, 1, 2, 3 were run; the bound of 3 let the first head go (the base was used since).
    assert.equal(runs.size, 3);
    assert.equal(server.ranAt.length, 4);
    server.heads.feat = heads[2]!;
    await categories(server, runs);
    assert.equal(server.ranAt.length, 4, 'the last head is still kept');
    server.heads.feat = heads[0]!;
    await categories(server, runs);
    assert.deepEqual(server.ranAt.slice(4), [heads[0]], 'the first head left and runs again');
    assert.equal(runs.size, 3);
  });

  it('a run that did not finish (timeout) is not kept, so the next check runs it again', async () => {
    const server = new Server();
    server.timeoutAt = server.heads.feat;
    const runs = new TestRunCache();
    assert.deepEqual(await categories(server, runs), ['t1:notRun', 't2:notRun']);
    server.timeoutAt = undefined;
    assert.deepEqual(await categories(server, runs), ['t1:passing', 't2:passing']);
    assert.equal(server.ranAt.filter((c) => c === server.heads.feat).length, 2);
    assert.equal(server.ranAt.filter((c) => c === BASE).length, 1);
  });

  it('a run kept for one host or database is not another’s', () => {
    const runs = new TestRunCache();
    const run = { kind: 'ran' as const, commit: BASE, outcomes: new Map([['t', { status: 'pass' as const }]]) };
    runs.keep({ hostId: 'hub', db, commit: BASE }, run);
    assert.equal(runs.get({ hostId: 'hub', db, commit: BASE }), run);
    assert.equal(runs.get({ hostId: 'other', db, commit: BASE }), undefined);
    assert.equal(runs.get({ hostId: 'hub', db: { owner: 'bob', name: 'orders' }, commit: BASE }), undefined);
  });
});
