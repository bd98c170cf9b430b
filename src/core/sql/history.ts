// Query history: every run with its target, time and outcome, newest first, bounded.
// Pure list operations; the notebook layer persists the list in globalState.
import type { QueryOutput, QueryTarget } from '../../shared/queryResultOutput';
import { NumericSettings, Settings } from '../../shared/ids';

export interface HistoryEntry {
  id: string;
  sql: string;
  target: QueryTarget;
  /** ISO time the run finished. */
  ranAt: string;
  status: string;
  rowCount: number;
  elapsedMs: number;
  /** The commit the ref pointed at, when known. */
  commit?: string;
}

export const DEFAULT_HISTORY_SIZE: number = NumericSettings[Settings.sqlHistorySize].default;

/** The history entry of one finished run: what ran where, when, and how it ended. */
export function historyEntryOf(output: QueryOutput, sql: string, target: QueryTarget): HistoryEntry {
  return {
    id: `${output.ranAt}-${Math.random().toString(36).slice(2, 8)}`,
    sql,
    target,
    ranAt: output.ranAt,
    status: String(output.result.status),
    rowCount: output.result.rows.length,
    elapsedMs: output.elapsedMs,
    ...(output.commit ? { commit: output.commit } : {}),
  };
}

/** Adds an entry at the front. The same SQL at the same target replaces its older entry. */
export function addHistoryEntry(list: readonly HistoryEntry[], entry: HistoryEntry, max = DEFAULT_HISTORY_SIZE): HistoryEntry[] {
  const key = entryKey(entry);
  const rest = list.filter((e) => entryKey(e) !== key);
  return [entry, ...rest].slice(0, Math.max(1, max));
}

function entryKey(e: HistoryEntry): string {
  const t = e.target;
  return `${t.hostId}\u0000${t.owner}/${t.name}\u0000${t.ref}\u0000${e.sql.trim()}`;
}

/**
 * Entries whose SQL, database (`owner/name`), ref or commit contains every word of the query
 * (case-insensitive), newest first. An empty query returns everything.
 */
export function searchHistory(list: readonly HistoryEntry[], query: string): HistoryEntry[] {
  return historySearcher(list)(query);
}

/**
 * `searchHistory` over a fixed list for a picker that searches on every keystroke: each entry's
 * text is lower-cased once, so a keystroke costs one substring scan per entry (5,000 entries,
 * the largest history, take well under a millisecond per word).
 */
export function historySearcher(list: readonly HistoryEntry[]): (query: string) => HistoryEntry[] {
  let haystacks: string[] | undefined;
  return (query) => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) return list.slice();
    haystacks ??= list.map((e) =>
      `${e.sql}\u0000${e.target.owner}/${e.target.name}\u0000${e.target.ref}\u0000${e.commit ?? ''}`.toLowerCase(),
    );
    const hay = haystacks;
    return list.filter((_, i) => words.every((w) => hay[i]!.includes(w)));
  };
}

/** Accepts what was stored, dropping entries that do not have the expected shape. */
export function readHistory(stored: unknown): HistoryEntry[] {
  if (!Array.isArray(stored)) return [];
  return stored.filter((e): e is HistoryEntry => {
    if (typeof e !== 'object' || e === null) return false;
    const h = e as Partial<HistoryEntry>;
    return (
      typeof h.id === 'string' &&
      typeof h.sql === 'string' &&
      typeof h.ranAt === 'string' &&
      !!h.target &&
      typeof h.target.hostId === 'string' &&
      typeof h.target.owner === 'string' &&
      typeof h.target.name === 'string' &&
      typeof h.target.ref === 'string'
    );
  });
}

/** One line for a picker: the SQL flattened and shortened. */
export function historyLabel(e: HistoryEntry, max = 80): string {
  const flat = e.sql.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The most rows the history picker shows at once; past it, a note asks for more words. */
export const HISTORY_PICKER_MAX_ROWS = 500;

/** What the picker shows for a query: the first matches, and how many more there are. */
export function historyMatches(
  search: (query: string) => HistoryEntry[],
  query: string,
  max = HISTORY_PICKER_MAX_ROWS,
): { shown: HistoryEntry[]; more: number } {
  const found = search(query);
  return { shown: found.slice(0, max), more: Math.max(0, found.length - max) };
}
