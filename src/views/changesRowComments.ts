// What the Changes grid offers on the rows of a keyed table: Show Row History always, and in a
// pull's Changes view Comment on Row / Cell with each commented row and cell marked with its count
// (issue #25). The threads are read from the pull's comments each time a table is shown.
import type { HubClient } from '../api/hubClient';
import type { Logger } from '../core/logger';
import type { ChangesRequest } from '../core/review/requests';
import type { DiffPageSource } from '../core/review/diffSource';
import { commentMarksOf, splitThreads, type RowThread } from '../core/review/rowThreads';
import { sameTarget } from '../core/review/commentAnchor';
import type { PagedOutput } from '../shared/gridPaging';
import type { ThreadPaneItem } from '../shared/changesProtocol';
import type { Cell } from '../shared/wire';

export interface ChangesRowCommentsDeps {
  clientFor(hostId: string): Pick<HubClient, 'listPullComments'>;
  log: Logger;
  /** Present when comments can be posted; without it the grid offers none. */
  commentOnRow?: unknown;
}

export class ChangesRowComments {
  private threads: RowThread[] = [];

  constructor(
    private readonly request: ChangesRequest,
    private readonly deps: ChangesRowCommentsDeps,
  ) {}

  private get pull(): Extract<ChangesRequest, { kind: 'pull' }>['target'] | undefined {
    return this.request.kind === 'pull' && this.deps.commentOnRow ? this.request.target : undefined;
  }

  /** Re-reads the pull's threads (a pull's Changes view only); keeps the last ones when that fails. */
  async read(): Promise<void> {
    const t = this.pull;
    if (!t) return;
    try {
      this.threads = splitThreads(await this.deps.clientFor(t.hostId).listPullComments(t.db, t.pullNumber)).threads;
    } catch (e) {
      this.deps.log.warn(`comments of pull #${t.pullNumber}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** The output's fields for a keyed table's rows. */
  keyedRows(
    table: string,
    source: Pick<DiffPageSource, 'keyColumns' | 'gridColumns'>,
  ): Pick<PagedOutput, 'rowsOf' | 'rowComments' | 'commentMarks'> {
    const keyColumns = source.keyColumns();
    if (!this.pull) return { rowsOf: { table, keyColumns } };
    const names = keyColumns.map((c) => source.gridColumns()[c]?.name ?? '');
    return { rowsOf: { table, keyColumns }, rowComments: true, commentMarks: commentMarksOf(this.threads, table, names) };
  }

  /** The threads on one row (column undefined) or cell, as the pane beside the grid shows them. */
  pane(table: string, key: Record<string, Cell>, column: string | undefined): { about: string; threads: ThreadPaneItem[] } {
    const target = { table, key, ...(column !== undefined ? { column } : {}) };
    const keyText = Object.entries(key)
      .map(([c, v]) => `${c} = ${v === null ? 'NULL' : v.length > 40 ? `${v.slice(0, 39)}…` : v}`)
      .join(', ');
    const about = [table, keyText, column].filter((x) => x !== undefined).join(', ');
    const threads = this.threads
      .filter((t) => sameTarget(t.anchor, target))
      .map((t): ThreadPaneItem => ({
        rootId: t.rootId,
        about,
        comments: t.comments.map((c) => {
          const s = c.anchor.suggestion;
          const applied = s ? t.comments.find((x) => x.anchor.applied === c.comment.comment_id)?.anchor.commit : undefined;
          return {
            id: c.comment.comment_id,
            author: c.comment.author,
            createdAt: c.comment.created_at,
            text: c.text,
            ...(s ? { suggestion: { value: s.value, ...(applied ? { appliedIn: applied } : {}) } } : {}),
          };
        }),
      }));
    return { about, threads };
  }
}
