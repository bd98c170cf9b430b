// What the result grid tells and gives back: the summary line of its toolbar, the sort order in
// words, copying the selection and exporting every row (a whole result formatted here, a paged
// source streamed by the host). Pure functions over the grid's current state; resultGrid.ts calls them.
import type { QueryOutput } from '../shared/queryResultOutput';
import {
  EXPORT_FORMATS,
  FORMAT_EXTENSIONS,
  FORMAT_LABELS,
  formatResult,
  type CopyFormat,
  type ExportFormat,
} from '../shared/queryResultFormat';
import {
  STREAM_FORMATS,
  STREAM_FORMAT_LABELS,
  isPagedOutput,
  type ColumnFilter,
  type GridPagingMessage,
  type PagedOutput,
  type StreamFormat,
} from '../shared/gridPaging';
import type { GridEditMessage } from '../shared/editProtocol';
import type { GridModel } from './gridModel';
import type { RowSource } from './rowSource';
import { shortHash } from './gridChrome';
import { describeFilter } from './filterForm';
import * as l10n from '../shared/l10n';

/** What the grid needs from whoever hosts it (notebook renderer context or webview panel). */
export interface GridHost {
  /** Puts text on the system clipboard (through the extension host when possible). */
  copy(text: string, format: CopyFormat, rows: number): void;
  /** Asks the extension host to save the content through its save dialog. */
  export(format: ExportFormat, content: string, suggestedName: string, rows: number): void;
  /**
   * Paging messages (page requests, sort and filter, Load All Rows, streamed export) and, from an
   * editable table browser, editing ones. Hosts without it show whole responses only.
   */
  post?(message: GridPagingMessage | GridEditMessage): void;
}

export type GridContent = QueryOutput | PagedOutput;

/** The grid as these functions read it. */
export interface GridState {
  model: GridModel;
  source: RowSource;
  content: GridContent;
  filters: readonly ColumnFilter[];
  host: GridHost;
  announce(text: string): void;
}

/** The toolbar's summary: rows × columns, where it was read, filters or time taken. */
export function summaryText(g: GridState): string {
  const m = g.model;
  const p = isPagedOutput(g.content) ? g.content : undefined;
  const t = g.content.target;
  const commit = g.content.commit;
  const at = commit && commit !== t.ref ? ` (${shortHash(commit)})` : '';
  if (p) {
    const src = g.source;
    const n = grouped(src.rowCount);
    const rows = src.totalKnown ? rowCount(src.rowCount, n) : l10n.t('counting rows…');
    const filters = g.filters.length ? l10n.t(' · where {0}', g.filters.map(describeFilter).join(l10n.t(' and '))) : '';
    return l10n.t('{0} × {1} columns · {2}/{3} @ {4}{5}{6}', rows, m.columnCount, t.owner, t.name, t.ref, at, filters);
  }
  const total = m.totalRowCount;
  const rows =
    m.filter && m.rowCount !== total ? l10n.t('{0} of {1} rows', grouped(m.rowCount), grouped(total)) : rowCount(total, grouped(total));
  const ms = Math.round((g.content as QueryOutput).elapsedMs);
  return l10n.t('{0} × {1} columns · {2}/{3} @ {4}{5} · {6} ms', rows, m.columnCount, t.owner, t.name, t.ref, at, ms);
}

/**
 * 1234567 → "1,234,567", as toLocaleString('en-US') writes a whole number, without starting ICU's
 * number formatting (5–6 ms of the grid's first paint, measured at 100,000 × 20).
 */
export function grouped(n: number): string {
  const s = String(Math.trunc(n));
  return Number.isFinite(n) ? s.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : s;
}

function rowCount(n: number, text: string): string {
  return n === 1 ? l10n.t('1 row') : l10n.t('{0} rows', text);
}

/** The sort order in words, for the screen reader announcement. */
export function sortDescription(model: GridModel): string {
  const keys = model.sort;
  if (keys.length === 0) return l10n.t('original order');
  return keys
    .map((k) =>
      k.direction === 'asc'
        ? l10n.t('{0} ascending', model.columns[k.column]?.name ?? k.column)
        : l10n.t('{0} descending', model.columns[k.column]?.name ?? k.column),
    )
    .join(', ');
}

/** Whether every selected row is in hand (always, for a whole result). */
export function selectionLoaded(model: GridModel, src: RowSource): boolean {
  const s = model.selection;
  if (!src.isLoaded) return true;
  return !!s && src.isLoaded(s.top, s.bottom);
}

/** Copies the selection (or the whole view) in a format; TSV without header for Ctrl+C. */
export function copySelection(g: GridState, format: CopyFormat, plainCtrlC = false): void {
  if (isPagedOutput(g.content) && !g.model.selection) {
    g.announce(l10n.t('Select the rows to copy; Export saves every row.'));
    return;
  }
  if (!selectionLoaded(g.model, g.source)) {
    g.announce(l10n.t('Some selected rows are not loaded yet: scroll to them first, or use Export for every row.'));
    return;
  }
  const { columns, table } = g.model.selectedTable();
  const sel = g.model.selection;
  const header = !(plainCtrlC && sel && !(sel.top === 0 && sel.bottom === g.model.rowCount - 1));
  const text = formatResult(format, columns, table, { header });
  const rows = table.rowCount;
  g.host.copy(text, format, rows);
  g.announce(
    rows === 1 ? l10n.t('Copied 1 row as {0}', FORMAT_LABELS[format]) : l10n.t('Copied {0} rows as {1}', rows, FORMAT_LABELS[format]),
  );
}

/** Exports every row of a whole result (sorted as shown, filter ignored) through the host. */
export function exportAll(g: GridState, format: ExportFormat): void {
  const m = g.model;
  const table = m.exportTable();
  const content = formatResult(format, m.columns, table);
  const t = g.content.target;
  const base = `${t.name}-${t.ref}`.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
  g.host.export(format, content, `${base}.${FORMAT_EXTENSIONS[format]}`, table.rowCount);
  g.announce(l10n.t('Exporting {0} rows as {1}', table.rowCount, FORMAT_LABELS[format]));
}

/** Asks the host to stream every row of the paged source into a file. */
export function exportStream(g: GridState, format: StreamFormat): void {
  const p = isPagedOutput(g.content) ? g.content : undefined;
  if (!p) return;
  g.host.post?.({ type: 'export.stream', sourceId: p.sourceId, format });
  g.announce(l10n.t('Exporting every row as {0}', STREAM_FORMAT_LABELS[format]));
}

/** The toolbar's export formats and what Export… does: stream a paged source, format a whole result. */
export function exportChoices(g: GridState): { formats: { value: string; label: string }[]; title: string; run: (format: string) => void } {
  return isPagedOutput(g.content)
    ? {
        formats: STREAM_FORMATS.map((f) => ({ value: f, label: STREAM_FORMAT_LABELS[f] })),
        title: l10n.t('Save every row to a file, read page by page'),
        run: (f) => exportStream(g, f as StreamFormat),
      }
    : {
        formats: EXPORT_FORMATS.map((f) => ({ value: f, label: FORMAT_LABELS[f] })),
        title: l10n.t('Save the whole result to a file'),
        run: (f) => exportAll(g, f as ExportFormat),
      };
}
