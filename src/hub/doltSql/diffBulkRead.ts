// Reading a diff into its copy (diffRowCache.ts) a row at a time instead of a cell at a time: the
// statement that reads the diff ends with one more column, `json_array(typeof(c1), v1, …)` over
// the diff's columns, so a row's integers and texts cross out of WASM as one text, parsed once.
// Only what that text cannot carry exactly is read cell by cell, as before: reals (the copy keeps
// their exact double; SQLite renders their answer text), blobs, integers past 2^53, text that did
// not decode cleanly (U+FFFD: invalid UTF-8 or a replacement character of its own), and the
// ORDER BY values after the columns.
import type { Sqlite3 } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import type { Cell as AnswerCell } from '../../shared/wire';
import { answerCell } from './diffAnswers';
import { BLOB, FLOAT, INTEGER, NULL, TEXT, type Cell } from './diffRowPacking';

/** Columns per inner json_array: SQLite limits a function's arguments (127 by default), two a column here. */
const BULK_CHUNK = 50;

/**
 * The last column of the copy's statement: each column's type and, for integers and texts, its
 * value, as arrays of at most BULK_CHUNK columns inside one array.
 */
export function bulkColumn(columns: readonly string[]): string {
  const parts = columns.map((c) => `typeof(${c}), CASE typeof(${c}) WHEN 'integer' THEN ${c} WHEN 'text' THEN ${c} END`);
  const chunks: string[] = [];
  for (let i = 0; i < parts.length; i += BULK_CHUNK) chunks.push(`json_array(${parts.slice(i, i + BULK_CHUNK).join(', ')})`);
  return `json_array(${chunks.join(', ')})`;
}

/** A cell read on its own, with its exact SQLite type and value (the bytes of a text or blob). */
export function readValue(sqlite3: Sqlite3, stmt: number, i: number): Cell {
  const capi = sqlite3.capi;
  const type = capi.sqlite3_column_type(stmt, i);
  switch (type) {
    case INTEGER: {
      const v = capi.sqlite3_column_int64(stmt, i);
      return {
        type,
        value: typeof v === 'bigint' && v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v,
      };
    }
    case FLOAT:
      return { type, value: capi.sqlite3_column_double(stmt, i) };
    case TEXT:
    case BLOB: {
      // The bytes as stored (text with NUL or invalid UTF-8 included), copied out of WASM memory.
      const p = capi.sqlite3_column_blob(stmt, i);
      const n = capi.sqlite3_column_bytes(stmt, i);
      return { type, value: n === 0 ? new Uint8Array(0) : sqlite3.wasm.heap8u().slice(p, p + n) };
    }
    default:
      return { type: NULL, value: null };
  }
}

const encoder = new TextEncoder();

/** A text's answer as `sqlite3_column_text` decodes its bytes (a default TextDecoder: a leading BOM is dropped). */
function textAnswer(s: string): string {
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}

/**
 * The current row's cells of the copy's statement: `cells` (width + key columns, with exact
 * values) and, for the diff's columns, `answers` and `types` as runSelect would answer them.
 * `skip`: columns copied as NULL. The bulk column is at index `cells.length`.
 */
export function readRow(
  sqlite3: Sqlite3,
  stmt: number,
  skip: readonly boolean[],
  cells: Cell[],
  answers: AnswerCell[],
  types: number[],
): void {
  const bulk = (JSON.parse(sqlite3.capi.sqlite3_column_text(stmt, cells.length) ?? '[]') as (string | number | null)[][]).flat();
  const width = answers.length;
  for (let i = 0; i < cells.length; i++) {
    let cell: Cell | undefined;
    let answer: AnswerCell | undefined;
    if (skip[i]) cell = { type: NULL, value: null };
    else if (i < width) {
      const type = bulk[2 * i];
      const v = bulk[2 * i + 1];
      if (type === 'null') cell = { type: NULL, value: null };
      else if (type === 'integer' && typeof v === 'number' && Number.isSafeInteger(v)) cell = { type: INTEGER, value: v };
      else if (type === 'text' && typeof v === 'string' && !v.includes('\uFFFD')) {
        cell = { type: TEXT, value: encoder.encode(v) };
        answer = textAnswer(v);
      }
    }
    cell ??= readValue(sqlite3, stmt, i);
    cells[i] = cell;
    if (i < width) {
      answers[i] = answer ?? answerCell(sqlite3, stmt, i, cell.type, cell.value);
      types[i] = cell.type;
    }
  }
}
