import type { ImportFileKind } from './tableReader';

/** Why a file could not be read; callers branch on this, never on the message. */
export type ImportParseErrorReason =
  | 'empty' // no header / no content
  | 'bad-header' // empty or duplicate column names, header not a row of names
  | 'bad-row' // a data row that cannot be read (field count, quoting, not an object…)
  | 'bad-syntax' // the file is not valid csv/json/yaml/sql/xlsx at all
  | 'too-large' // over a size cap
  | 'unsupported'; // valid file, but a shape we do not import (e.g. SQL UPDATE statements)

export interface ImportParseErrorInit {
  fileType: ImportFileKind;
  reason: ImportParseErrorReason;
  /** 1-based data row (the header is not counted); absent for whole-file problems. */
  row?: number;
  /** The source column name the problem is in, when known. */
  column?: string;
  /** 1-based line in the file, for text formats, when known. */
  line?: number;
  cause?: unknown;
}

/**
 * A problem with an import file. `message` is complete and user facing: it says where (row,
 * column, line) and how to fix it, e.g.
 * `CSV row 3 (line 4): 5 fields but the header has 4 columns. Quote fields that contain ",".`
 */
export class ImportParseError extends Error {
  override readonly name = 'ImportParseError';
  readonly fileType: ImportFileKind;
  readonly reason: ImportParseErrorReason;
  readonly row: number | undefined;
  readonly column: string | undefined;
  readonly line: number | undefined;

  constructor(problem: string, init: ImportParseErrorInit) {
    super(formatMessage(problem, init), init.cause === undefined ? undefined : { cause: init.cause });
    this.fileType = init.fileType;
    this.reason = init.reason;
    this.row = init.row;
    this.column = init.column;
    this.line = init.line;
  }
}

function formatMessage(problem: string, init: ImportParseErrorInit): string {
  const where: string[] = [];
  if (init.row !== undefined) where.push(`row ${init.row}`);
  if (init.line !== undefined) where.push(init.row !== undefined ? `(line ${init.line})` : `line ${init.line}`);
  if (init.column !== undefined) where.push(`column "${init.column}"`);
  const prefix = init.fileType.toUpperCase() + (where.length ? ' ' + where.join(' ').replace(') column', '), column') : '');
  return `${prefix}: ${problem}`;
}
