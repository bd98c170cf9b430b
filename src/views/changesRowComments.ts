// What the Changes grid offers on the rows of a keyed table: Show Row History always, and in a
// pull's Changes view Comment on Row / Cell with each commented row and cell marked with its count
// (issue #25). The threads are read from the pull's comments each time a table is shown.
import type { HubClient } from '../api/hubClient';
import type { Logger } from '../core/logger';
import type { ChangesRequest } from '../core/review/requests';
import type { DiffPageSource } from '../core/review/diffSource';
import { commentMarksOf, splitThreads, type RowThread } from '../core/review/rowThreads';
import { sameTarget, type RowCommentRequest } from '../core/review/commentAnchor';
import { rowHistoryRequestFromGrid } from '../core/review/rowHistoryView';
import type { PullTarget } from '../core/targets';
import type { GridPagingMessage, HostPagingMessage, PagedOutput } from '../shared/gridPaging';
import type { ChangesHostMessage, ThreadPaneItem } from '../shared/changesProtocol';
import type { Cell } from '../shared/wire';
import { Rerun } from '../core/rerun';

export interface ChangesRowCommentsDeps {
  clientFor(hostId: string): Pick<HubClient, 'listPullComments'>;
  log: Logger;
  /** Asks for a comment on a row or cell and posts it (resolves undefined when nothing was posted); without it the grid offers none. */
  commentOnRow?(req: RowCommentRequest): Promise<unknown>;
  /** Asks for a reply on a thread and posts it at `head` (resolves undefined when nothing was posted). */
  replyToThread?(pull: PullTarget, thread: Pick<RowThread, 'rootId' | 'anchor'>, head: string): Promise<unknown>;
}

/** What the row comments need of the Changes view: the output the grid shows, and a way to post to it. */
export interface CommentView {
  output(): PagedOutput | undefined;
  post(m: ChangesHostMessage | HostPagingMessage): void;
}

export class ChangesRowComments {
  private threads: RowThread[] = [];
  /** The row or cell whose threads the pane beside the grid was last given. */
  private paneAt: { table: string; key: Record<string, Cell>; column: string | undefined } | undefined;
  /** The threads read again and the marks sent to the view last asked for (one more read for calls while one runs). */
  private readonly marking = new Rerun(async () => {
    if (this.markView) await this.readMarks(this.markView);
  });
  private markView: CommentView | undefined;

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

  /**
   * Comment on Row / Cell… or Suggest a Value… (posted: the table is shown again with its new mark),
   * and Show Comments (the row's or cell's threads in the pane beside the grid).
   */
  async onGrid(
    m: Extract<GridPagingMessage, { type: 'row.comment' | 'row.thread' }>,
    output: PagedOutput,
    view: CommentView,
  ): Promise<void> {
    const req = rowHistoryRequestFromGrid(output, m.key, m.column);
    const pull = this.pull;
    if (!req || !pull) return;
    const { table, key, column } = req;
    if (m.type === 'row.thread') return this.showPane(view, table, key, column);
    const anchor = { table, key, commit: output.commit, ...(column !== undefined ? { column } : {}) };
    const suggest = m.suggest && column !== undefined ? { suggest: m.suggest } : {};
    if (await this.deps.commentOnRow?.({ pull, anchor, ...suggest })) await this.showMarks(view);
  }

  /**
   * The pull's comments changed (posted here or anywhere else in the window): the grid's marks, and
   * the pane if it still shows the same row or cell, are shown as they are now.
   */
  async commentsChanged(view: CommentView): Promise<void> {
    if (!this.pull) return;
    await this.showMarks(view);
    const at = this.paneAt;
    if (at) view.post({ type: 'changes.thread', ...this.pane(at.table, at.key, at.column), refresh: true });
  }

  private showPane(view: CommentView, table: string, key: Record<string, Cell>, column: string | undefined): void {
    this.paneAt = { table, key, column };
    view.post({ type: 'changes.thread', ...this.pane(table, key, column) });
  }

  /**
   * After a post: the threads read again and the grid sent their new counts. The grid keeps its
   * rows, its place and its selection (showing the table again would read it from the top). Calls
   * while a read runs share one more read after it (it may have started before their post).
   */
  private showMarks(view: CommentView): Promise<void> {
    this.markView = view;
    return this.marking.run();
  }

  private async readMarks(view: CommentView): Promise<void> {
    await this.read();
    const output = view.output();
    const rowsOf = output?.rowsOf;
    if (!output || !rowsOf || !output.rowComments) return;
    const names = rowsOf.keyColumns.map((c) => output.columns[c]?.name ?? '');
    output.commentMarks = commentMarksOf(this.threads, rowsOf.table, names);
    view.post({ type: 'page.marks', sourceId: output.sourceId, commentMarks: output.commentMarks });
  }

  /** Reply on a thread of the pane at `head`: posted, the grid's marks and the pane are shown again with it. */
  async replyInPane(rootId: string, head: string, view: CommentView): Promise<void> {
    const thread = this.threads.find((t) => t.rootId === rootId);
    const pull = this.pull;
    if (!thread || !pull || !(await this.deps.replyToThread?.(pull, thread, head))) return;
    await this.showMarks(view);
    const { table, key, column } = thread.anchor;
    this.showPane(view, table, key, column);
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
