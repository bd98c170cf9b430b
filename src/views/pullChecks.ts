// The pull request view's Checks section (issue #24): runs the tests at the merge base and at the
// head and lists the branch's CI runs after the pull renders, so slow tests never hold the view; a
// newer pull read drops an older run's answer. Rendered by src/core/pullChecksPage.ts.
import type { Operation, Pull } from '../shared/wire';
import type { PullTarget } from '../core/targets';
import type { SqlPort } from '../core/sql/sqlPort';
import { runPullChecks } from '../core/dataTests/runChecks';
import type { PullChecks } from '../core/dataTests/pullChecks';
import { renderChecksSection, type ChecksState } from '../core/pullChecksPage';
import { SectionRun } from './sectionRun';
import type { TestRunCache } from '../core/dataTests/testRunCache';

export interface PullChecksDeps {
  sql: Pick<SqlPort, 'review'>;
  /** The first page of a database's operations on the pull's host. */
  operations(target: PullTarget, signal: AbortSignal): Promise<readonly Operation[]>;
  /** The test runs kept by commit for the session, shared with the merge confirmation. */
  readonly runs?: TestRunCache;
}

export class PullChecksSection {
  private readonly run: SectionRun<Extract<ChecksState, { kind: 'done' }>>;

  constructor(
    private readonly target: PullTarget,
    private readonly deps: PullChecksDeps,
    onChange: () => void,
  ) {
    this.run = new SectionRun(onChange);
  }

  /** Resolves when the run last started has finished (for tests). */
  get settled(): Promise<void> {
    return this.run.settled;
  }

  html(): string {
    return this.run.state ? renderChecksSection(this.run.state) : '';
  }

  get last(): PullChecks | undefined {
    return this.run.state?.kind === 'done' ? this.run.state.checks : undefined;
  }

  /** Runs the checks again for `pull` (none for a pull that is not open). */
  update(pull: Pull): void {
    if (pull.state !== 'open') return this.run.clear();
    this.run.start(async (signal) => {
      const checks = await runPullChecks(
        {
          runOn: (db) => this.deps.sql.review(this.target.hostId, db),
          operations: () => this.deps.operations(this.target, signal),
          ...(this.deps.runs ? { cache: { runs: this.deps.runs, hostId: this.target.hostId } } : {}),
        },
        { db: this.target.db, fromBranch: pull.from_branch, toBranch: pull.to_branch },
        signal,
      );
      return { kind: 'done', checks };
    });
  }

  clear(): void {
    this.run.clear();
  }

  dispose(): void {
    this.run.clear();
  }
}
