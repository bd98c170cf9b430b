// Whether a typed value fits its column as Dolt (MySQL) would store it, without rounding, cutting
// or coercing it: NOT NULL, whole numbers in the type's range, decimals within their digits, real
// dates and times, JSON that parses, text within its length, enum and set members. A value that
// does not fit is a problem at its cell (the message says what fits), never changed into one that
// does: the change set sends exactly what was typed.
import type { Cell } from '../../shared/wire';
import { parseColumnType, type ColumnType } from '../../shared/columnType';

/** A column as the checks need it. */
export interface CheckedColumn {
  name: string;
  type: string;
  nullable: boolean;
}

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?$/;
const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?$/;
const TIME = /^(-)?(\d{1,3}):(\d{2}):(\d{2})(?:\.(\d+))?$/;

function validDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return y >= 1000 && d <= days;
}

function checkInteger(t: ColumnType, v: string): string | undefined {
  if (!INTEGER.test(v)) return 'a whole number';
  const n = BigInt(v);
  if ((t.min !== undefined && n < t.min) || (t.max !== undefined && n > t.max)) return `a whole number from ${t.min} to ${t.max}`;
  return undefined;
}

function checkDecimal(t: ColumnType, v: string): string | undefined {
  const m = DECIMAL.exec(v);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return 'a decimal number (digits, one point, no exponent)';
  if (t.precision === undefined) return undefined;
  const scale = t.scale ?? 0;
  const whole = (m[2] ?? '').replace(/^0+/, '');
  const fraction = m[3] ?? '';
  if (whole.length > t.precision - scale || fraction.length > scale)
    return `a decimal with at most ${t.precision - scale} digits before the point and ${scale} after`;
  return undefined;
}

function checkTemporal(t: ColumnType, v: string): string | undefined {
  if (t.kind === 'date') return validDate(v) ? undefined : 'a date as YYYY-MM-DD';
  const fraction = t.fraction ?? 0;
  const fractionText = fraction > 0 ? `[.${'f'.repeat(fraction)}]` : '';
  if (t.kind === 'datetime') {
    const m = DATETIME.exec(v);
    const ok = !!m && validDate(m[1] ?? '') && Number(m[2]) < 24 && Number(m[3]) < 60 && Number(m[4]) < 60;
    if (!ok || (m?.[5] ?? '').length > fraction) return `a date and time as YYYY-MM-DD HH:MM:SS${fractionText}, without a time zone`;
    return undefined;
  }
  if (t.kind === 'time') {
    const m = TIME.exec(v);
    const ok = !!m && Number(m[2]) <= 838 && Number(m[3]) < 60 && Number(m[4]) < 60;
    if (!ok || (m?.[5] ?? '').length > fraction) return `a time as HH:MM:SS${fractionText} (up to 838:59:59)`;
    return undefined;
  }
  // year
  return /^\d{4}$/.test(v) && (v === '0000' || (Number(v) >= 1901 && Number(v) <= 2155)) ? undefined : 'a year from 1901 to 2155';
}

function checkText(t: ColumnType, v: string): string | undefined {
  if (t.maxChars !== undefined) {
    const chars = [...v].length;
    if (chars > t.maxChars) return `at most ${t.maxChars} characters (this has ${chars})`;
  }
  if (t.maxBytes !== undefined) {
    const bytes = new TextEncoder().encode(v).length;
    if (bytes > t.maxBytes)
      return `at most ${t.maxBytes.toLocaleString('en-US')} bytes of UTF-8 (this has ${bytes.toLocaleString('en-US')})`;
  }
  return undefined;
}

function checkMembers(t: ColumnType, v: string): string | undefined {
  const values = t.values ?? [];
  const list = values.map((x) => `'${x}'`).join(', ');
  if (t.kind === 'enum') return values.includes(v) ? undefined : `one of ${list}`;
  if (v === '') return undefined;
  return v.split(',').every((part) => values.includes(part)) ? undefined : `members of ${list}, separated by commas`;
}

/** What the value must be to fit, or undefined when it fits. */
function expected(t: ColumnType, v: string): string | undefined {
  switch (t.kind) {
    case 'integer':
      return checkInteger(t, v);
    case 'boolean':
      return checkInteger({ ...t, min: -128n, max: 127n }, v) ? '1 (true) or 0 (false)' : undefined;
    case 'decimal':
      return checkDecimal(t, v);
    case 'float':
      return FLOAT.test(v) && Number.isFinite(Number(v)) ? undefined : 'a number';
    case 'date':
    case 'datetime':
    case 'time':
    case 'year':
      return checkTemporal(t, v);
    case 'json':
      try {
        JSON.parse(v);
        return undefined;
      } catch {
        return 'valid JSON';
      }
    case 'enum':
    case 'set':
      return checkMembers(t, v);
    case 'binary':
      return 'bytes, which cannot be typed here';
    case 'text':
      return checkText(t, v);
  }
}

/** The problem with `value` in `column` (a message for the cell), or undefined when it fits. */
export function checkColumnValue(column: CheckedColumn, value: Cell): string | undefined {
  if (value === null) return column.nullable ? undefined : `${column.name} cannot be NULL.`;
  const t = parseColumnType(column.type);
  const want = expected(t, value);
  return want ? `${column.name} (${column.type}) needs ${want}.` : undefined;
}
