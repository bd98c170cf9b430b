// The table a change set edits, as its checks need it: the columns at the base commit (name,
// declared type, primary key, nullability), the key's columns, and how two keys compare. Keys are
// compared the way the database compares them: `05` and `5` are one key in an integer column (two
// in a text one), so every key is put in a canonical form before it is looked up.
import type { Cell, QueryColumn } from '../../shared/wire';
import { parseColumnType, type ColumnType } from '../../shared/columnType';
import { checkColumnValue } from './checkColumnValue';

export interface TableShape {
  readonly columns: readonly QueryColumn[];
  /** Indexes into `columns` of the primary key, in key order. */
  readonly keyColumns: readonly number[];
  /** Per column: whether NULL is allowed (key columns never). */
  readonly nullable: readonly boolean[];
  readonly types: readonly ColumnType[];
}

export function tableShape(columns: readonly QueryColumn[], keyColumns: readonly number[], nullable?: readonly boolean[]): TableShape {
  if (keyColumns.length === 0) throw new Error('A change set needs a primary key to match rows.');
  for (const k of keyColumns) if (!columns[k]) throw new Error(`Key column ${k} is not a column of the table.`);
  return {
    columns: columns.slice(),
    keyColumns: keyColumns.slice(),
    nullable: columns.map((_, i) => !keyColumns.includes(i) && (nullable?.[i] ?? true)),
    types: columns.map((c) => parseColumnType(c.type)),
  };
}

/** The problem with `value` in column `col`, or undefined. */
export function cellProblem(shape: TableShape, col: number, value: Cell): string | undefined {
  const c = shape.columns[col];
  if (!c) return `There is no column ${col + 1}.`;
  return checkColumnValue({ name: c.name, type: c.type, nullable: shape.nullable[col] ?? true }, value);
}

export function keyCells(shape: TableShape, row: readonly Cell[]): Cell[] {
  return shape.keyColumns.map((c) => row[c] ?? null);
}

function canonicalNumber(text: string): string {
  const m = /^([+-])?0*(\d*)(?:\.(\d*?)0*)?$/.exec(text);
  if (!m) return text;
  const whole = m[2] || '0';
  const fraction = m[3] ?? '';
  const zero = /^0*$/.test(whole + fraction);
  return `${m[1] === '-' && !zero ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

function canonicalCell(t: ColumnType, v: string): string {
  switch (t.kind) {
    case 'integer':
    case 'boolean':
    case 'year':
    case 'decimal':
      return canonicalNumber(v);
    case 'float':
      return String(Number(v));
    default:
      return v;
  }
}

/**
 * A key in the form the database compares it in, as one string (for maps); undefined when a cell
 * is NULL or does not fit its column (such a key is a problem of its own, not a duplicate).
 */
export function canonicalKey(shape: TableShape, key: readonly Cell[]): string | undefined {
  const out: string[] = [];
  for (let i = 0; i < shape.keyColumns.length; i++) {
    const col = shape.keyColumns[i] as number;
    const v = key[i];
    if (v === null || v === undefined || cellProblem(shape, col, v)) return undefined;
    out.push(canonicalCell(shape.types[col] as ColumnType, v));
  }
  return JSON.stringify(out);
}

/** `id = 5, region = 'north'`: a key as the messages name it. */
export function describeKey(shape: TableShape, key: readonly Cell[]): string {
  const numeric = new Set(['integer', 'boolean', 'decimal', 'float', 'year']);
  return shape.keyColumns
    .map((c, i) => {
      const v = key[i];
      const text = v === null || v === undefined ? 'NULL' : numeric.has(shape.types[c]?.kind ?? '') ? v : `'${v}'`;
      return `${shape.columns[c]?.name} = ${text}`;
    })
    .join(', ');
}
