import type { Cell } from './tableReader';

/**
 * Single columns that could be a new table's primary key, best first: no NULL or empty value
 * and no repeat among the rows seen. Within those, a column named `id` comes first, then
 * names ending in `id` / `_key` / `code`, then file order. When the file declares a key
 * (sql), that key is the only candidate list offered. Empty when no single column fits
 * (the user must then pick several, or fix the file).
 */
export function candidatePrimaryKeys(
  columns: readonly string[],
  rows: readonly (readonly Cell[])[],
  declared?: readonly string[],
): string[] {
  if (declared && declared.length > 0) return [...declared];
  if (rows.length === 0) return [];
  const fits = columns.filter((_, i) => {
    const seen = new Set<string>();
    for (const row of rows) {
      const v = row[i];
      if (v === null || v === undefined || v.trim() === '') return false;
      if (seen.has(v)) return false;
      seen.add(v);
    }
    return true;
  });
  const rank = (name: string): number => {
    const n = name.toLowerCase();
    if (n === 'id') return 0;
    if (/(?:^|[_\s-])id$|[a-z]Id$/.test(name) || n.endsWith('_id') || n.endsWith('_key') || n === 'key' || n.endsWith('code')) return 1;
    return 2;
  };
  return fits
    .map((name, order) => ({ name, order, rank: rank(name) }))
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .map((c) => c.name);
}
