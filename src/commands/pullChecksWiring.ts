// The pull checks (issue #24) as the pull view's section and the merge confirmation both use them:
// the tests through the SQL port, the CI runs through the operations list of the pull's host. The
// runs at each commit are kept for the session in one cache both share, so opening the pull, a
// refresh and the merge confirmation run the tests once per merge base and head.
import { runPullChecks } from '../core/dataTests/runChecks';
import { TestRunCache } from '../core/dataTests/testRunCache';
import type { PullChecksDeps } from '../views/pullChecks';
import type { CommandDeps } from './commandDeps';
import type { PullEnv } from './pullActions';

export function pullChecksWiring(deps: Pick<CommandDeps, 'sql' | 'clients'>): {
  section: PullChecksDeps;
  forMerge: NonNullable<PullEnv['pullChecks']>;
} {
  const runs = new TestRunCache();
  const section: PullChecksDeps = {
    sql: deps.sql,
    runs,
    operations: async (t, signal) => (await deps.clients.clientFor(t.hostId).listOperations(t.db, undefined, { signal })).items,
  };
  const forMerge: NonNullable<PullEnv['pullChecks']> = (t, pull, signal) =>
    runPullChecks(
      {
        runOn: (db) => deps.sql.review(t.hostId, db),
        operations: (db, s) => section.operations({ ...t, db }, s ?? signal),
        cache: { runs, hostId: t.hostId },
      },
      { db: t.db, fromBranch: pull.from_branch, toBranch: pull.to_branch },
      signal,
    );
  return { section, forMerge };
}
