// The pull request view's "Before merging" section (issue #15): for an open pull, what the merge
// would change and whether it conflicts, with the first conflicting rows (base, ours, theirs).
// Its own module so the pull panel only asks it for HTML; computed after the pull renders, so a
// slow preview never holds the view, and a newer pull read makes an older preview's answer drop.
import type { DatabaseRef, Pull } from '../shared/wire';
import type { PullTarget } from '../core/targets';
import { previewConflictRows, previewMerge, type MergePreview } from '../core/review/mergePreview';
import type { SqlPort } from '../core/sql/sqlPort';
import { renderMergePreviewSection, type MergePreviewState } from '../core/pullMergePreviewPage';

/** The element of the pull view the section is drawn in (replaced alone when the preview answers). */
export const MERGE_PREVIEW_ID = 'merge-preview';

/** Conflicting rows shown per table, and tables shown, before the view says "first N". */
export const CONFLICT_ROWS_SHOWN = 20;
export const CONFLICT_TABLES_SHOWN = 5;

export class PullMergePreview {
  private state: MergePreviewState | undefined;
  private generation = 0;
  private abort: AbortController | undefined;
  /** Resolves when the preview last started has finished (for tests). */
  settled: Promise<void> = Promise.resolve();

  constructor(
    private readonly target: PullTarget,
    private readonly sql: Pick<SqlPort, 'review'>,
    private readonly onChange: () => void,
  ) {}

  /** The section for the view ('' when the pull is not open). */
  html(): string {
    return this.state ? renderMergePreviewSection(this.state) : '';
  }

  /** The last finished preview, if any. */
  get last(): MergePreview | undefined {
    return this.state?.kind === 'done' ? this.state.preview : undefined;
  }

  /** Starts a fresh preview for `pull` (none for a pull that is not open). */
  update(pull: Pull): void {
    this.abort?.abort();
    const generation = ++this.generation;
    if (pull.state !== 'open') {
      this.state = undefined;
      return;
    }
    const abort = (this.abort = new AbortController());
    this.state = { kind: 'checking' };
    const runOn = (db: DatabaseRef) => this.sql.review(this.target.hostId, db);
    this.settled = (async () => {
      let next: MergePreviewState;
      try {
        const preview = await previewMerge(
          runOn,
          { db: this.target.db, fromBranch: pull.from_branch, toBranch: pull.to_branch },
          { signal: abort.signal },
        );
        next = { kind: 'done', preview, conflicts: [] };
        if (preview.kind === 'ready' && preview.impact.conflictingTables.length > 0) {
          try {
            next.conflicts = await previewConflictRows(runOn, preview, {
              pageSize: CONFLICT_ROWS_SHOWN,
              maxTables: CONFLICT_TABLES_SHOWN,
              signal: abort.signal,
            });
          } catch (e) {
            if (abort.signal.aborted) return;
            next.conflictRowsFailed = e instanceof Error ? e.message : String(e);
          }
        }
      } catch (e) {
        if (abort.signal.aborted) return;
        next = { kind: 'failed', message: e instanceof Error ? e.message : String(e) };
      }
      if (generation !== this.generation) return;
      this.state = next;
      this.onChange();
    })();
  }

  /** Drops the section and any preview under way (the pull could not be read). */
  clear(): void {
    this.generation++;
    this.abort?.abort();
    this.state = undefined;
  }

  dispose(): void {
    this.clear();
  }
}
