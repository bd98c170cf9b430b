// What an import checks of each cell against its column, as MySQL/Dolt would on insert, and the
// failure an import reports (tableImport.ts, sqlDeleteImport.ts).
import type { Cell } from '../core/import/tableReader';

export interface TableColumn {
  name: string;
  type: string;
  notNull: boolean;
  pk: boolean;
}

export class ImportFailure extends Error {
  constructor(
    readonly code: 'VALIDATION_FAILED' | 'NOT_FOUND' | 'CONFLICT',
    message: string,
  ) {
    super(message);
  }
}

type Checked = string | { value: string | number | null };

/** Validates a cell against the column's declared type, as MySQL/Dolt would on insert. */
export function cellChecker(col: TableColumn): (v: Cell) => Checked {
  const t = col.type.toLowerCase().trim();
  const nullCheck = (v: Cell): Checked | undefined =>
    v === null
      ? col.notNull
        ? `NULL is not allowed in ${col.pk ? 'primary key ' : 'NOT NULL '}column "${col.name}".`
        : { value: null }
      : undefined;
  if (/^(tinyint\(1\)|bool|boolean)$/.test(t)) {
    return (v) =>
      nullCheck(v) ??
      (/^(true|1)$/i.test(v as string)
        ? { value: 1 }
        : /^(false|0)$/i.test(v as string)
          ? { value: 0 }
          : `"${v}" is not a boolean (true/false/1/0).`);
  }
  if (/^(tinyint|smallint|mediumint|int|integer|bigint)\b/.test(t)) {
    return (v) =>
      nullCheck(v) ??
      (/^[+-]?\d+$/.test((v as string).trim()) ? { value: (v as string).trim() } : `"${v}" is not an integer (column type ${col.type}).`);
  }
  if (/^(decimal|numeric|float|double|real)\b/.test(t)) {
    return (v) =>
      nullCheck(v) ??
      (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test((v as string).trim())
        ? { value: (v as string).trim() }
        : `"${v}" is not a number (column type ${col.type}).`);
  }
  if (/^date$/.test(t)) {
    return (v) =>
      nullCheck(v) ??
      (/^\d{4}-\d{2}-\d{2}$/.test(v as string) && !Number.isNaN(Date.parse(v as string))
        ? { value: v }
        : `"${v}" is not a date (YYYY-MM-DD).`);
  }
  if (/^(datetime|timestamp)/.test(t)) {
    return (v) =>
      nullCheck(v) ??
      (/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z?)?$/.test(v as string)
        ? { value: (v as string).replace('T', ' ').replace(/Z$/, '') }
        : `"${v}" is not a datetime (YYYY-MM-DD HH:MM:SS).`);
  }
  const len = /^(?:var)?char\((\d+)\)/.exec(t);
  if (len) {
    const max = Number(len[1]);
    return (v) =>
      nullCheck(v) ??
      // A string of at most `max` UTF-16 units has at most `max` characters: count only longer ones.
      ((v as string).length <= max || [...(v as string)].length <= max
        ? { value: v }
        : `the value is ${[...(v as string)].length} characters, longer than ${col.type} allows.`);
  }
  return (v) => nullCheck(v) ?? { value: v };
}
