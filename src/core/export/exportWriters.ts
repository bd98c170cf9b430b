// Streaming writers for exporting a whole table or result: pages of rows go in, text goes to a
// sink as each page arrives, so memory holds one page whatever the size of the export.
// Values stay as the API sent them (strings, NULL, `<binary>`); nothing is re-typed, except that
// SQL INSERT writes numbers of numeric columns bare. Pure: no vscode, no file system.
import type { QueryColumn } from '../../shared/wire';
import { BINARY_CELL } from '../../shared/wire';
import { STREAM_FORMATS, STREAM_FORMAT_EXTENSIONS, STREAM_FORMAT_LABELS, type StreamFormat } from '../../shared/gridPaging';
import { asCellTable, type CellSource } from '../../shared/columnStore';
import { escapeDelimited, escapeMarkdownCell, uniqueColumnKeys } from '../../shared/queryResultFormat';
import { valueKind } from '../../shared/queryResultSort';
import { quoteIdentifier, sqlValue } from '../sql/quote';

/** Where exported text goes. A write resolves when the sink can take more. */
export interface ExportSink {
  write(chunk: string): Promise<void>;
}

export { STREAM_FORMATS, STREAM_FORMAT_EXTENSIONS, STREAM_FORMAT_LABELS, type StreamFormat };

export interface ExportWriter {
  /** Writes what comes before the rows (header line, `[`). */
  begin(): Promise<void>;
  /** Writes one page of rows (arrays or any CellTable) as one chunk. */
  writeRows(rows: CellSource): Promise<void>;
  /** Writes what comes after the rows. */
  end(): Promise<void>;
  readonly rowsWritten: number;
}

export interface ExportWriterOptions {
  /** The table INSERT statements go into (SQL format); defaults to `exported`. */
  tableName?: string;
  /** Rows per INSERT statement (SQL format). */
  rowsPerInsert?: number;
}

type RowFormatter = (cells: readonly (string | null)[]) => string;

interface FormatParts {
  head: string;
  row: RowFormatter;
  /** Between two rows (JSON array commas); rows end with their own line break otherwise. */
  separator: string;
  tail: (rows: number) => string;
}

function csvParts(columns: readonly QueryColumn[]): FormatParts {
  const field = (cell: string | null): string => (cell === null ? '' : cell === '' ? '""' : escapeDelimited(cell, ','));
  return {
    head: `${columns.map((c) => escapeDelimited(c.name, ',')).join(',')}\r\n`,
    row: (cells) => `${cells.map(field).join(',')}\r\n`,
    separator: '',
    tail: () => '',
  };
}

function jsonObject(keys: readonly string[]): RowFormatter {
  const prefixes = keys.map((k) => `${JSON.stringify(k)}: `);
  return (cells) => `{ ${prefixes.map((p, i) => `${p}${JSON.stringify(cells[i] ?? null)}`).join(', ')} }`;
}

function jsonParts(columns: readonly QueryColumn[]): FormatParts {
  const obj = jsonObject(uniqueColumnKeys(columns));
  return { head: '[', row: (cells) => `\n  ${obj(cells)}`, separator: ',', tail: (rows) => (rows ? '\n]\n' : ']\n') };
}

function jsonlParts(columns: readonly QueryColumn[]): FormatParts {
  const keys = uniqueColumnKeys(columns);
  // Compact objects, one per line, as JSON Lines readers expect.
  const row: RowFormatter = (cells) => `${JSON.stringify(Object.fromEntries(keys.map((k, i) => [k, cells[i] ?? null])))}\n`;
  return { head: '', row, separator: '', tail: () => '' };
}

function markdownParts(columns: readonly QueryColumn[]): FormatParts {
  const field = (cell: string | null): string => (cell === null ? '*NULL*' : escapeMarkdownCell(cell));
  return {
    head: `| ${columns.map((c) => escapeMarkdownCell(c.name) || ' ').join(' | ')} |\n| ${columns.map(() => '---').join(' | ')} |\n`,
    row: (cells) => `| ${cells.map(field).join(' | ')} |\n`,
    separator: '',
    tail: () => '',
  };
}

