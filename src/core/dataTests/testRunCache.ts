// The outcomes of the database's tests at a commit, kept for the session (issue #24). A commit
// cannot change, and `dolt_test_run` at a commit hash reads only that commit, so the same hash
// gives the same outcomes: the pull view's Checks section and the merge confirmation reuse a run
// instead of running every test at the merge base and the head again each time. A moved head or
// base is another hash, so it runs again. Only a finished run is kept: a side that was not run at
// all, or with a test not run (a timeout, the row cap), is tried again next time. Bounded, least
// recently used first out. No vscode.
import type { DatabaseRef } from '../../shared/wire';
import type { SideRun } from './pullChecks';

/** Where a run was made: the host and database of the runner, and the commit hash. */
export interface RunAt {
  readonly hostId: string;
  readonly db: DatabaseRef;
  readonly commit: string;
}

export const DEFAULT_KEPT_RUNS = 64;

const keyOf = (at: RunAt): string => JSON.stringify([at.hostId, at.db.owner, at.db.name, at.commit]);

/** A run worth keeping: every test it covered has a PASS or FAIL. */
function finished(run: SideRun): boolean {
  return run.kind === 'ran' && [...run.outcomes.values()].every((o) => o.status !== 'notRun');
}

export class TestRunCache {
  private readonly runs = new Map<string, SideRun>();

  constructor(private readonly max = DEFAULT_KEPT_RUNS) {}

  get size(): number {
    return this.runs.size;
  }

  /** The run kept for `at`, if any (and it becomes the most recently used). */
  get(at: RunAt): SideRun | undefined {
    const k = keyOf(at);
    const run = this.runs.get(k);
    if (run) {
      this.runs.delete(k);
      this.runs.set(k, run);
    }
    return run;
  }

  /** Keeps `run` for `at` when it finished; the least recently used run leaves past the bound. */
  keep(at: RunAt, run: SideRun): void {
    if (!finished(run) || this.max <= 0) return;
    const k = keyOf(at);
    this.runs.delete(k);
    this.runs.set(k, run);
    while (this.runs.size > this.max) {
      const oldest = this.runs.keys().next().value;
      if (oldest === undefined) break;
      this.runs.delete(oldest);
    }
  }

  /** The run kept for `at`, or `work`'s (kept when it finished). */
  async runAt(at: RunAt, work: () => Promise<SideRun>): Promise<SideRun> {
    const kept = this.get(at);
    if (kept) return kept;
    const run = await work();
    this.keep(at, run);
    return run;
  }
}
