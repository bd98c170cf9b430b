// The keys of a copy being read (diffCopyRead.ts), a row at a time: whether rows come in strictly
// increasing key order (then SQLite's sort would change nothing), and which rows tie with the row
// before (their order is the sort's to pick, so a page that splits them is read through SQLite).
import { FLOAT, INTEGER, NULL } from './diffRowPacking';

/**
 * Whether rows come in strictly increasing order of their keys, told from INTEGER keys only (a key
 * of any other type, or not above the one before, says no): then sorting them by key changes
 * nothing, ties included (there are none).
 */
export class IntegerKeyOrder {
  private prev: (number | bigint)[] | undefined;
  private key: (number | bigint)[];

  constructor(private readonly width: number) {
    this.key = new Array<number | bigint>(width);
  }

  /** Key cell `k` of the current row; false when it is not an integer. */
  cell(k: number, type: number, value: unknown): boolean {
    if (type !== INTEGER) return false;
    this.key[k] = value as number | bigint;
    return true;
  }

  /** Ends the current row: false when its key is not above the previous row's. */
  endRow(): boolean {
    const { prev, key } = this;
    if (prev && !above(key, prev)) return false;
    this.prev = key;
    this.key = prev ?? new Array<number | bigint>(this.width);
    return true;
  }
}

/** Is key `a` above key `b`, compared as SQLite compares integers, term by term? */
function above(a: readonly (number | bigint)[], b: readonly (number | bigint)[]): boolean {
  for (let k = 0; k < a.length; k++) {
    // A number and a BigInt compare by value with < and >.
    if ((a[k] as number | bigint) > (b[k] as number | bigint)) return true;
    if ((a[k] as number | bigint) < (b[k] as number | bigint)) return false;
  }
  return false;
}

/**
 * Whether each row's key equals the row before's, as SQLite's sort compares them for ties:
 * numbers by value across INTEGER and REAL, text and blobs by their bytes (a text is a string
 * when exact, its bytes otherwise: the same text always comes the same way), NULL equal to NULL.
 */
export class KeyTies {
  private prev: { type: number; value: unknown }[] | undefined;
  private key: { type: number; value: unknown }[];

  constructor(private readonly width: number) {
    this.key = Array.from({ length: width }, () => ({ type: NULL, value: null }));
  }

  cell(k: number, type: number, value: unknown): void {
    const c = this.key[k] as { type: number; value: unknown };
    c.type = type;
    c.value = value;
  }

  /** Ends the current row: true when its key equals the previous row's. */
  endRow(): boolean {
    const { prev, key } = this;
    const tie = prev !== undefined && this.width > 0 && key.every((c, k) => sameCell(c, prev[k] as { type: number; value: unknown }));
    this.prev = key;
    this.key = prev ?? Array.from({ length: this.width }, () => ({ type: NULL, value: null }));
    return tie;
  }
}

function sameCell(a: { type: number; value: unknown }, b: { type: number; value: unknown }): boolean {
  const numeric = (t: number): boolean => t === INTEGER || t === FLOAT;
  if (numeric(a.type) && numeric(b.type)) return (a.value as number | bigint) == (b.value as number | bigint);
  if (a.type !== b.type) return false;
  if (a.type === NULL) return true;
  if (typeof a.value === 'string' || typeof b.value === 'string') return a.value === b.value;
  const x = a.value as Uint8Array;
  const y = b.value as Uint8Array;
  return x.length === y.length && x.every((v, i) => v === y[i]);
}
