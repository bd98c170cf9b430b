// Text forms of a query result: what the grid copies, what "Export" writes and what the
// notebook's markdown fallback shows. Pure (no DOM, no node, no vscode) because both the
// renderer (copy) and the extension host (export, markdown fallback) use it. Rows come as
// arrays or as any CellTable (the grid's compact store, a selection of it), read cell by cell.
import type { Cell, QueryColumn } from './wire';
import { BINARY_CELL } from './wire';
import { asCellTable, type CellSource } from './columnStore';
import * as l10n from './l10n';

export type CopyFormat = 'tsv' | 'csv' | 'markdown' | 'json';
export const COPY_FORMATS: readonly CopyFormat[] = ['tsv', 'csv', 'markdown', 'json'];
export type ExportFormat = 'csv' | 'json' | 'markdown';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['csv', 'json', 'markdown'];

/** Getters: each text is translated when read, not when this module loads. */
export const FORMAT_LABELS: Record<CopyFormat, string> = {
  get tsv() {
    return l10n.t('TSV');
  },
  get csv() {
    return l10n.t('CSV');
  },
  get markdown() {
    return l10n.t('Markdown');
  },
  get json() {
    return l10n.t('JSON');
  },
};

export const FORMAT_EXTENSIONS: Record<ExportFormat, string> = {
  csv: 'csv',
  json: 'json',
  markdown: 'md',
};

/** What the grid shows for NULL; never confusable with the text 'NULL' because it is styled apart. */
export const NULL_DISPLAY = 'NULL';

export function isBinaryCell(cell: Cell): boolean {
  return cell === BINARY_CELL;
}

/**
 * A cell shown on one line: newlines and tabs become visible symbols so a row never grows.
 * The full value stays available through "expand".
 */
export function cellPreview(cell: Cell, maxChars = 500): string {
  if (cell === null) return NULL_DISPLAY;
  const s = cell.length > maxChars ? `${cell.slice(0, maxChars)}…` : cell;
  return s.replace(/\r\n|\r|\n/g, '↵').replace(/\t/g, '→');
}

/** True when a value does not fit a grid cell as is (multi-line or longer than `maxChars`). */
export function isLongValue(cell: Cell, maxChars = 80): boolean {
  return cell !== null && (cell.length > maxChars || /[\r\n]/.test(cell));
}

/** RFC 4180 field: quoted when it holds the delimiter, a quote, CR or LF; quotes doubled. */
export function escapeDelimited(value: string, delimiter: string): string {
  if (value.includes(delimiter) || value.includes('"') || value.includes('\n') || value.includes('\r')) {
    return `"${value.replace(/"/g, '""')}"`;
  }
  // A leading or trailing space survives most readers only when quoted.
  if (value !== value.trim()) return `"${value}"`;
  return value;
}

export interface FormatOptions {
  /** Include the header line (column names). Default true. */
  header?: boolean;
}

/**
 * CSV or TSV with CRLF line ends (what spreadsheets expect). NULL becomes an empty field;
 * the empty string becomes `""` so the two stay distinguishable on the way back in.
 */
export function toDelimited(columns: readonly QueryColumn[], rows: CellSource, delimiter: ',' | '\t', opts: FormatOptions = {}): string {
  const table = asCellTable(rows, columns.length);
  const lines: string[] = [];
  if (opts.header !== false) lines.push(columns.map((c) => escapeDelimited(c.name, delimiter)).join(delimiter));
  const fields: string[] = new Array<string>(columns.length);
  for (let r = 0; r < table.rowCount; r++) {
    for (let i = 0; i < columns.length; i++) {
      const cell = table.cell(r, i);
      fields[i] = cell === null ? '' : cell === '' ? '""' : escapeDelimited(cell, delimiter);
    }
    lines.push(fields.join(delimiter));
  }
  return lines.length ? `${lines.join('\r\n')}\r\n` : '';
}

export function toCsv(columns: readonly QueryColumn[], rows: CellSource, opts?: FormatOptions): string {
  return toDelimited(columns, rows, ',', opts);
}

export function toTsv(columns: readonly QueryColumn[], rows: CellSource, opts?: FormatOptions): string {
  return toDelimited(columns, rows, '\t', opts);
}

/** A Markdown table cell: pipes and backslashes escaped, line breaks as <br> is HTML, so use a space. */
export function escapeMarkdownCell(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\r\n|\r|\n/g, ' ')
    .replace(/([`*_[\]<>])/g, '\\$1');
}

/** GitHub-flavoured Markdown table; NULL shown as *NULL* so it differs from the text "NULL". */
export function toMarkdown(columns: readonly QueryColumn[], rows: CellSource): string {
  if (columns.length === 0) return '';
  const table = asCellTable(rows, columns.length);
  const lines: string[] = [
    `| ${columns.map((c) => escapeMarkdownCell(c.name) || ' ').join(' | ')} |`,
    `| ${columns.map(() => '---').join(' | ')} |`,
  ];
  const fields: string[] = new Array<string>(columns.length);
  for (let r = 0; r < table.rowCount; r++) {
    for (let i = 0; i < columns.length; i++) {
      const cell = table.cell(r, i);
      fields[i] = cell === null ? '*NULL*' : escapeMarkdownCell(cell);
    }
    lines.push(`| ${fields.join(' | ')} |`);
  }
  return lines.join('\n') + '\n';
}

/**
 * Unique JSON keys for the columns: a result may repeat a name (`SELECT a.id, b.id`), and
 * an object would silently drop one. Repeats get `_2`, `_3`, ...
 */
export function uniqueColumnKeys(columns: readonly QueryColumn[]): string[] {
  const seen = new Map<string, number>();
  const taken = new Set(columns.map((c) => c.name));
  return columns.map((c) => {
    const n = (seen.get(c.name) ?? 0) + 1;
    seen.set(c.name, n);
    if (n === 1) return c.name;
    let k = n;
    let key = `${c.name}_${k}`;
    while (taken.has(key)) key = `${c.name}_${++k}`;
    taken.add(key);
    return key;
  });
}

/** An array of objects keyed by column name; values stay strings (as the server sent them) or null. */
export function toJson(columns: readonly QueryColumn[], rows: CellSource): string {
  const keys = uniqueColumnKeys(columns).map((k) => `${JSON.stringify(k)}: `);
  const table = asCellTable(rows, columns.length);
  const parts: string[] = [];
  const fields: string[] = new Array<string>(keys.length);
  for (let r = 0; r < table.rowCount; r++) {
    for (let i = 0; i < keys.length; i++) fields[i] = `${keys[i] as string}${JSON.stringify(table.cell(r, i))}`;
    parts.push(`  { ${fields.join(', ')} }`);
  }
  return parts.length ? `[\n${parts.join(',\n')}\n]\n` : '[]\n';
}

export function formatResult(format: CopyFormat, columns: readonly QueryColumn[], rows: CellSource, opts?: FormatOptions): string {
  switch (format) {
    case 'tsv':
      return toTsv(columns, rows, opts);
    case 'csv':
      return toCsv(columns, rows, opts);
    case 'markdown':
      return toMarkdown(columns, rows);
    case 'json':
      return toJson(columns, rows);
  }
}
