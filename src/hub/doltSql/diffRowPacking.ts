// Rows of a copied diff packed into one byte array (diffRowCache.ts): a few bytes per cell instead
// of a JS value each, so a worker can keep copies of diffs of hundreds of thousands of rows. Each
// cell keeps its SQLite type and exact value: integers as 32 or 64 bits, reals as IEEE doubles,
// text and blobs as their bytes (text is never decoded: what SQLite stored is what it gets back).
// A text equal to the one in the row before, in the same column, is stored once per run.

export const INTEGER = 1;
export const FLOAT = 2;
export const TEXT = 3;
export const BLOB = 4;
export const NULL = 5;

const T_NULL = 0;
const T_INT32 = 1;
const T_INT64 = 2;
const T_FLOAT = 3;
const T_TEXT = 4;
const T_BLOB = 5;
/** Text equal to a text stored before in this column: u32 index into the column's repeats. */
const T_REPEAT = 6;

export type CellValue = number | bigint | Uint8Array | null;

const utf8 = new TextEncoder();

export interface Cell {
  type: number;
  value: CellValue;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Appends rows of `width` cells; `bytes` is what the rows take so far. */
export class PackedRowsWriter {
  private data = new Uint8Array(1 << 16);
  private view = new DataView(this.data.buffer);
  private at = 0;
  private starts = new Uint32Array(1024);
  rows = 0;
  /** Per column: the previous row's text and, once it repeats, its index in `repeats`. */
  private readonly lastText: (Uint8Array | undefined)[];
  private readonly lastRepeat: (number | undefined)[];
  /** Per column: the previous row's text as the string it was given as (textCell), and where its bytes are. */
  private readonly lastString: (string | undefined)[];
  private readonly lastSpan: ([number, number] | undefined)[];
  private readonly repeats: Uint8Array[] = [];
  private repeatBytes = 0;

  constructor(readonly width: number) {
    this.lastText = new Array(width).fill(undefined);
    this.lastRepeat = new Array(width).fill(undefined);
    this.lastString = new Array(width).fill(undefined);
    this.lastSpan = new Array(width).fill(undefined);
  }

  get bytes(): number {
    return this.at + this.rows * 4 + this.repeatBytes;
  }

  private room(n: number): void {
    if (this.at + n <= this.data.length) return;
    let size = this.data.length * 2;
    while (size < this.at + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.data.subarray(0, this.at));
    this.data = next;
    this.view = new DataView(next.buffer);
  }

  startRow(): void {
    if (this.rows + 1 >= this.starts.length) {
      const next = new Uint32Array(this.starts.length * 2);
      next.set(this.starts);
      this.starts = next;
    }
    this.starts[this.rows] = this.at;
    this.rows++;
  }

  /**
   * Appends a text cell given as a string (column `c`), written as UTF-8 straight into the rows
   * (no array per cell); equal to the string before in its column, it is stored once per run.
   */
  textCell(c: number, text: string): void {
    if (this.lastString[c] === text) return this.repeatLast(c);
    const n = text.length;
    this.room(5 + 3 * n);
    const data = this.data;
    const from = this.at + 5;
    let at = from;
    let i = 0;
    for (; i < n; i++) {
      const ch = text.charCodeAt(i);
      if (ch >= 0x80) break;
      data[at++] = ch;
    }
    if (i < n) at += utf8.encodeInto(i === 0 ? text : text.slice(i), data.subarray(at)).written;
    data[this.at] = T_TEXT;
    this.view.setUint32(this.at + 1, at - from, true);
    this.at = at;
    this.lastString[c] = text;
    this.lastSpan[c] = [from, at - from];
    this.lastText[c] = undefined;
    this.lastRepeat[c] = undefined;
  }

  /**
   * Appends a reference to column `c`'s last text (written by `textCell` or `cell`, whichever set
   * it: the other cleared its own record), kept once among the repeats from its second use on.
   */
  private repeatLast(c: number): void {
    let index = this.lastRepeat[c];
    if (index === undefined) {
      const span = this.lastSpan[c] as [number, number];
      const bytes = this.lastText[c] ?? this.data.slice(span[0], span[0] + span[1]);
      index = this.repeats.push(bytes) - 1;
      this.repeatBytes += bytes.length + 16;
      this.lastRepeat[c] = index;
    }
    this.room(5);
    this.data[this.at] = T_REPEAT;
    this.view.setUint32(this.at + 1, index, true);
    this.at += 5;
  }

