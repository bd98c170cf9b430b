// The paged grid's protocol: what the host and the grid (notebook output, SQL result panel,
// table browser, diff views) say to each other when rows arrive a page at a time instead of in
// one response. Shared by host and renderer; the host checks every message from the grid with
// `parseGridPagingMessage` before acting on it.
import type { Cell, QueryColumn } from './wire';
import type { QueryTarget } from './queryResultOutput';
import type { GridEditing } from './editProtocol';
import * as l10n from './l10n';

/** What a row is in a diff (issue #15); plain results carry no kind. */
export type RowKind = 'added' | 'modified' | 'removed';

export type SortDirection = 'asc' | 'desc';

/** A server-side sort key, by column name. */
export interface ColumnSort {
  column: string;
  direction: SortDirection;
}

/** A server-side filter on one column, by name. Values are text as the user typed them. */
export type ColumnFilter =
  | { column: string; op: 'equals'; value: string }
  | { column: string; op: 'contains'; value: string }
  /** Inclusive bounds; at least one of them. */
  | { column: string; op: 'range'; min?: string; max?: string }
  | { column: string; op: 'isNull' }
  | { column: string; op: 'isNotNull' };

export const FILTER_OPS = ['contains', 'equals', 'range', 'isNull', 'isNotNull'] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

/** Formats a whole (paged) source can be exported to, streamed by the host. */
export type StreamFormat = 'csv' | 'json' | 'jsonl' | 'sql' | 'markdown';
export const STREAM_FORMATS: readonly StreamFormat[] = ['csv', 'json', 'jsonl', 'sql', 'markdown'];
/** Getters: each text is translated when read, not when this module loads. */
export const STREAM_FORMAT_LABELS: Record<StreamFormat, string> = {
  get csv() {
    return l10n.t('CSV');
  },
  get json() {
    return l10n.t('JSON (array)');
  },
  get jsonl() {
    return l10n.t('JSON Lines');
  },
  get sql() {
    return l10n.t('SQL INSERT statements');
  },
  get markdown() {
    return l10n.t('Markdown');
  },
};
export const STREAM_FORMAT_EXTENSIONS: Record<StreamFormat, string> = {
  csv: 'csv',
  json: 'json',
  jsonl: 'jsonl',
  sql: 'sql',
  markdown: 'md',
};

/** Rows per page unless the host says otherwise: a fraction of any server cap, a few screens. */
export const DEFAULT_PAGE_SIZE = 500;

/**
 * A grid whose rows the host serves in pages: the table browser, or a result after
 * "Load All Rows". Every page is read at `commit`, so pages agree with each other.
 */
export interface PagedOutput {
  v: 1;
  kind: 'paged';
  /** Names this row source in every message (a panel or output may hold one at a time). */
  sourceId: string;
  columns: QueryColumn[];
  target: QueryTarget;
  /** The commit every page is read at. */
  commit: string;
  /** What the view shows, e.g. `products @ main` or the query. */
  title: string;
  pageSize: number;
  /** The row count when already known (a COUNT(*) may come later as `page.total`). */
  totalRows?: number;
  /** Sort and filter run on the server (the table browser); otherwise the header does not sort. */
  serverSort: boolean;
  serverFilter: boolean;
  /** Leading columns kept in view on horizontal scroll; default: the leading primary-key columns. */
  frozenColumns?: number;
  /** Said in the view, e.g. "No primary key: pages are read by position". */
  note?: string;
  /**
   * The table the rows are of, when they are one keyed table's rows at `commit` (the table
   * browser, a table's diff): the grid then offers Show Row History on a row, sending the values
   * of `keyColumns` (indexes into `columns`).
   */
  rowsOf?: { table: string; keyColumns: number[] };
  /** With `rowsOf`: the grid also offers Comment on Row / Cell (a pull's Changes view, issue #25). */
  rowComments?: boolean;
  /** Rows and cells with comments (key values in `rowsOf.keyColumns` order; no column: the row), drawn with their count. */
  commentMarks?: CommentMark[];
  sort?: ColumnSort[];
  filters?: ColumnFilter[];
  /** Editing (the table browser at a branch, issue #23), or why the rows are read-only; absent where a grid never edits. */
  edit?: GridEditing;
}

