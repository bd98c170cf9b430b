import { ImportParseError } from '../importParseError';
import { JSON_COLUMN_SAMPLE, type Cell, type TableReader } from '../tableReader';

/**
 * Shared by json and yaml: a stream of "row objects" becomes a table. Columns are the keys in
 * order of first appearance over the first JSON_COLUMN_SAMPLE objects (buffered; the rest
 * streams). A key first seen later is an error rather than a silently dropped value.
 */
export async function objectTable(
  fileType: 'json' | 'yaml',
  elements: AsyncIterator<unknown>,
  close: () => Promise<void>,
  signal: AbortSignal | undefined,
): Promise<TableReader> {
  let sample: ColumnSample;
  try {
    sample = await sampleColumns(fileType, elements, signal);
  } catch (err) {
    await close();
    throw err;
  }
  const { buffered, columns, exhausted } = sample;
  if (columns.length === 0) {
    await close();
    throw new ImportParseError(
      buffered.length === 0
        ? `there are no rows. Put the rows in a list of objects, e.g. [{"id": 1, "name": "a"}].`
        : 'every object is empty, so there are no columns. Give the objects keys (column names).',
      { fileType, reason: 'empty' },
    );
  }
  const toRow = rowMaker(fileType, sample);

  async function* rows(): AsyncGenerator<Cell[]> {
    let rowNumber = 0;
    try {
      for (const obj of buffered.splice(0)) {
        signal?.throwIfAborted();
        yield toRow(obj, ++rowNumber);
      }
      if (exhausted) return;
      for (;;) {
        signal?.throwIfAborted();
        const r = await elements.next();
        if (r.done) return;
        rowNumber++;
        yield toRow(asRowObject(fileType, r.value, rowNumber), rowNumber);
      }
    } finally {
      await close();
    }
  }

  return { fileType, columns, rows, close };
}

/** The first objects (kept to be read again as rows) and the columns their keys make. */
interface ColumnSample {
  buffered: Record<string, unknown>[];
  columns: string[];
  /** Lower-cased column name → its index in `columns`. */
  columnIndex: Map<string, number>;
  /** True when the sample holds every object of the file. */
  exhausted: boolean;
}

async function sampleColumns(
  fileType: 'json' | 'yaml',
  elements: AsyncIterator<unknown>,
  signal: AbortSignal | undefined,
): Promise<ColumnSample> {
  const sample: ColumnSample = { buffered: [], columns: [], columnIndex: new Map(), exhausted: false };
  const { buffered, columns, columnIndex } = sample;
  while (buffered.length < JSON_COLUMN_SAMPLE) {
    signal?.throwIfAborted();
    const r = await elements.next();
    if (r.done) {
      sample.exhausted = true;
      break;
    }
    const obj = asRowObject(fileType, r.value, buffered.length + 1);
    for (const key of Object.keys(obj)) {
      const name = key.trim();
      if (name === '') {
        throw new ImportParseError('an object has an empty key. Give every value a column name.', {
          fileType,
          reason: 'bad-header',
          row: buffered.length + 1,
        });
      }
      if (!columnIndex.has(name.toLowerCase())) {
        columnIndex.set(name.toLowerCase(), columns.length);
        columns.push(name);
      }
    }
    buffered.push(obj);
  }
  return sample;
}

/** One object as a row in column order; a key none of the sampled objects has is an error. */
function rowMaker(fileType: 'json' | 'yaml', sample: ColumnSample): (obj: Record<string, unknown>, rowNumber: number) => Cell[] {
  const { columns, columnIndex } = sample;
  return (obj, rowNumber) => {
    const row: Cell[] = new Array<Cell>(columns.length).fill(null);
    for (const [key, value] of Object.entries(obj)) {
      const idx = columnIndex.get(key.trim().toLowerCase());
      if (idx === undefined) {
        throw new ImportParseError(
          `this object has the key "${key}", which none of the first ${JSON_COLUMN_SAMPLE} objects has. ` +
            `Add "${key}": null to the first object so the column is known from the start.`,
          { fileType, reason: 'bad-row', row: rowNumber, column: key },
        );
      }
      row[idx] = toCell(value);
    }
    return row;
  };
}

function asRowObject(fileType: 'json' | 'yaml', value: unknown, row: number): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Date || value instanceof JsonNumber) {
    const what =
      value === null
        ? 'null'
        : Array.isArray(value)
          ? 'a list'
          : value instanceof JsonNumber
            ? 'a number'
            : typeof value === 'string'
              ? 'a string'
              : typeof value;
    throw new ImportParseError(`this row is ${what}, not an object. Each row must be an object of column names to values.`, {
      fileType,
      reason: 'bad-row',
      row,
    });
  }
  return value as Record<string, unknown>;
}

/** A JSON number as written in the file, so no digit is lost to floating point. */
export class JsonNumber {
  constructor(readonly text: string) {}
}

/** A JS value from json/yaml as cell text; nested lists and objects become JSON text. */
export function toCell(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (value instanceof JsonNumber) return value.text;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return formatDate(value);
  return jsonText(value);
}

function jsonText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof JsonNumber) return value.text;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return JSON.stringify(formatDate(value));
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A Date as MySQL literal text (UTC): `YYYY-MM-DD` at midnight, else `YYYY-MM-DD HH:MM:SS[.fff]`. */
export function formatDate(d: Date): string {
  const iso = d.toISOString(); // 2024-01-02T03:04:05.678Z
  const date = iso.slice(0, 10);
  const time = iso.slice(11, 19);
  const ms = iso.slice(20, 23);
  if (time === '00:00:00' && ms === '000') return date;
  return `${date} ${time}${ms === '000' ? '' : '.' + ms}`;
}
