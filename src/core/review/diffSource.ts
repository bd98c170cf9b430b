// A table's row diff as a `PageSource` for the shared paged grid: rows keyed and ordered by primary
// key, read page by page with buildRowDiffPageQuery (keyset after the row before when that page
// was read, else by offset: a jump, or a keyless table), filtered by kind on the server. Each row
// carries its kind and, for a modified row, the old values (the grid shows old → new in the cells
// that changed). A page the server cut at its row cap is completed with further reads from where it
// stopped; a page it timed out on fails with a message (Retry), and `onPartial` is told, so the view
// never shows a partial diff as complete.
import type { Cell, QueryColumn } from '../../shared/wire';
import type { PageRows, PageSource, PageView } from '../paging/pageServer';
import {
  buildChangedColumnsQuery,
  buildRowDiffCountQuery,
  buildRowDiffPageQuery,
  diffKeysetSupported,
  type DiffPagePosition,
  type DiffTableSpec,
  type RowDiffKind,
} from './doltQueries';
import { diffColumns, parseRowDiffCounts, parseRowDiffPage, rowDiffExportTable, type DiffColumn, type RowDiff } from './rowDiff';
import { completenessOf, countAt, type Completeness } from './resultReader';
import type { ReviewRunner } from '../sql/sqlPort';
import type { RevisionPair } from './revisions';

export class PartialDiffError extends Error {
  override readonly name = 'PartialDiffError';
}

export interface DiffSourceOptions {
  pair: RevisionPair;
  spec: DiffTableSpec;
  run: ReviewRunner;
  /** Only these kinds (all when omitted). */
  kinds?: readonly RowDiffKind[];
  /** Only these columns, in this order (hide unchanged columns); all when omitted. */
  columns?: readonly string[];
  /** The row count when already known (e.g. from DOLT_DIFF_STAT); else counted on the server. */
  knownTotal?: number;
  /** Told when an answer was partial (a timeout, or a count cut short). */
  onPartial?: (c: Completeness) => void;
}

/** Cursors kept per source: a position's key is enough to read on from there by keyset. */
const MAX_CURSORS = 2000;

export class DiffPageSource implements PageSource {
  readonly columns: DiffColumn[];
  private readonly keyset: boolean;
  /** Row position → key of the row just before it (the keyset cursor to read from there). */
  private readonly cursors = new Map<number, Cell[]>();

  constructor(private readonly o: DiffSourceOptions) {
    const all = diffColumns(o.spec);
    this.columns = o.columns ? o.columns.map((n) => all.find((c) => c.name === n)).filter((c): c is DiffColumn => !!c) : all;
    this.keyset = diffKeysetSupported(o.spec);
  }

  /** The grid's columns: the diff's column names, typed as the new side has them. */
  gridColumns(): QueryColumn[] {
    const types = new Map([...this.o.spec.fromColumns, ...this.o.spec.toColumns].map((c) => [c.name, c.type]));
    return this.columns.map((c) => ({ name: c.name, type: types.get(c.name) ?? '' }));
  }

  /** Indexes (into `gridColumns`) of the primary key, for Show Row History. */
  keyColumns(): number[] {
    return this.columns.flatMap((c, i) => (c.primaryKey ? [i] : []));
  }

  checkView(view: PageView): string | undefined {
    return view.sort.length || view.filters.length
      ? 'A diff is ordered by primary key; filter it by kind of change above the grid.'
      : undefined;
  }

  async count(_view: PageView, signal: AbortSignal): Promise<number | undefined> {
    if (this.o.knownTotal !== undefined) return this.o.knownTotal;
    const counts = parseRowDiffCounts(await this.o.run(buildRowDiffCountQuery(this.o.pair, this.o.spec.table), { limit: 10, signal }));
    if (!counts.completeness.complete) {
      this.o.onPartial?.(counts.completeness);
      return undefined;
    }
    const kinds = this.o.kinds ?? ['added', 'modified', 'removed'];
    return kinds.reduce((n, k) => n + counts[k], 0);
  }

