// Type-aware ordering of result cells. Every non-NULL cell arrives as a string whatever its
// SQL type, so "10" < "9" as text; the column's declared type decides how to compare.
import type { Cell } from './wire';
import { BINARY_CELL } from './wire';
import { asCellTable, type CellSource } from './columnStore';

export type ValueKind = 'number' | 'temporal' | 'boolean' | 'binary' | 'text';

/** Classifies SQL type text (`bigint`, `decimal(10,2)`, `datetime(6)`, `varchar(255)` ...). */
export function valueKind(sqlType: string): ValueKind {
  const t = sqlType.trim().toLowerCase();
  if (/^(tinyint\(1\)|bool\b|boolean\b)/.test(t)) return 'boolean';
  if (/^(tinyint|smallint|mediumint|int|integer|bigint|decimal|numeric|dec|fixed|float|double|real|bit|year)\b/.test(t)) {
    return 'number';
  }
  if (/^(date|datetime|timestamp|time)\b/.test(t)) return 'temporal';
  if (/^(blob|tinyblob|mediumblob|longblob|binary|varbinary)\b/.test(t)) return 'binary';
  return 'text';
}

const PLAIN_DECIMAL = /^([+-]?)0*(\d*)(?:\.(\d*?)0*)?$/;

/**
 * Compares two numeric strings exactly (no float rounding, so 64-bit ids and decimals keep
 * their order). Strings that are not plain decimals (exponents, NaN) fall back to Number().
 * Non-numbers sort after numbers, among themselves as text.
 */
export function compareNumericText(a: string, b: string): number {
  const ma = PLAIN_DECIMAL.exec(a.trim());
  const mb = PLAIN_DECIMAL.exec(b.trim());
  if (ma && mb && (ma[2] !== '' || ma[3] !== undefined) && (mb[2] !== '' || mb[3] !== undefined)) {
    const intA = ma[2] ?? '';
    const intB = mb[2] ?? '';
    const fracA = ma[3] ?? '';
    const fracB = mb[3] ?? '';
    const zeroA = intA === '' && fracA === '';
    const zeroB = intB === '' && fracB === '';
    const signA = zeroA ? 0 : ma[1] === '-' ? -1 : 1;
    const signB = zeroB ? 0 : mb[1] === '-' ? -1 : 1;
    if (signA !== signB) return signA < signB ? -1 : 1;
    if (signA === 0) return 0;
    let mag: number;
    if (intA.length !== intB.length) mag = intA.length < intB.length ? -1 : 1;
    else if (intA !== intB) mag = intA < intB ? -1 : 1;
    else {
      const len = Math.max(fracA.length, fracB.length);
      const fa = fracA.padEnd(len, '0');
      const fb = fracB.padEnd(len, '0');
      mag = fa === fb ? 0 : fa < fb ? -1 : 1;
    }
    return signA * mag;
  }
  const na = Number(a);
  const nb = Number(b);
  const okA = a.trim() !== '' && !Number.isNaN(na);
  const okB = b.trim() !== '' && !Number.isNaN(nb);
  if (okA && okB) return na === nb ? 0 : na < nb ? -1 : 1;
  if (okA !== okB) return okA ? -1 : 1;
  return compareText(a, b);
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'variant' });

export function compareText(a: string, b: string): number {
  return collator.compare(a, b);
}

const BOOL_TRUE = new Set(['1', 'true', 't', 'yes', 'y']);

/**
 * Comparator for one column's cells, ascending. NULL sorts first (as in MySQL), `<binary>`
 * after NULL and before values.
 */
export function cellComparator(kind: ValueKind): (a: Cell, b: Cell) => number {
  const compareValue: (a: string, b: string) => number =
    kind === 'number'
      ? compareNumericText
      : kind === 'boolean'
        ? (a, b) => Number(BOOL_TRUE.has(a.toLowerCase())) - Number(BOOL_TRUE.has(b.toLowerCase()))
        : kind === 'temporal'
          ? // ISO-like date/time text orders correctly as plain code units.
            (a, b) => (a === b ? 0 : a < b ? -1 : 1)
          : compareText;
  return (a, b) => {
    if (a === b) return 0;
    if (a === null) return -1;
    if (b === null) return 1;
    const binA = a === BINARY_CELL && kind !== 'text';
    const binB = b === BINARY_CELL && kind !== 'text';
    if (binA !== binB) return binA ? -1 : 1;
    return compareValue(a, b);
  };
}

export type SortDirection = 'asc' | 'desc';

export interface SortKey {
  column: number;
  direction: SortDirection;
}

/**
 * Returns the row indexes of `indexes` ordered by `keys` (stable: equal rows keep their
 * original order). The rows themselves are never copied or reordered; each key's column is
 * read once per row (a compact store slices each value once, not once per comparison).
 */
export function sortRowIndexes(
  rows: CellSource,
  indexes: readonly number[],
  keys: readonly SortKey[],
  kinds: readonly ValueKind[],
): number[] {
  const n = indexes.length;
  if (keys.length === 0) return indexes.slice();
  const table = asCellTable(rows, Math.max(0, ...keys.map((k) => k.column + 1)));
  const cmps = keys.map((k) => {
    const values = new Array<Cell>(n);
    for (let i = 0; i < n; i++) values[i] = table.cell(indexes[i] as number, k.column);
    return { values, sign: k.direction === 'asc' ? 1 : -1, cmp: cellComparator(kinds[k.column] ?? 'text') };
  });
  const positions = new Array<number>(n);
  for (let i = 0; i < n; i++) positions[i] = i;
  positions.sort((pa, pb) => {
    for (const { values, sign, cmp } of cmps) {
      const c = cmp(values[pa] as Cell, values[pb] as Cell);
      if (c !== 0) return sign * c;
    }
    return (indexes[pa] as number) - (indexes[pb] as number);
  });
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = indexes[positions[i] as number] as number;
  return out;
}
