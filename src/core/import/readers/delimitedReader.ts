import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { ImportParseError } from '../importParseError';
import type { Cell, TableReader } from '../tableReader';
import { checkHeader } from './header';

interface ParsedRecord {
  record: Cell[];
  info: { lines: number };
}

/** csv (`,`) and psv (`|`): header row, then one row per record. Streams. */
export async function openDelimitedReader(
  fileType: 'csv' | 'psv',
  filePath: string,
  options: { signal?: AbortSignal },
): Promise<TableReader> {
  const delimiter = fileType === 'csv' ? ',' : '|';
  const file = createReadStream(filePath, options.signal ? { signal: options.signal } : {});
  const parser = parse({
    delimiter,
    // Files edited on several systems mix line endings; accept each on every line.
    record_delimiter: ['\r\n', '\n', '\r'],
    bom: true,
    info: true,
    relax_column_count: true,
    skip_empty_lines: true,
    // Dolt's csv import reads an empty unquoted field as NULL; "" stays an empty string.
    cast: (value, context) => (value === '' && !context.quoting ? null : value) as unknown as string,
  });
  pipeline(file, parser, () => undefined); // errors surface through the parser's iterator
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<ParsedRecord>;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    file.destroy();
    parser.destroy();
  };

  let rowNumber = 0; // data rows read so far
  const next = async (): Promise<IteratorResult<ParsedRecord>> => {
    try {
      return await records.next();
    } catch (err) {
      await close();
      throw translateError(err, fileType, rowNumber + 1);
    }
  };

  const first = await next();
  if (first.done) {
    await close();
    throw new ImportParseError(`the file has no header row. Put the column names on the first line, separated by "${delimiter}".`, {
      fileType,
      reason: 'empty',
    });
  }
  const columns = checkHeader(fileType, first.value.record, first.value.info.lines);

  async function* rows(): AsyncGenerator<Cell[]> {
    try {
      for (;;) {
        const r = await next();
        if (r.done) return;
        rowNumber++;
        const { record, info } = r.value;
        if (record.length !== columns.length) {
          throw new ImportParseError(
            `${record.length} fields, but the header has ${columns.length} columns. ` +
              `Make every line have ${columns.length} fields; quote fields that contain "${delimiter}" or line breaks.`,
            { fileType, reason: 'bad-row', row: rowNumber, line: info.lines, column: record.length > columns.length ? undefined : columns[record.length] },
          );
        }
        yield record;
      }
    } finally {
      await close();
    }
  }

  return { fileType, columns, rows, close };
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
