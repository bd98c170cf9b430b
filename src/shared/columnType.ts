// What a column's declared SQL type (as DESCRIBE prints it on Dolt, or as DoltLite keeps it
// verbatim) means for editing a value: which editor the grid opens (src/renderer/cellEditor.ts) and
// which checks a typed value must pass (src/core/changes/checkColumnValue.ts). One parser for both,
// so the editor and the checks never disagree about a type.

export type ColumnTypeKind =
  | 'integer'
  | 'boolean'
  | 'decimal'
  | 'float'
  | 'date'
  | 'datetime'
  | 'time'
  | 'year'
  | 'json'
  | 'enum'
  | 'set'
  | 'text'
  /** Bytes (blob, binary, bit, spatial types): shown as `<binary>`, never edited as text. */
  | 'binary';

export interface ColumnType {
  kind: ColumnTypeKind;
  /** The declared type, lower case and trimmed. */
  declared: string;
  unsigned: boolean;
  /** Integers: the smallest and largest value (as bigint, so BIGINT UNSIGNED fits). */
  min?: bigint;
  max?: bigint;
  /** decimal(p, s): digits in all, digits after the point. */
  precision?: number;
  scale?: number;
  /** char(n) / varchar(n): characters; text types: bytes of UTF-8. */
  maxChars?: number;
  maxBytes?: number;
  /** datetime(n), timestamp(n), time(n): digits of the fraction of a second allowed. */
  fraction?: number;
  /** enum and set: the members, in declared order. */
  values?: string[];
  /** A long value: the grid edits it in a larger box. */
  long: boolean;
}

const INTEGER_BITS: Record<string, number> = { tinyint: 8, smallint: 16, mediumint: 24, int: 32, integer: 32, bigint: 64 };
const TEXT_BYTES: Record<string, number> = { tinytext: 255, text: 65_535, mediumtext: 16_777_215, longtext: 4_294_967_295 };
const BINARY =
  /^(binary|varbinary|tinyblob|blob|mediumblob|longblob|bit|geometry|point|linestring|polygon|multipoint|multilinestring|multipolygon|geometrycollection|geomcollection|vector)\b/;

/** The quoted members of `enum('a','b')` / `set(...)` (quotes doubled inside are one quote). */
function quotedValues(args: string): string[] {
  const out: string[] = [];
  const re = /'((?:[^']|'')*)'/g;
  for (const m of args.matchAll(re)) out.push((m[1] ?? '').replace(/''/g, "'"));
  return out;
}

function integerType(base: string, declared: string, unsigned: boolean): ColumnType {
  const bits = INTEGER_BITS[base] ?? 64;
  const min = unsigned ? 0n : -(1n << BigInt(bits - 1));
  const max = unsigned ? (1n << BigInt(bits)) - 1n : (1n << BigInt(bits - 1)) - 1n;
  return { kind: 'integer', declared, unsigned, min, max, long: false };
}

function numbersIn(args: string | undefined): number[] {
  return (args ?? '')
    .split(',')
    .map((a) => Number(a.trim()))
    .filter((n) => Number.isInteger(n) && n >= 0);
}

/** Parses a declared type such as `bigint unsigned`, `varchar(255)`, `decimal(10,2)`, `enum('a','b')`. */
export function parseColumnType(type: string): ColumnType {
  const declared = type.trim().toLowerCase();
  const m = /^([a-z ]+?)\s*(?:\((.*)\))?\s*(unsigned)?\s*(zerofill)?$/s.exec(declared);
  const base = (m?.[1] ?? declared).trim().replace(/\s+/g, ' ');
  const args = m?.[2];
  const unsigned = !!m?.[3] || /\bunsigned\b/.test(declared);
  const nums = numbersIn(args);
  const plain = { declared, unsigned, long: false };
  if (BINARY.test(base)) return { kind: 'binary', ...plain };
  if (base === 'bool' || base === 'boolean' || (base === 'tinyint' && nums[0] === 1)) return { kind: 'boolean', ...plain };
  if (base in INTEGER_BITS) return integerType(base, declared, unsigned);
  if (/^(decimal|numeric|dec|fixed)$/.test(base))
    return { kind: 'decimal', ...plain, ...(nums.length ? { precision: nums[0], scale: nums[1] ?? 0 } : {}) };
  if (/^(float|double|double precision|real)$/.test(base)) return { kind: 'float', ...plain };
  if (base === 'date') return { kind: 'date', ...plain };
  if (base === 'datetime' || base === 'timestamp') return { kind: 'datetime', ...plain, fraction: nums[0] ?? 0 };
  if (base === 'time') return { kind: 'time', ...plain, fraction: nums[0] ?? 0 };
  if (base === 'year') return { kind: 'year', ...plain };
  if (base === 'json') return { kind: 'json', ...plain, long: true };
  if (base === 'enum' || base === 'set') return { kind: base, ...plain, values: quotedValues(args ?? '') };
  if (/^(char|character|nchar|national char)$/.test(base) || /^(varchar|character varying|nvarchar|national varchar)$/.test(base)) {
    const n = nums[0];
    return { kind: 'text', ...plain, ...(n !== undefined ? { maxChars: n } : {}), long: n !== undefined && n > 255 };
  }
  if (base in TEXT_BYTES) return { kind: 'text', ...plain, maxBytes: TEXT_BYTES[base], long: base !== 'tinytext' };
  // SQLite's own names (DoltLite keeps declared types verbatim) and anything unknown: text, no limit.
  if (base === 'int8' || base === 'int2' || base === 'int4') return integerType('bigint', declared, false);
  return { kind: 'text', ...plain, long: base === 'clob' };
}
