// Commits as the history views show them, from DOLT_LOG(…, '--parents') and the other
// commit-level queries of ./doltQueries.
import type { QueryResult } from '../../shared/wire';
import { SHORT_HASH_LENGTH } from '../commitHash';
import { ReviewResultError, cellAt, completenessOf, doltTimeToMillis, pageRows, requireColumn, textAt, type Page } from './resultReader';
import { isCommitHashText, twoDot, type RevisionPair } from './revisions';

export interface Commit {
  hash: string;
  shortHash: string;
  /** The first line of the message. */
  subject: string;
  message: string;
  /** The committer's name (DOLT_LOG's `committer`). */
  author: string;
  email: string;
  /** The date as Dolt sent it. */
  date: string;
  /** `date` in milliseconds since the epoch, when it parses. */
  time: number | undefined;
  /** Parent hashes, first parent first; empty for the first commit. */
  parents: string[];
  isMerge: boolean;
}

export function firstLine(message: string): string {
  const nl = message.search(/\r?\n/);
  return (nl < 0 ? message : message.slice(0, nl)).trim();
}

/** DOLT_LOG's `parents`: hashes joined by ", " (empty for the first commit). */
export function parseParentList(text: string | null): string[] {
  if (!text) return [];
  return text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** A page of a DOLT_LOG query from buildLogQuery / buildTableLogQuery (asked for pageSize + 1 rows). */
export function parseCommitPage(result: QueryResult, pageSize: number): Page<Commit> {
  const completeness = completenessOf(result);
  const col = (name: string): number => requireColumn(result, name, 'commit log');
  const [hashI, committerI, emailI, dateI, messageI, parentsI] = ['commit_hash', 'committer', 'email', 'date', 'message', 'parents'].map(
    col,
  ) as [number, number, number, number, number, number];
  const { rows, hasMore } = pageRows(result, pageSize);
  const items = rows.map((row): Commit => {
    const hash = textAt(row, hashI, 'commit hash');
    const message = cellAt(row, messageI) ?? '';
    const date = cellAt(row, dateI) ?? '';
    const parents = parseParentList(cellAt(row, parentsI));
    return {
      hash,
      shortHash: hash.slice(0, SHORT_HASH_LENGTH),
      subject: firstLine(message),
      message,
      author: cellAt(row, committerI) ?? '',
      email: cellAt(row, emailI) ?? '',
      date,
      time: doltTimeToMillis(date),
      parents,
      isMerge: parents.length > 1,
    };
  });
  return { items, hasMore, completeness };
}

/** The parents of a commit (buildParentsQuery), first parent first; [] for the first commit. */
export function parseParents(result: QueryResult): string[] {
  completenessOf(result);
  const hashI = requireColumn(result, 'parent_hash', 'parents');
  const indexI = requireColumn(result, 'parent_index', 'parents');
  return result.rows
    .map((row) => ({ hash: cellAt(row, hashI), index: Number(cellAt(row, indexI) ?? 0) }))
    .filter((p): p is { hash: string; index: number } => p.hash !== null && p.hash !== '')
    .sort((a, b) => a.index - b.index)
    .map((p) => p.hash);
}

function hashIn(result: QueryResult, column: string, what: string): string {
  completenessOf(result);
  const i = requireColumn(result, column, what);
  const row = result.rows[0];
  if (!row) throw new ReviewResultError(`The ${what} query returned no row.`);
  const h = cellAt(row, i);
  if (h === null || !isCommitHashText(h)) throw new ReviewResultError(`The ${what} is not a commit hash: ${JSON.stringify(h)}.`);
  return h;
}

/** The hash from buildHashOfQuery. */
export function parseHashOf(result: QueryResult): string {
  return hashIn(result, 'commit_hash', 'commit');
}

/** The hash from buildMergeBaseQuery. */
export function parseMergeBase(result: QueryResult): string {
  return hashIn(result, 'merge_base', 'merge base');
}

/** The pinned two-dot pair of hashes from buildPinPairQuery. */
export function parsePinnedPair(result: QueryResult): RevisionPair {
  return twoDot(hashIn(result, 'from_commit', 'start commit'), hashIn(result, 'to_commit', 'end commit'));
}

/** The commits buildReachableQuery found reachable. */
export function parseReachable(result: QueryResult): Set<string> {
  completenessOf(result);
  const i = requireColumn(result, 'commit_hash', 'reachable commits');
  return new Set(result.rows.map((r) => cellAt(r, i)).filter((h): h is string => h !== null));
}

/**
 * The merge base of a cross-fork pull: the first of the fork head's log (newest first, as DOLT_LOG
 * lists it) that the target branch can reach.
 */
export function firstReachable(forkLog: readonly string[], reachable: ReadonlySet<string>): string | undefined {
  return forkLog.find((h) => reachable.has(h));
}
