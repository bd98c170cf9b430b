// Threads of row and cell comments (issue #25): a pull's comments split into anchored threads (a
// first comment and its replies, oldest first) and the conversation (every other comment), and
// where a thread stands now: its row read at the commit the thread was written at and at the head
// the view shows (current, outdated when the row or cell changed since, or deleted). A thread
// whose table or row cannot be read where it was written is not trusted: its comments go back to
// the conversation as the text they are.
import type { Cell, PullComment, QueryResult } from '../../shared/wire';
import type { CommentMark } from '../../shared/gridPaging';
import { quoteIdentifier } from '../sql/quote';
import type { ReviewRunner } from '../sql/sqlPort';
import type { TableColumnInfo } from '../sql/tableQuery';
import { parseAnchoredBody, sameTarget, type CommentAnchor } from './commentAnchor';
import { buildColumnsQuery, keyWhere, type DoltQuery } from './doltQueries';
import { parseColumns } from './rowDiff';
import { cellAt, completenessOf } from './resultReader';

export interface ThreadComment {
  comment: PullComment;
  anchor: CommentAnchor;
  /** The comment's own text (markdown), without the anchor lines. */
  text: string;
}

export interface RowThread {
  rootId: string;
  /** The first comment's anchor: the row, the cell and the commit the thread was started at. */
  anchor: CommentAnchor;
  comments: ThreadComment[];
}

/** Splits comments (in server order) into anchored threads and the conversation. */
export function splitThreads(comments: readonly PullComment[]): { threads: RowThread[]; conversation: PullComment[] } {
  const threads: RowThread[] = [];
  const byRoot = new Map<string, RowThread>();
  const conversation: PullComment[] = [];
  for (const comment of comments) {
    const { anchor, text } = parseAnchoredBody(comment.body);
    if (!anchor) {
      conversation.push(comment);
      continue;
    }
    const root = anchor.replyTo !== undefined ? byRoot.get(anchor.replyTo) : undefined;
    // A reply joins its thread only when it names the same row and cell.
    if (root && sameTarget(root.anchor, anchor)) {
      root.comments.push({ comment, anchor, text });
      continue;
    }
    const thread: RowThread = { rootId: comment.comment_id, anchor, comments: [{ comment, anchor, text }] };
    threads.push(thread);
    byRoot.set(comment.comment_id, thread);
  }
  return { threads, conversation };
}

export type ThreadState =
  | { kind: 'current' }
  /** The row (or the commented cell) differs at the head from when the thread was written. */
  | { kind: 'outdated'; was: Cell | undefined; now: Cell | undefined }
  | { kind: 'deleted' }
  /** The table or row is not there at the thread's commit: the anchor is not trusted. */
  | { kind: 'invalid'; reason: string };

/** The row of `anchor` at `at`: its cells by column, or undefined when the table has no such row. */
export function buildRowAtQuery(columns: readonly TableColumnInfo[], anchor: CommentAnchor, at: string): DoltQuery {
  const key = columns.filter((c) => c.primaryKey).map((c) => anchor.key[c.name] ?? null);
  return { sql: `SELECT * FROM ${quoteIdentifier(anchor.table)} WHERE ${keyWhere(columns, key)} LIMIT 2`, at };
}

function rowOf(result: QueryResult): Record<string, Cell> | undefined {
  completenessOf(result);
  const row = result.rows[0];
  return row ? Object.fromEntries(result.columns.map((c, i) => [c.name, cellAt(row, i)])) : undefined;
}

async function rowAt(run: ReviewRunner, anchor: CommentAnchor, at: string): Promise<Record<string, Cell> | undefined | 'noTable'> {
  let columns: TableColumnInfo[];
  try {
    columns = parseColumns(await run(buildColumnsQuery(anchor.table, at)));
  } catch {
    return 'noTable';
  }
  const keyNames = columns.filter((c) => c.primaryKey).map((c) => c.name);
  const names = Object.keys(anchor.key);
  if (keyNames.length === 0 || keyNames.length !== names.length || !keyNames.every((k) => k in anchor.key)) return 'noTable';
  return rowOf(await run(buildRowAtQuery(columns, anchor, at)));
}

/**
 * Where the thread stands at `head`, read with `run` (the database the pull's diff is read in).
 * `base` (the pull's merge base) vouches for a comment on a removed row: the row was there.
 */
export async function threadState(run: ReviewRunner, thread: RowThread, head: string, base?: string): Promise<ThreadState> {
  const a = thread.anchor;
  const then = await rowAt(run, a, a.commit).catch(() => 'noTable' as const);
  if (then === 'noTable') return { kind: 'invalid', reason: `${a.table} has no such key at ${a.commit.slice(0, 8)}` };
  const now = await rowAt(run, a, head);
  if (then === undefined) {
    // A comment on a removed row: the row was there at the merge base; still gone is current.
    const before = base !== undefined ? await rowAt(run, a, base).catch(() => undefined) : undefined;
    if (before === undefined || before === 'noTable') return { kind: 'invalid', reason: `${a.table} has no such row` };
    return now === undefined || now === 'noTable' ? { kind: 'current' } : { kind: 'outdated', was: undefined, now: undefined };
  }
  if (now === undefined || now === 'noTable') return { kind: 'deleted' };
  if (a.column !== undefined) {
    if (!(a.column in then)) return { kind: 'invalid', reason: `${a.table} has no column ${a.column}` };
    return then[a.column] === now[a.column] ? { kind: 'current' } : { kind: 'outdated', was: then[a.column], now: now[a.column] };
  }
  const cols = new Set([...Object.keys(then), ...Object.keys(now)]);
  return [...cols].every((c) => then[c] === now[c]) ? { kind: 'current' } : { kind: 'outdated', was: undefined, now: undefined };
}

/** The grid marks of `table`'s threads: key values in `keyColumns` order, the column, and the comments' count. */
export function commentMarksOf(threads: readonly RowThread[], table: string, keyColumns: readonly string[]): CommentMark[] {
  const marks = new Map<string, CommentMark>();
  for (const t of threads) {
    const a = t.anchor;
    if (a.table !== table || Object.keys(a.key).length !== keyColumns.length || !keyColumns.every((k) => k in a.key)) continue;
    const key = keyColumns.map((k) => a.key[k] ?? null);
    const id = JSON.stringify([key, a.column ?? null]);
    const mark = marks.get(id) ?? { key, ...(a.column !== undefined ? { column: a.column } : {}), count: 0 };
    mark.count += t.comments.length;
    marks.set(id, mark);
  }
  return [...marks.values()];
}