export function isPagedOutput(v: unknown): v is PagedOutput {
  if (!v || typeof v !== 'object') return false;
  const o = v as Partial<PagedOutput>;
  return (
    o.v === 1 &&
    o.kind === 'paged' &&
    typeof o.sourceId === 'string' &&
    Array.isArray(o.columns) &&
    !!o.target &&
    typeof o.commit === 'string' &&
    typeof o.pageSize === 'number' &&
    o.pageSize > 0
  );
}

/** A commented row or cell of a `rowsOf` output and how many comments its threads hold (issue #25). */
export interface CommentMark {
  key: Cell[];
  column?: string;
  count: number;
}

/** Grid → host. */
export type GridPagingMessage =
  /** Rows [start, end) of the source, in the current sort and filter. */
  | { type: 'page.request'; sourceId: string; requestId: number; start: number; end: number }
  /** The grid let go of a page it asked for (scrolled away): the host may drop or abort it. */
  | { type: 'page.cancel'; sourceId: string; requestId: number }
  /** The user changed the sort or the filters: the host answers with `page.reset`. */
  | { type: 'view.change'; sourceId: string; sort: ColumnSort[]; filters: ColumnFilter[] }
  /**
   * "Load All Rows" on a result that ended at the row limit; `key` is the result's
   * `QueryOutput.key` (a notebook holds many results; the SQL result panel one).
   */
  | { type: 'loadAll'; key?: string }
  /** The grid showing this paged source went away (re-rendered, cleared): the host stops serving it. */
  | { type: 'paged.closed'; sourceId: string }
  /** Export every row of the paged source, streamed by the host. */
  | { type: 'export.stream'; sourceId: string; format: StreamFormat }
  /** Reopen at the ref's new head (after `ref.moved`). */
  | { type: 'refresh'; sourceId: string }
  /**
   * Show Row History for one row of `rowsOf.table` (its key values, in `rowsOf.keyColumns`
   * order); `column` names the cell the user asked about, for blame.
   */
  | { type: 'row.history'; sourceId: string; key: Cell[]; column?: string }
  /**
   * Comment on one row of `rowsOf.table` (key as for `row.history`), on the cell of `column` when
   * given; `suggest`: a comment carrying a suggested value for that cell, `value` the cell as shown.
   */
  | { type: 'row.comment'; sourceId: string; key: Cell[]; column?: string; suggest?: { value: Cell } }
  /** Show the comments on one row (or its cell of `column`) beside the grid (key as for `row.history`). */
  | { type: 'row.thread'; sourceId: string; key: Cell[]; column?: string };

const GRID_PAGING_TYPES: ReadonlySet<string> = new Set<GridPagingMessage['type']>([
  'page.request',
  'page.cancel',
  'view.change',
  'loadAll',
  'paged.closed',
  'export.stream',
  'refresh',
  'row.history',
  'row.comment',
  'row.thread',
]);

/** Whether an already checked message from a view is a paging one (views mix them with their own). */
export function isGridPagingMessage(m: { type: string }): m is GridPagingMessage {
  return GRID_PAGING_TYPES.has(m.type);
}

/** Host → grid. */
export type HostPagingMessage =
  /** Show a paged source (after "Load All Rows", or a table browser opening). */
  | { type: 'paged.show'; output: PagedOutput }
  | {
      type: 'page.result';
      sourceId: string;
      requestId: number;
      start: number;
      rows: Cell[][];
      /** Per row, for diffs. */
      kinds?: (RowKind | null)[];
      /** Per row, the values before the change (modified rows of a diff), else null. */
      old?: (Cell[] | null)[];
      /** Fewer rows than asked for and nothing after them: the source ends here. */
      end?: boolean;
    }
  | { type: 'page.error'; sourceId: string; requestId: number; start: number; end: number; message: string }
  | { type: 'page.total'; sourceId: string; totalRows: number }
  /**
   * The sort or filter changed (or the view reopened): drop every page and start again. With
   * `message`, the change asked for was refused and `sort`/`filters` are the ones still in force.
   */
  | { type: 'page.reset'; sourceId: string; totalRows?: number; sort: ColumnSort[]; filters: ColumnFilter[]; message?: string }
  /** The ref the source was opened at has moved on; pages stay at `commit`. */
  | { type: 'ref.moved'; sourceId: string; ref: string; commit: string; movedTo: string }
  /** The comment counts on the rows changed (one was posted): the grid keeps its rows and place. */
  | { type: 'page.marks'; sourceId: string; commentMarks: CommentMark[] }
  /** "Load All Rows" could not start (not a single SELECT, duplicate column names ...). */
  | { type: 'loadAll.refused'; message: string };

