import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { CsvError, parse, type Options } from 'csv-parse';
import { ImportParseError } from '../importParseError';
import type { Cell, TableReader } from '../tableReader';
import { FastDelimitedRecords, type FastStep } from './fastDelimited';
import { checkHeader } from './header';

interface ParsedRecord {
  record: Cell[];
  raw: string;
}

function parserOptions(delimiter: string): Options {
  return {
    delimiter,
    // Files edited on several systems mix line endings; accept each on every line.
    record_delimiter: ['\r\n', '\n', '\r'],
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
  };
}

/** The records of a file, each with NULL for an empty unquoted field. */
export interface RecordSource {
  next(): Promise<Cell[] | undefined>;
  close(): void;
}

/** Also: the records read and not yet given (at least one), or undefined at the end. */
export interface BatchedRecordSource extends RecordSource {
  nextBatch(): Promise<Cell[][] | undefined>;
}

/** csv-parse over the whole file, after skipping its first `skip` records. */
export function csvParseRecords(filePath: string, delimiter: string, signal: AbortSignal | undefined, skip: number): RecordSource {
  const file = createReadStream(filePath, signal ? { signal } : {});
  // `raw` rather than a `cast` function: csv-parse builds a context object per field for `cast`
  // (10x slower here); the raw text is only looked at for records with an empty field.
  const parser = parse({ ...parserOptions(delimiter), raw: true });
  pipeline(file, parser, () => undefined); // errors surface through the parser's iterator
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<ParsedRecord>;
  let skipped = 0;
  return {
    async next() {
      for (;;) {
        const r = await records.next();
        if (r.done) return undefined;
        if (skipped++ < skip) continue;
        return nullsForEmpty(r.value.record, r.value.raw, delimiter);
      }
    },
    close() {
      file.destroy();
      parser.destroy();
    },
  };
}

/**
 * The fast reader (fastDelimited.ts) while the file is plain, then csv-parse from the first record
 * the fast reader leaves to it: the records before it are the same in both.
 */
export function fileRecords(
  filePath: string,
  delimiter: string,
  signal: AbortSignal | undefined,
  chunkBytes?: number,
): BatchedRecordSource {
  const fast = new FastDelimitedRecords(filePath, delimiter, signal, chunkBytes);
  let slow: RecordSource | undefined;
  let queue: Cell[][] = [];
  let at = 0;
  let given = 0; // records given out
  let step: FastStep = { records: [], done: false, unsure: false };
  const next = async (): Promise<Cell[] | undefined> => {
    for (;;) {
      if (slow) return slow.next();
      if (at < queue.length) {
        given++;
        return queue[at++];
      }
      if (step.unsure) slow = csvParseRecords(filePath, delimiter, signal, given);
      else if (step.done) return undefined;
      else {
        step = await fast.next();
        queue = step.records;
        at = 0;
      }
    }
  };
  return {
    next,
    async nextBatch() {
      if (slow || at >= queue.length) {
        const first = await next();
        // csv-parse's records come one at a time; the fast reader's a chunk at a time.
        if (first === undefined || slow) return first === undefined ? undefined : [first];
      } else {
        given++;
        at++;
      }
      const from = at - 1;
      given += queue.length - at;
      at = queue.length;
      return from === 0 ? queue : queue.slice(from);
    },
    close() {
      fast.close();
      slow?.close();
    },
  };
}

/** csv (`,`) and psv (`|`): header row, then one row per record. Streams. */
export async function openDelimitedReader(
  fileType: 'csv' | 'psv',
  filePath: string,
  options: { signal?: AbortSignal },
): Promise<TableReader> {
  const delimiter = fileType === 'csv' ? ',' : '|';
  const records = fileRecords(filePath, delimiter, options.signal);
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    records.close();
  };

  let rowNumber = 0; // data rows read so far
  const read = async <T>(get: () => Promise<T>): Promise<T> => {
    try {
      return await get();
    } catch (err) {
      await close();
      throw translateError(err, fileType, rowNumber + 1);
    }
  };

  const first = await read(() => records.next());
  if (!first) {
    await close();
    throw new ImportParseError(`the file has no header row. Put the column names on the first line, separated by "${delimiter}".`, {
      fileType,
      reason: 'empty',
    });
  }
  const columns = checkHeader(fileType, first);

  /** The rows a chunk of the file at a time (one await per chunk, not per row); rows() gives them one by one. */
  async function* rowBatches(): AsyncGenerator<Cell[][]> {
    try {
      for (;;) {
        const batch = await read(() => records.nextBatch());
        if (!batch) return;
        const bad = batch.findIndex((r) => r.length !== columns.length);
        if (bad === -1) {
          rowNumber += batch.length;
          yield batch;
          continue;
        }
        // The rows before the bad one are given first, as one at a time.
        if (bad > 0) {
          rowNumber += bad;
          yield batch.slice(0, bad);
        }
        rowNumber++;
        throw await fieldCountError({ fileType, filePath, delimiter, columns }, batch[bad] as Cell[], rowNumber);
      }
    } finally {
      await close();
    }
  }

  async function* rows(): AsyncGenerator<Cell[]> {
    for await (const batch of rowBatches()) yield* batch;
  }

  return { fileType, columns, rows, rowBatches, close };
}

