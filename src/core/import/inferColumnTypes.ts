import type { Cell } from './tableReader';

// MySQL-style column types for a new table, in the spirit of Dolt's `table import -c`: each
// column gets the least permissive type every non-NULL value fits.
//   tinyint(1)          only true/false (any case)
//   int / bigint        integers within 32 / 64 bits; `bigint unsigned` up to 2^64-1
//   decimal(p,s)        plain decimal numbers (exact); integers too big for 64 bits: decimal(p,0)
//   double              numbers in exponent notation, or beyond decimal(65,30)
//   date                YYYY-MM-DD
//   time                HH:MM:SS[.ffffff]
//   datetime / (6)      YYYY-MM-DD[ T]HH:MM:SS, with fractional seconds → datetime(6)
//   varchar(16383)      any other text (Dolt's default string type), longtext when longer
// A column that is NULL in every row is varchar(16383). Integers written with a leading zero
// ("007", zip codes) stay text so the zeros survive.

export const DEFAULT_STRING_TYPE = 'varchar(16383)';
const VARCHAR_MAX = 16383;

const INT_RE = /^-?(?:0|[1-9]\d*)$/;
const DECIMAL_RE = /^-?(\d+)\.(\d+)$|^-?\.(\d+)$/;
const DOUBLE_RE = /^-?(?:\d+\.?\d*|\.\d+)[eE][+-]?\d+$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?$/;
const DATETIME_RE = /^(\d{4})-(\d{2})-(\d{2})[ T](?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?(Z)?$/;

const INT32_MIN = -2147483648n;
const INT32_MAX = 2147483647n;
const INT64_MIN = -9223372036854775808n;
const INT64_MAX = 9223372036854775807n;
const UINT64_MAX = 18446744073709551615n;

interface ColumnState {
  seen: boolean;
  bool: boolean;
  int: boolean; // every value is an integer
  intMin: bigint;
  intMax: bigint;
  decimal: boolean; // every value is an integer or plain decimal
  intDigits: number; // max digits before the point
  scale: number; // max digits after the point
  double: boolean; // every value is numeric (any notation)
  date: boolean;
  datetime: boolean; // every value is a date or datetime
  fraction: boolean;
  time: boolean;
  maxLength: number;
}

function freshState(): ColumnState {
  return {
    seen: false,
    bool: true,
    int: true,
    intMin: 0n,
    intMax: 0n,
    decimal: true,
    intDigits: 0,
    scale: 0,
    double: true,
    date: true,
    datetime: true,
    fraction: false,
    time: true,
    maxLength: 0,
  };
}

/** Infers column types incrementally, so a whole file can be observed while it streams. */
export class ColumnTypeInferrer {
  private readonly states: ColumnState[];

  constructor(readonly columns: readonly string[]) {
    this.states = columns.map(freshState);
  }

  observe(row: readonly Cell[]): void {
    for (let i = 0; i < this.states.length; i++) {
      const v = row[i];
      if (v === null || v === undefined) continue;
      observeValue(this.states[i]!, v);
    }
  }

  /** One type per column, in column order. */
  types(): string[] {
    return this.states.map(typeOf);
  }
}

/** Types for `columns` from (a sample of) rows. */
export function inferColumnTypes(columns: readonly string[], rows: Iterable<readonly Cell[]>): string[] {
  const inferrer = new ColumnTypeInferrer(columns);
  for (const row of rows) inferrer.observe(row);
  return inferrer.types();
}

function observeValue(s: ColumnState, v: string): void {
  const first = !s.seen;
  s.seen = true;
  if (v.length > s.maxLength) s.maxLength = v.length;
  if (s.bool && !/^(?:true|false)$/i.test(v)) s.bool = false;
  if (s.int || s.decimal || s.double) {
    if (INT_RE.test(v)) {
      const digits = v.startsWith('-') ? v.length - 1 : v.length;
      if (digits > s.intDigits) s.intDigits = digits;
      if (s.int) {
        const n = BigInt(v);
        if (first || n < s.intMin) s.intMin = n;
        if (first || n > s.intMax) s.intMax = n;
      }
    } else {
      s.int = false;
      const m = DECIMAL_RE.exec(v);
      if (m) {
        const intPart = m[1] ?? '';
        const frac = m[2] ?? m[3] ?? '';
        const intDigits = intPart.replace(/^0+/, '').length;
        if (intDigits > s.intDigits) s.intDigits = intDigits;
        if (frac.length > s.scale) s.scale = frac.length;
      } else {
        s.decimal = false;
        if (!DOUBLE_RE.test(v) || !Number.isFinite(Number(v))) s.double = false;
      }
    }
  }
  if (s.date || s.datetime) {
    const d = DATE_RE.exec(v);
    if (d && validDate(d)) {
      // a date is also a datetime at midnight
    } else {
      s.date = false;
      const dt = DATETIME_RE.exec(v);
      if (dt && validDate(dt)) {
        if (dt[4]) s.fraction = true;
      } else {
        s.datetime = false;
      }
    }
  }
  if (s.time) {
    const t = TIME_RE.exec(v);
    if (!t) s.time = false;
    else if (t[1]) s.fraction = true;
  }
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function validDate(m: RegExpExecArray): boolean {
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  // Arithmetic, not a Date per value: the hub runs this on every cell of a file.
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= (mo === 2 ? (leap ? 29 : 28) : DAYS_IN_MONTH[mo - 1]!);
}

function typeOf(s: ColumnState): string {
  if (!s.seen) return DEFAULT_STRING_TYPE;
  if (s.bool) return 'tinyint(1)';
  if (s.int) {
    if (s.intMin >= INT32_MIN && s.intMax <= INT32_MAX) return 'int';
    if (s.intMin >= INT64_MIN && s.intMax <= INT64_MAX) return 'bigint';
    if (s.intMin >= 0n && s.intMax <= UINT64_MAX) return 'bigint unsigned';
    if (s.intDigits <= 65) return `decimal(${s.intDigits},0)`;
    return 'double';
  }
  if (s.decimal) {
    const precision = Math.max(s.intDigits + s.scale, 1);
    if (precision <= 65 && s.scale <= 30) return `decimal(${precision},${s.scale})`;
    return 'double';
  }
  if (s.double) return 'double';
  if (s.date) return 'date';
  if (s.datetime) return s.fraction ? 'datetime(6)' : 'datetime';
  if (s.time) return s.fraction ? 'time(6)' : 'time';
  return s.maxLength <= VARCHAR_MAX ? DEFAULT_STRING_TYPE : 'longtext';
}