const isInt = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
const MAX_PAGE_ROWS = 10_000;

function parseSort(v: unknown): ColumnSort[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: ColumnSort[] = [];
  for (const s of v) {
    if (!s || typeof s !== 'object') return undefined;
    const { column, direction } = s as Record<string, unknown>;
    if (typeof column !== 'string' || (direction !== 'asc' && direction !== 'desc')) return undefined;
    out.push({ column, direction });
  }
  return out;
}

function parseFilters(v: unknown): ColumnFilter[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: ColumnFilter[] = [];
  for (const f of v) {
    if (!f || typeof f !== 'object') return undefined;
    const { column, op, value, min, max } = f as Record<string, unknown>;
    if (typeof column !== 'string') return undefined;
    if ((op === 'equals' || op === 'contains') && typeof value === 'string') out.push({ column, op, value });
    else if (
      op === 'range' &&
      (typeof min === 'string' || typeof max === 'string') &&
      (min === undefined || typeof min === 'string') &&
      (max === undefined || typeof max === 'string')
    ) {
      out.push({ column, op, ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) });
    } else if (op === 'isNull' || op === 'isNotNull') out.push({ column, op });
    else return undefined;
  }
  return out;
}

/** Checks a message from the grid; undefined when it is not a well-formed paging message. */
export function parseGridPagingMessage(raw: unknown): GridPagingMessage | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const m = raw as Record<string, unknown>;
  switch (m.type) {
    case 'page.request':
      if (typeof m.sourceId !== 'string' || !isInt(m.requestId) || !isInt(m.start) || !isInt(m.end)) return undefined;
      if (m.end <= m.start || m.end - m.start > MAX_PAGE_ROWS) return undefined;
      return { type: 'page.request', sourceId: m.sourceId, requestId: m.requestId, start: m.start, end: m.end };
    case 'page.cancel':
      if (typeof m.sourceId !== 'string' || !isInt(m.requestId)) return undefined;
      return { type: 'page.cancel', sourceId: m.sourceId, requestId: m.requestId };
    case 'view.change': {
      const sort = parseSort(m.sort);
      const filters = parseFilters(m.filters);
      if (typeof m.sourceId !== 'string' || !sort || !filters) return undefined;
      return { type: 'view.change', sourceId: m.sourceId, sort, filters };
    }
    case 'loadAll':
      if (m.key !== undefined && (typeof m.key !== 'string' || m.key.length > 100)) return undefined;
      return typeof m.key === 'string' ? { type: 'loadAll', key: m.key } : { type: 'loadAll' };
    case 'paged.closed':
      if (typeof m.sourceId !== 'string') return undefined;
      return { type: 'paged.closed', sourceId: m.sourceId };
    case 'export.stream':
      if (typeof m.sourceId !== 'string' || !(STREAM_FORMATS as readonly unknown[]).includes(m.format)) return undefined;
      return { type: 'export.stream', sourceId: m.sourceId, format: m.format as StreamFormat };
    case 'refresh':
      if (typeof m.sourceId !== 'string') return undefined;
      return { type: 'refresh', sourceId: m.sourceId };
    case 'row.history':
    case 'row.thread':
    case 'row.comment': {
      if (typeof m.sourceId !== 'string' || !Array.isArray(m.key) || m.key.length === 0 || m.key.length > 64) return undefined;
      if (!m.key.every((c) => c === null || typeof c === 'string')) return undefined;
      if (m.column !== undefined && typeof m.column !== 'string') return undefined;
      const suggest = m.type === 'row.comment' && typeof m.column === 'string' ? suggestOf(m.suggest) : undefined;
      return {
        type: m.type,
        sourceId: m.sourceId,
        key: m.key as Cell[],
        ...(typeof m.column === 'string' ? { column: m.column } : {}),
        ...(suggest ? { suggest } : {}),
      };
    }
    default:
      return undefined;
  }
}

function suggestOf(v: unknown): { value: Cell } | undefined {
  if (typeof v !== 'object' || v === null || !('value' in v)) return undefined;
  const value = (v as { value: unknown }).value;
  return value === null || typeof value === 'string' ? { value } : undefined;
}