/** A record with more or fewer fields than the header has columns, and the line it starts on. */
async function fieldCountError(
  file: { fileType: 'csv' | 'psv'; filePath: string; delimiter: string; columns: readonly string[] },
  record: Cell[],
  rowNumber: number,
): Promise<ImportParseError> {
  const { fileType, delimiter, columns } = file;
  const line = await lineOfRecord(file.filePath, delimiter, rowNumber); // record 0 is the header
  return new ImportParseError(
    `${plural(record.length, 'field')}, but the header has ${plural(columns.length, 'column')}. ` +
      `Make every line have ${plural(columns.length, 'field')}; quote fields that contain "${delimiter}" or line breaks.`,
    {
      fileType,
      reason: 'bad-row',
      row: rowNumber,
      line,
      column: record.length > columns.length ? undefined : columns[record.length],
    },
  );
}

/**
 * Dolt's csv import reads an empty unquoted field as NULL and a quoted empty field `""` as the
 * empty string. Only records with an empty field pay for looking at their raw text.
 */
function nullsForEmpty(record: Cell[], raw: string, delimiter: string): Cell[] {
  let quoted: Set<number> | undefined;
  for (let i = 0; i < record.length; i++) {
    if (record[i] !== '') continue;
    // The raw text starts with the empty lines skipped before the record: not part of a field.
    quoted ??= raw.includes('""') ? quotedEmptyFields(raw.replace(/^[\r\n]+/, ''), delimiter) : new Set();
    if (!quoted.has(i)) record[i] = null;
  }
  return record;
}

/** Indices of the fields written exactly as `""` in one record's raw text. */
export function quotedEmptyFields(raw: string, delimiter: string): Set<number> {
  const out = new Set<number>();
  let field = 0;
  let i = 0;
  const n = raw.length;
  while (i <= n) {
    if (raw[i] === '"') {
      const start = i;
      i++;
      for (;;) {
        if (i >= n) return out;
        if (raw[i] === '"') {
          if (raw[i + 1] === '"') {
            i += 2;
            continue;
          }
          break;
        }
        i++;
      }
      if (i === start + 1) out.add(field);
      i++; // past the closing quote
    }
    const next = raw.indexOf(delimiter, i);
    if (next < 0) break;
    i = next + delimiter.length;
    field++;
  }
  return out;
}

/** The 1-based line a record starts on, found by reading again: only on the error path. */
async function lineOfRecord(filePath: string, delimiter: string, recordIndex: number): Promise<number | undefined> {
  const parser = createReadStream(filePath).pipe(parse({ ...parserOptions(delimiter), info: true }));
  let i = 0;
  try {
    for await (const r of parser as AsyncIterable<{ info: { lines: number } }>) {
      if (i++ === recordIndex) return r.info.lines;
    }
  } catch {
    // the line is a courtesy; the error being reported is what matters
  } finally {
    parser.destroy();
  }
  return undefined;
}

function translateError(err: unknown, fileType: 'csv' | 'psv', row: number): unknown {
  if (!(err instanceof CsvError)) return err;
  const line = typeof err['lines'] === 'number' ? err['lines'] : undefined;
  let problem: string;
  switch (err.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      problem = 'a quoted field is never closed. Close it with a double quote, or double the quotes inside it ("").';
      break;
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      problem = 'a character follows a closing quote. Quote the whole field and write quotes inside it as "".';
      break;
    case 'INVALID_OPENING_QUOTE':
      problem = 'a quote appears inside an unquoted field. Quote the whole field and write quotes inside it as "".';
      break;
    default:
      problem = `${err.message}. Check the file is valid ${fileType.toUpperCase()}.`;
  }
  return new ImportParseError(problem, { fileType, reason: 'bad-syntax', row, line, cause: err });
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
