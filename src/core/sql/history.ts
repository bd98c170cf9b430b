// Query history: every run with its target, time and outcome, newest first, bounded.
// Pure list operations; the notebook layer persists the list in globalState.
import type { QueryTarget } from '../../shared/queryResultOutput';

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

export const DEFAULT_HISTORY_SIZE = 500;

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
 * Entries whose SQL or target contains every word of the query (case-insensitive), newest
 * first. An empty query returns everything.
 */
export function searchHistory(list: readonly HistoryEntry[], query: string): HistoryEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return list.slice();
  return list.filter((e) => {
    const hay = `${e.sql} ${e.target.owner}/${e.target.name} ${e.target.ref}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
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
