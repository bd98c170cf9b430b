// The pull request view's "Before merging" section (issue #15): for an open pull, what the merge
// would change and whether it conflicts, with the first conflicting rows (base, ours, theirs).
// Its own module so the pull panel only asks it for HTML; computed after the pull renders, so a
// slow preview never holds the view, and a newer pull read makes an older preview's answer drop.
import type { DatabaseRef, Pull } from '../shared/wire';
import type { PullTarget } from '../core/targets';
import { previewConflictRows, previewMerge, type MergePreview } from '../core/review/mergePreview';
import type { SqlPort } from '../core/sql/sqlPort';
import { renderMergePreviewSection, type MergePreviewState } from '../core/pullMergePreviewPage';
import { SectionRun } from './sectionRun';

/** The element of the pull view the section is drawn in (replaced alone when the preview answers). */
export const MERGE_PREVIEW_ID = 'merge-preview';

/** Conflicting rows shown per table, and tables shown, before the view says "first N". */
export const CONFLICT_ROWS_SHOWN = 20;
export const CONFLICT_TABLES_SHOWN = 5;

export class PullMergePreview {
  private readonly run: SectionRun<Extract<MergePreviewState, { kind: 'done' }>>;

  constructor(
    private readonly target: PullTarget,
    private readonly sql: Pick<SqlPort, 'review'>,
    onChange: () => void,
  ) {
    this.run = new SectionRun(onChange);
  }

  /** Resolves when the preview last started has finished (for tests). */
  get settled(): Promise<void> {
    return this.run.settled;
  }

  /** The section for the view ('' when the pull is not open). */
  html(): string {
    return this.run.state ? renderMergePreviewSection(this.run.state) : '';
  }

  /** The last finished preview, if any. */
  get last(): MergePreview | undefined {
    return this.run.state?.kind === 'done' ? this.run.state.preview : undefined;
  }

  /** Starts a fresh preview for `pull` (none for a pull that is not open). */
  update(pull: Pull): void {
    if (pull.state !== 'open') return this.run.clear();
    const runOn = (db: DatabaseRef) => this.sql.review(this.target.hostId, db);
    this.run.start(async (signal) => {
      const preview = await previewMerge(runOn, { db: this.target.db, fromBranch: pull.from_branch, toBranch: pull.to_branch }, { signal });
      const done: Extract<MergePreviewState, { kind: 'done' }> = { kind: 'done', preview, conflicts: [] };
      if (preview.kind !== 'ready' || preview.impact.conflictingTables.length === 0) return done;
      try {
        done.conflicts = await previewConflictRows(runOn, preview, {
          pageSize: CONFLICT_ROWS_SHOWN,
          maxTables: CONFLICT_TABLES_SHOWN,
          signal,
        });
      } catch (e) {
        // The preview stands without its rows; a run dropped for a newer one ends here.
        if (signal.aborted) throw e;
        done.conflictRowsFailed = e instanceof Error ? e.message : String(e);
      }
      return done;
    });
  }

  /** Drops the section and any preview under way (the pull could not be read). */
  clear(): void {
    this.run.clear();
  }

  dispose(): void {
    this.run.clear();
  }
}
