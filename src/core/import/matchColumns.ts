/** How source columns land in a table: source column name → table column name. */
export interface ColumnMatch {
  /** Every matched source column → its table column. */
  columnMap: Record<string, string>;
  /** Source columns with no table column of a matching name (their values would be dropped). */
  unmatchedSource: string[];
  /** Table columns no source column fills (they get their default or NULL). */
  unfilledTable: string[];
}

/** Names compare without case, `_`, `-`, spaces and dots: `Order ID` matches `order_id`. */
export function normalizeColumnName(name: string): string {
  return name.toLowerCase().replace(/[\s_\-.]+/g, '');
}

/**
 * Matches by name: an exact match first, then a case-insensitive one, then a normalized one
 * (see normalizeColumnName). Each table column is used at most once.
 */
export function matchColumns(sourceColumns: readonly string[], tableColumns: readonly string[]): ColumnMatch {
  const columnMap: Record<string, string> = {};
  const taken = new Set<string>();
  const passes: ((s: string) => string)[] = [(s) => s, (s) => s.toLowerCase(), normalizeColumnName];
  for (const key of passes) {
    const byKey = new Map<string, string>();
    for (const t of tableColumns) {
      if (taken.has(t)) continue;
      const k = key(t);
      if (!byKey.has(k)) byKey.set(k, t);
    }
    for (const s of sourceColumns) {
      if (Object.hasOwn(columnMap, s)) continue;
      const t = byKey.get(key(s));
      if (t !== undefined && !taken.has(t)) {
        columnMap[s] = t;
        taken.add(t);
      }
    }
  }
  return {
    columnMap,
    unmatchedSource: sourceColumns.filter((s) => !Object.hasOwn(columnMap, s)),
    unfilledTable: tableColumns.filter((t) => !taken.has(t)),
  };
}

/** Only the entries that rename (source ≠ destination): what the API's `column_map` needs. */
export function renamingEntries(columnMap: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [s, t] of Object.entries(columnMap)) if (s !== t) out[s] = t;
  return out;
}
