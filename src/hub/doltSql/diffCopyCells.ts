// One cell of a diff copy's statement read out of WASM (diffCopyRead.ts): its exact SQLite type
// and value, and its text as the hub answers it (selectRunner.ts), through the C column accessors
// called straight.
import type { Sqlite3 } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import { BINARY_CELL, type Cell as AnswerCell } from '../../shared/wire';
import { BLOB, FLOAT, INTEGER, NULL, TEXT, type Cell } from './diffRowPacking';

/** What `sqlite3_column_text` decodes a text's bytes with in this build: a default TextDecoder (a leading BOM dropped). */
const decoder = new TextDecoder();
/** The same, a leading BOM kept: a text's exact value. */
const exactDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
const NO_BYTES = new Uint8Array(0);

/** Bytes of a text decoded as `sqlite3_column_text` decodes them. */
export const decodeText = (bytes: Uint8Array): string => decoder.decode(bytes);

/** Cell `i` of the statement's current row read out of WASM with its exact SQLite type. */
export function readValue(sqlite3: Sqlite3, stmt: number, i: number): Cell {
  const capi = sqlite3.capi;
  const type = capi.sqlite3_column_type(stmt, i);
  switch (type) {
    case INTEGER: {
      // As a double first (no BigInt): exact whenever it is a safe integer, since an int64 of
      // magnitude 2^53 or more never converts to one below it.
      const d = capi.sqlite3_column_double(stmt, i);
      if (Number.isSafeInteger(d)) return { type, value: d };
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

/** One cell: its exact value (text as a string when exact), and its text as the hub answers it. */
export interface ReadCell {
  type: number;
  value: number | bigint | Uint8Array | string | null;
  answer: AnswerCell;
}

export const NULL_CELL: ReadCell = { type: NULL, value: null, answer: null };

/** The C column accessors of one statement, called straight; text decoded as the wrapper decodes it. */
export interface Columns {
  type(i: number): number;
  double(i: number): number;
  /** The cell's text as `sqlite3_column_text` gives it (a leading BOM dropped). */
  text(i: number): string;
  /** The cell's text with a leading BOM kept. */
  exactText(i: number): string;
  /** A real cell's text (`v` its value), remembered by value: the same double always reads as the same text. */
  realText(i: number, v: number): string;
}

/** Reals' texts a statement's reader remembers at most (then it starts again). */
const REAL_TEXTS = 4096;

export function columnsOf(sqlite3: Sqlite3, stmt: number): Columns {
  const ex = sqlite3.wasm.exports;
  // A view of the text's bytes in WASM memory, decoded at once (nothing runs in between).
  const bytes = (i: number): Uint8Array => {
    const p = ex.sqlite3_column_text(stmt, i);
    const n = ex.sqlite3_column_bytes(stmt, i);
    return p === 0 || n === 0 ? NO_BYTES : sqlite3.wasm.heap8u().subarray(p, p + n);
  };
  const text = (i: number): string => decoder.decode(bytes(i));
  // SQLite's text of a real is costly to make and read (a real column's values often repeat). A
  // zero is always read: its sign is not part of the key.
  const reals = new Map<number, string>();
  return {
    type: (i) => ex.sqlite3_column_type(stmt, i),
    double: (i) => ex.sqlite3_column_double(stmt, i),
    text,
    exactText: (i) => exactDecoder.decode(bytes(i)),
    realText: (i, v) => {
      let t = v === 0 ? undefined : reals.get(v);
      if (t !== undefined) return t;
      t = text(i);
      if (reals.size >= REAL_TEXTS) reals.clear();
      if (v !== 0) reals.set(v, t);
      return t;
    },
  };
}

/** Cell `i` of the statement's current row: its exact value, and its text as the hub answers it. */
export function cellAt(sqlite3: Sqlite3, col: Columns, stmt: number, i: number): ReadCell {
  switch (col.type(i)) {
    case TEXT: {
      const v = col.exactText(i);
      if (!v.includes('\uFFFD')) return { type: TEXT, value: v, answer: v.charCodeAt(0) === 0xfeff ? v.slice(1) : v };
      const bytes = readValue(sqlite3, stmt, i).value as Uint8Array;
      return { type: TEXT, value: bytes, answer: decoder.decode(bytes) };
    }
    case INTEGER: {
      const d = col.double(i);
      if (Number.isSafeInteger(d)) return { type: INTEGER, value: d, answer: String(d) };
      const exact = readValue(sqlite3, stmt, i).value as number | bigint;
      return { type: INTEGER, value: exact, answer: String(exact) };
    }
    case FLOAT: {
      const v = col.double(i);
      return { type: FLOAT, value: v, answer: col.realText(i, v) };
    }
    case BLOB:
      return { type: BLOB, value: readValue(sqlite3, stmt, i).value, answer: BINARY_CELL };
    default:
      return NULL_CELL;
  }
}