  /** Appends the next cell of the current row (column `c`). */
  cell(c: number, type: number, value: CellValue): void {
    if (type === TEXT) {
      const bytes = value as Uint8Array;
      const last = this.lastText[c];
      if (last !== undefined && sameBytes(last, bytes)) return this.repeatLast(c);
      this.lastString[c] = undefined;
      this.lastText[c] = bytes;
      this.lastRepeat[c] = undefined;
    }
    switch (type) {
      case INTEGER: {
        if (typeof value === 'number' && value >= -0x80000000 && value <= 0x7fffffff) {
          this.room(5);
          this.data[this.at] = T_INT32;
          this.view.setInt32(this.at + 1, value, true);
          this.at += 5;
        } else {
          this.room(9);
          this.data[this.at] = T_INT64;
          this.view.setBigInt64(this.at + 1, BigInt(value as number | bigint), true);
          this.at += 9;
        }
        return;
      }
      case FLOAT:
        this.room(9);
        this.data[this.at] = T_FLOAT;
        this.view.setFloat64(this.at + 1, value as number, true);
        this.at += 9;
        return;
      case TEXT:
      case BLOB: {
        const bytes = value as Uint8Array;
        this.room(5 + bytes.length);
        this.data[this.at] = type === TEXT ? T_TEXT : T_BLOB;
        this.view.setUint32(this.at + 1, bytes.length, true);
        this.data.set(bytes, this.at + 5);
        this.at += 5 + bytes.length;
        return;
      }
      default:
        this.room(1);
        this.data[this.at] = T_NULL;
        this.at += 1;
    }
  }

  /**
   * The rows so far, without copying them: later rows never change the bytes of earlier ones (a
   * larger buffer is a new array), so the view stays exact while writing goes on.
   */
  sofar(): PackedRows {
    return new PackedRows(this.width, this.rows, this.data.subarray(0, this.at), this.starts.subarray(0, this.rows), this.repeats);
  }

  /** The rows, trimmed to their size. */
  finish(): PackedRows {
    return new PackedRows(this.width, this.rows, this.data.slice(0, this.at), this.starts.slice(0, this.rows), this.repeats);
  }
}

/** Packed rows, read a row at a time. */
export class PackedRows {
  private readonly view: DataView;

  constructor(
    readonly width: number,
    readonly rows: number,
    private readonly data: Uint8Array,
    private readonly starts: Uint32Array,
    private readonly repeats: readonly Uint8Array[],
  ) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  get bytes(): number {
    return this.data.byteLength + this.starts.byteLength + this.repeats.reduce((n, r) => n + r.length + 16, 0);
  }

  /**
   * The cells of row `r` from column `from` on (text and blobs as views of the packed bytes): the
   * cells before it are stepped over, not decoded (a key after a wide row's columns).
   */
  row(r: number, from = 0): Cell[] {
    const out: Cell[] = [];
    let at = this.starts[r] as number;
    for (let c = 0; c < from && c < this.width; c++) at += this.cellLength(at);
    for (let c = from; c < this.width; c++) {
      const tag = this.data[at] as number;
      switch (tag) {
        case T_INT32:
          out.push({ type: INTEGER, value: this.view.getInt32(at + 1, true) });
          at += 5;
          break;
        case T_INT64:
          out.push({ type: INTEGER, value: this.view.getBigInt64(at + 1, true) });
          at += 9;
          break;
        case T_FLOAT:
          out.push({ type: FLOAT, value: this.view.getFloat64(at + 1, true) });
          at += 9;
          break;
        case T_TEXT:
        case T_BLOB: {
          const n = this.view.getUint32(at + 1, true);
          out.push({ type: tag === T_TEXT ? TEXT : BLOB, value: this.data.subarray(at + 5, at + 5 + n) });
          at += 5 + n;
          break;
        }
        case T_REPEAT:
          out.push({ type: TEXT, value: this.repeats[this.view.getUint32(at + 1, true)] as Uint8Array });
          at += 5;
          break;
        default:
          out.push({ type: NULL, value: null });
          at += 1;
      }
    }
    return out;
  }

  /** How many bytes the cell at byte `at` takes, its tag included. */
  private cellLength(at: number): number {
    switch (this.data[at]) {
      case T_INT32:
      case T_REPEAT:
        return 5;
      case T_INT64:
      case T_FLOAT:
        return 9;
      case T_TEXT:
      case T_BLOB:
        return 5 + this.view.getUint32(at + 1, true);
      default:
        return 1;
    }
  }
}