class StreamWriter implements ExportWriter {
  rowsWritten = 0;
  private begun = false;
  private ended = false;

  constructor(
    private readonly columns: readonly QueryColumn[],
    private readonly sink: ExportSink,
    private readonly parts: FormatParts,
  ) {}

  async begin(): Promise<void> {
    if (this.begun) return;
    this.begun = true;
    if (this.parts.head) await this.sink.write(this.parts.head);
  }

  async writeRows(rows: CellSource): Promise<void> {
    if (this.ended) throw new Error('The export has already ended.');
    await this.begin();
    const table = asCellTable(rows, this.columns.length);
    if (table.rowCount === 0) return;
    const out: string[] = [];
    const cells = new Array<string | null>(this.columns.length);
    for (let r = 0; r < table.rowCount; r++) {
      for (let c = 0; c < cells.length; c++) cells[c] = table.cell(r, c);
      if (this.rowsWritten + r > 0 && this.parts.separator) out.push(this.parts.separator);
      out.push(this.parts.row(cells));
    }
    this.rowsWritten += table.rowCount;
    await this.sink.write(out.join(''));
  }

  async end(): Promise<void> {
    await this.begin();
    if (this.ended) return;
    this.ended = true;
    const tail = this.parts.tail(this.rowsWritten);
    if (tail) await this.sink.write(tail);
  }
}

/** INSERT statements of up to `rowsPerInsert` rows each; binary values (not sent by the API) as NULL. */
class SqlInsertWriter implements ExportWriter {
  rowsWritten = 0;
  private begun = false;
  private readonly prefix: string;
  private readonly numeric: boolean[];
  private readonly binary: boolean[];

  constructor(
    private readonly columns: readonly QueryColumn[],
    private readonly sink: ExportSink,
    private readonly opts: ExportWriterOptions,
  ) {
    this.prefix = `INSERT INTO ${quoteIdentifier(opts.tableName || 'exported')} (${columns.map((c) => quoteIdentifier(c.name)).join(', ')}) VALUES\n`;
    const kinds = columns.map((c) => valueKind(c.type));
    this.numeric = kinds.map((k) => k === 'number');
    this.binary = kinds.map((k) => k === 'binary');
  }

  async begin(): Promise<void> {
    if (this.begun) return;
    this.begun = true;
    if (this.binary.some(Boolean)) {
      await this.sink.write('-- Binary values are not available through the API: they are written as NULL.\n');
    }
  }

  private value(cell: string | null, col: number): string {
    if (cell === BINARY_CELL && this.binary[col]) return 'NULL';
    return sqlValue(cell, this.numeric[col] === true);
  }

  async writeRows(rows: CellSource): Promise<void> {
    await this.begin();
    const table = asCellTable(rows, this.columns.length);
    const per = Math.max(1, this.opts.rowsPerInsert ?? 100);
    const out: string[] = [];
    for (let start = 0; start < table.rowCount; start += per) {
      const end = Math.min(table.rowCount, start + per);
      const tuples: string[] = [];
      for (let r = start; r < end; r++) {
        const vals: string[] = [];
        for (let c = 0; c < this.columns.length; c++) vals.push(this.value(table.cell(r, c), c));
        tuples.push(`  (${vals.join(', ')})`);
      }
      out.push(`${this.prefix}${tuples.join(',\n')};\n`);
    }
    this.rowsWritten += table.rowCount;
    if (out.length) await this.sink.write(out.join(''));
  }

  async end(): Promise<void> {
    await this.begin();
  }
}

export function createExportWriter(
  format: StreamFormat,
  columns: readonly QueryColumn[],
  sink: ExportSink,
  opts: ExportWriterOptions = {},
): ExportWriter {
  switch (format) {
    case 'csv':
      return new StreamWriter(columns, sink, csvParts(columns));
    case 'json':
      return new StreamWriter(columns, sink, jsonParts(columns));
    case 'jsonl':
      return new StreamWriter(columns, sink, jsonlParts(columns));
    case 'markdown':
      return new StreamWriter(columns, sink, markdownParts(columns));
    case 'sql':
      return new SqlInsertWriter(columns, sink, opts);
    default:
      throw new Error(`Unknown export format ${String(format)}.`);
  }
}
