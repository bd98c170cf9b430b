// The one interface every import file format is read through, by the hub (to import) and by the
// extension (to preview and check before uploading). Node only (reads files), no vscode.
//
// Formats and what they accept:
//  - csv / psv: first record is the header; csv-parse with `,` / `|`. An empty unquoted field
//    is NULL (as Dolt's `table import` does), a quoted empty field `""` is the empty string.
//    A UTF-8 BOM is dropped. Streams.
//  - xlsx: the first worksheet; its first non-empty row is the header. Streams (exceljs
//    WorkbookReader). Numbers, booleans, dates (ISO 8601), rich text and formula results are
//    turned into their text; an empty cell is NULL.
//  - json: either a top-level array of objects `[ {...}, ... ]` or Dolt's own import shape
//    `{ "rows": [ {...}, ... ] }`. Columns are the keys in order of first appearance over the
//    first JSON_COLUMN_SAMPLE objects; a key first seen later is an error that says so. Missing
//    keys and `null` are NULL; numbers keep their exact text; booleans become `true`/`false`;
//    nested objects/arrays become their JSON text. Streams (stream-json).
//  - yaml: a sequence of mappings, or a mapping with a `rows` sequence, same rules as json.
//    Cannot stream (the `yaml` package parses whole documents): capped at YAML_MAX_BYTES.
//  - sql: `CREATE TABLE` (column names, declared types, primary key) and
//    `INSERT INTO t [(cols)] VALUES (...), (...);` statements, MySQL quoting (backticks, '' and
//    backslash escapes, -- # and /* */ comments). Other statements are an error (the import
//    runs no SQL). If the file has rows for several tables, `sqlTable` picks one. Streams.
//
// Every parse error is an `ImportParseError` (see importParseError.ts) with a 1-based `row`
// and the `column` name when they are known.

import type { ImportFileKind } from '../../shared/importFormats';

// The formats themselves are listed once, in src/shared/importFormats.ts.
export type { ImportFileKind };

/** A cell as every layer above the file sees it: text, or NULL. */
export type Cell = string | null;

/** Largest file the service accepts (and so the largest we check, upload or import). */
export const MAX_IMPORT_BYTES = 1024 * 1024 * 1024;
/** YAML cannot be streamed, so it is read whole only up to this size. */
export const YAML_MAX_BYTES = 64 * 1024 * 1024;
/** How many leading JSON/YAML objects decide the column list. */
export const JSON_COLUMN_SAMPLE = 1000;

export interface TableReaderOptions {
  signal?: AbortSignal;
  /** sql only: which table's rows to read when the file inserts into several. */
  sqlTable?: string;
}

export interface TableReader {
  readonly fileType: ImportFileKind;
  /** Source column names in file order; never empty, no duplicates. */
  readonly columns: readonly string[];
  /** Types the file declares (sql CREATE TABLE), by column name; absent for other formats. */
  readonly declaredTypes?: Readonly<Record<string, string>>;
  /** Primary key the file declares (sql CREATE TABLE); absent when none is declared. */
  readonly declaredPrimaryKeys?: readonly string[];
  /** sql only: the table the rows are for. */
  readonly sourceTable?: string;
  /**
   * Data rows in file order, each exactly `columns.length` cells. Iterate once. Throws
   * ImportParseError for a bad row (with its 1-based data row number; the header is not a
   * data row) and the AbortSignal's reason when aborted. Breaking out of the loop closes the file.
   */
  rows(): AsyncIterable<Cell[]>;
  /**
   * The same rows (and errors, after the rows before them) in batches, one await per batch: the
   * delimited reader gives a chunk of the file at a time. Iterate rows() or this, once.
   */
  rowBatches?(): AsyncIterable<Cell[][]>;
  /** Releases the file if rows() was never iterated to the end. Safe to call twice. */
  close(): Promise<void>;
}

/** A reader's rows in batches: its own when it has them, else its rows gathered 1,000 at a time. */
export async function* readRowBatches(reader: TableReader): AsyncGenerator<Cell[][]> {
  if (reader.rowBatches) {
    yield* reader.rowBatches();
    return;
  }
  let batch: Cell[][] = [];
  try {
    for await (const row of reader.rows()) {
      batch.push(row);
      if (batch.length >= 1000) {
        yield batch;
        batch = [];
      }
    }
  } catch (e) {
    // The rows before a bad one come first, as they do from rows().
    if (batch.length > 0) yield batch;
    throw e;
  }
  if (batch.length > 0) yield batch;
}