  async read(start: number, end: number, _view: PageView, signal: AbortSignal): Promise<PageRows> {
    const diffs = await this.readDiffs(start, end, signal);
    const rows: Cell[][] = [];
    const old: (Cell[] | null)[] = [];
    for (const d of diffs.rows) {
      const cells = new Map(d.cells.map((c) => [c.column, c]));
      const row = this.columns.map((c) => {
        const cell = cells.get(c.name);
        return cell ? (d.kind === 'removed' ? (cell.old ?? null) : (cell.new ?? cell.old ?? null)) : null;
      });
      rows.push(row);
      old.push(
        d.kind === 'modified'
          ? this.columns.map((c, i) => {
              const cell = cells.get(c.name);
              // Only a changed cell carries a different old value: the grid marks old ≠ new.
              return cell?.changed ? (cell.old ?? null) : (row[i] ?? null);
            })
          : null,
      );
    }
    return { rows, kinds: diffs.rows.map((d) => d.kind), old, ...(diffs.end ? { end: true } : {}) };
  }

  /** Rows [start, end) of the diff as RowDiffs; `end` when nothing follows them. */
  async readDiffs(start: number, end: number, signal: AbortSignal): Promise<{ rows: RowDiff[]; end: boolean }> {
    const out: RowDiff[] = [];
    let at = start;
    while (at < end) {
      const want = end - at;
      const cursor = at === 0 ? undefined : this.cursors.get(at);
      const position: DiffPagePosition =
        at === 0 ? { kind: 'first' } : cursor && this.keyset ? { kind: 'after', key: cursor } : { kind: 'offset', offset: at };
      const query = buildRowDiffPageQuery(this.o.pair, this.o.spec, {
        position,
        pageSize: want,
        ...(this.o.kinds ? { kinds: this.o.kinds } : {}),
      });
      const answer = await this.o.run(query, { limit: want + 1, signal });
      const completeness = completenessOf(answer);
      if (!completeness.complete && completeness.reason === 'timeout') {
        this.o.onPartial?.(completeness);
        throw new PartialDiffError(
          `The server stopped reading this diff at its time limit; rows from ${(at + 1).toLocaleString('en-US')} on are not shown. Retry, or filter by kind.`,
        );
      }
      const page = parseRowDiffPage(answer, this.o.spec, want);
      out.push(...page.rows);
      at += page.rows.length;
      const last = page.rows[page.rows.length - 1];
      if (last && this.keyset) this.remember(at, last.key);
      // Cut at the server's row cap: the rows that came are right; read on from after them.
      if (!page.completeness.complete && page.rows.length > 0) continue;
      if (!page.completeness.complete)
        throw new PartialDiffError(`The server returned no rows of this page (${page.completeness.message ?? page.completeness.reason}).`);
      if (!page.hasMore) return { rows: out, end: true };
    }
    return { rows: out, end: false };
  }

  private remember(position: number, key: Cell[]): void {
    if (this.cursors.size >= MAX_CURSORS) {
      const oldest = this.cursors.keys().next().value as number;
      this.cursors.delete(oldest);
    }
    this.cursors.set(position, key);
  }

  /** The same diff as export rows: `diff_type`, then `from_<c>`/`to_<c>` (rowDiffExportTable). */
  exportSource(): { columns: QueryColumn[]; source: PageSource } {
    const columns = rowDiffExportTable(this.columns, []).columns;
    return {
      columns,
      source: {
        read: async (start, end, _view, signal) => {
          const d = await this.readDiffs(start, end, signal);
          return { rows: rowDiffExportTable(this.columns, d.rows).rows, ...(d.end ? { end: true } : {}) };
        },
      },
    };
  }
}

/**
 * The columns to show with "hide unchanged columns": the key, the columns only one side has, and
 * every column changed in at least one modified row of the whole diff (one scan on the server).
 * Undefined when the answer was partial: then every column stays.
 */
export async function changedDiffColumns(
  pair: RevisionPair,
  spec: DiffTableSpec,
  run: ReviewRunner,
  signal?: AbortSignal,
): Promise<string[] | undefined> {
  const columns = diffColumns(spec);
  const both = columns.filter((c) => c.presence === 'both' && !c.primaryKey).map((c) => c.name);
  if (both.length === 0) return columns.map((c) => c.name);
  const answer = await run(buildChangedColumnsQuery(pair, spec.table, both), { limit: 2, ...(signal ? { signal } : {}) });
  if (!completenessOf(answer).complete) return undefined;
  const row = answer.rows[0] ?? [];
  const changed = new Set(both.filter((_, i) => (countAt(row, i, 'changed flag') ?? 0) > 0));
  const anyModifiedChange = changed.size > 0;
  // No modified row changed anything: the diff is whole rows added or removed; keep them whole.
  if (!anyModifiedChange) return columns.map((c) => c.name);
  return columns.filter((c) => c.primaryKey || c.presence !== 'both' || changed.has(c.name)).map((c) => c.name);
}
