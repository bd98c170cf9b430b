// The pull request view's Checks section (issue #24): runs the tests at the merge base and at the
// head and lists the branch's CI runs after the pull renders, so slow tests never hold the view; a
// newer pull read drops an older run's answer. Rendered by src/core/pullChecksPage.ts.
import type { Operation, Pull } from '../shared/wire';
import type { PullTarget } from '../core/targets';
import type { SqlPort } from '../core/sql/sqlPort';
import { runPullChecks } from '../core/dataTests/runChecks';
import type { PullChecks } from '../core/dataTests/pullChecks';
import { renderChecksSection, type ChecksState } from '../core/pullChecksPage';

export interface PullChecksDeps {
  sql: Pick<SqlPort, 'review'>;
  /** The first page of a database's operations on the pull's host. */
  operations(target: PullTarget, signal: AbortSignal): Promise<readonly Operation[]>;
}

export class PullChecksSection {
  private state: ChecksState | undefined;
  private generation = 0;
  private abort: AbortController | undefined;
  /** Resolves when the run last started has finished (for tests). */
  settled: Promise<void> = Promise.resolve();

  constructor(
    private readonly target: PullTarget,
    private readonly deps: PullChecksDeps,
    private readonly onChange: () => void,
  ) {}

  html(): string {
    return this.state ? renderChecksSection(this.state) : '';
  }

  get last(): PullChecks | undefined {
    return this.state?.kind === 'done' ? this.state.checks : undefined;
  }

  /** Runs the checks again for `pull` (none for a pull that is not open). */
  update(pull: Pull): void {
    this.abort?.abort();
    const generation = ++this.generation;
    if (pull.state !== 'open') {
      this.state = undefined;
      return;
    }
    const abort = (this.abort = new AbortController());
    this.state = { kind: 'checking' };
    this.settled = (async () => {
      let next: ChecksState;
      try {
        const checks = await runPullChecks(
          {
            runOn: (db) => this.deps.sql.review(this.target.hostId, db),
            operations: () => this.deps.operations(this.target, abort.signal),
          },
          { db: this.target.db, fromBranch: pull.from_branch, toBranch: pull.to_branch },
          abort.signal,
        );
        next = { kind: 'done', checks };
      } catch (e) {
        if (abort.signal.aborted) return;
        next = { kind: 'failed', message: e instanceof Error ? e.message : String(e) };
      }
      if (generation !== this.generation) return;
      this.state = next;
      this.onChange();
    })();
  }

  clear(): void {
    this.generation++;
    this.abort?.abort();
    this.state = undefined;
  }

  dispose(): void {
    this.clear();
  }
}
