import { MAX_IMPORT_BYTES, type Cell } from './tableReader';
import * as l10n from '../../shared/l10n';

export type ImportOperationKind = 'create' | 'overwrite' | 'update' | 'replace';
export const IMPORT_OPERATION_KINDS: readonly ImportOperationKind[] = ['create', 'overwrite', 'update', 'replace'];

/** The destination table as the branch has it now. */
export interface ImportTarget {
  table: string;
  exists: boolean;
  /** Existing columns, in table order (empty when the table does not exist). */
  columns: readonly string[];
  /** Existing primary key columns (empty when the table does not exist). */
  primaryKeys: readonly string[];
}

export interface ImportCheckInput {
  fileSize: number;
  /** Header of the file. */
  sourceColumns: readonly string[];
  /** The first rows (a preview), used to check primary key values. */
  rows: readonly (readonly Cell[])[];
  operation: ImportOperationKind;
  target: ImportTarget;
  /** For a new table (create/overwrite): its primary key, as source column names. */
  primaryKeys: readonly string[];
  /** Source column → table column, for every source column that is imported. */
  columnMap: Readonly<Record<string, string>>;
}

export type ImportCheckCode =
  | 'empty-file'
  | 'no-rows'
  | 'file-too-large'
  | 'table-exists'
  | 'table-missing'
  | 'header-mismatch'
  | 'unmapped-columns'
  | 'bad-column-map'
  | 'primary-key-missing'
  | 'primary-key-required'
  | 'primary-key-values';

export interface ImportProblem {
  code: ImportCheckCode;
  severity: 'error' | 'warning';
  /** Says what is wrong and how to fix it. */
  message: string;
}

/** Whether an operation can apply to the table as it is; undefined when it can. */
export function operationUnavailableReason(operation: ImportOperationKind, tableExists: boolean, table: string): string | undefined {
  if (operation === 'create' && tableExists)
    return `Table ${table} already exists: choose overwrite, update or replace, or type a new table name.`;
  if ((operation === 'update' || operation === 'replace') && !tableExists) {
    return `Table ${table} does not exist, so there is nothing to ${operation}: choose create, or pick an existing table.`;
  }
  return undefined;
}

/** What each operation does, for the picker (matches Dolt's `table import` -c, -c -f, -u, -r). */
/** Getters: each text is translated when read, not when this module loads. */
export const OPERATION_DESCRIPTIONS: Readonly<Record<ImportOperationKind, string>> = {
  get create() {
    return l10n.t('Create a new table from the file. The table must not exist yet.');
  },
  get overwrite() {
    return l10n.t('Replace the table, schema included, with one created from the file.');
  },
  get update() {
    return l10n.t("Upsert the file's rows into the existing table: new keys are added, existing keys updated.");
  },
  get replace() {
    return l10n.t("Empty the existing table (keeping its schema), then insert the file's rows.");
  },
};

/** An empty file or one over 1 GiB: checked first, before the file is even parsed. */
export function fileSizeProblem(fileSize: number): ImportProblem | undefined {
  if (fileSize === 0) {
    return {
      code: 'empty-file',
      severity: 'error',
      message: 'The file is empty. Choose a file with a header row and at least one data row.',
    };
  }
  if (fileSize > MAX_IMPORT_BYTES) {
    return {
      code: 'file-too-large',
      severity: 'error',
      message: `The file is ${(fileSize / 1024 ** 3).toFixed(2)} GiB; imports are limited to 1 GiB. Split it into smaller files and import them one after another with "update".`,
    };
  }
  return undefined;
}

/**
 * Checks an import before any byte is uploaded. Returns every problem found (errors block the
 * upload; warnings are shown), each with a message that says how to fix it.
 */
export function checkImport(input: ImportCheckInput): ImportProblem[] {
  const problems: ImportProblem[] = [];
  const report: Report = {
    error: (code, message) => void problems.push({ code, severity: 'error', message }),
    warn: (code, message) => void problems.push({ code, severity: 'warning', message }),
  };
  const { target, operation } = input;

  const sizeProblem = fileSizeProblem(input.fileSize);
  if (sizeProblem) {
    problems.push(sizeProblem);
    if (sizeProblem.code === 'empty-file') return problems;
  }
  if (input.rows.length === 0) {
    report.error('no-rows', 'The file has a header but no data rows. Add rows below the header, or choose another file.');
  }

  const unavailable = operationUnavailableReason(operation, target.exists, target.table);
  if (unavailable) report.error(operation === 'create' ? 'table-exists' : 'table-missing', unavailable);

  const destinations = checkColumnMap(input, report);
  const intoExisting = target.exists && (operation === 'update' || operation === 'replace');
  // Otherwise a new table: create, or overwrite which recreates it from the file.
  if (intoExisting) checkIntoExistingTable(input, destinations, report);
  else checkNewTableKey(input, report);
  return problems;
}

/** Where checks put what they find. */
interface Report {
  error(code: ImportCheckCode, message: string): void;
  warn(code: ImportCheckCode, message: string): void;
}

/** Column map: keys must be source columns, values distinct. Returns table column (lower case) → source column. */
function checkColumnMap(input: ImportCheckInput, report: Report): Map<string, string> {
  const sourceSet = new Set(input.sourceColumns);
  const destinations = new Map<string, string>();
  for (const [source, dest] of Object.entries(input.columnMap)) {
    if (!sourceSet.has(source)) {
      report.error('bad-column-map', `The column map names "${source}", which is not a column of the file. Remove it from the column map.`);
      continue;
    }
    const other = destinations.get(dest.toLowerCase());
    if (other !== undefined) {
      report.error(
        'bad-column-map',
        `File columns "${other}" and "${source}" are both mapped to "${dest}". Map each file column to a different table column.`,
      );
    }
    destinations.set(dest.toLowerCase(), source);
  }
  return destinations;
}

/** Update or replace: every file column lands in a table column, and the table's key is in the file. */
function checkIntoExistingTable(input: ImportCheckInput, destinations: ReadonlyMap<string, string>, report: Report): void {
  const { target, operation } = input;
  const tableColumns = new Map(target.columns.map((c) => [c.toLowerCase(), c]));
  // Every file column must land in a table column: the import has no way to drop one.
  const notInTable = input.sourceColumns.filter((c) => {
    const dest = input.columnMap[c];
    return dest === undefined || !tableColumns.has(dest.toLowerCase());
  });
  if (notInTable.length > 0) {
    const shown = notInTable.map((c) =>
      input.columnMap[c] === undefined || input.columnMap[c] === c ? c : `${c} → ${input.columnMap[c]}`,
    );
    report.error(
      'header-mismatch',
      `The file's header does not match table ${target.table}: ${list(shown)} ` +
        `${notInTable.length === 1 ? 'is not a column' : 'are not columns'} of the table (it has ${list(target.columns)}). ` +
        'Rename the header in the file, or map each file column to a table column.',
    );
  }
  const missingKeys = target.primaryKeys.filter((k) => !destinations.has(k.toLowerCase()));
  if (missingKeys.length > 0) {
    report.error(
      'primary-key-missing',
      `Primary key ${missingKeys.length === 1 ? 'column' : 'columns'} ${list(missingKeys)} of table ${target.table} ` +
        `${missingKeys.length === 1 ? 'is' : 'are'} missing from the file. Add ${missingKeys.length === 1 ? 'that column' : 'those columns'} to the file, or map a file column to ${missingKeys.length === 1 ? 'it' : 'them'}.`,
    );
  }
  const unfilled = target.columns.filter((c) => !destinations.has(c.toLowerCase()) && !missingKeys.includes(c));
  if (unfilled.length > 0 && operation === 'replace') {
    report.warn(
      'unmapped-columns',
      `Table columns ${list(unfilled)} get no value from the file; after the replace they hold their default (or NULL).`,
    );
  }
}

/** A new table: a primary key of file columns, kept in the column map, with values in every previewed row. */
function checkNewTableKey(input: ImportCheckInput, report: Report): void {
  const sourceSet = new Set(input.sourceColumns);
  if (input.primaryKeys.length === 0) {
    report.error('primary-key-required', 'A new table needs a primary key. Choose one or more columns whose values identify each row.');
  }
  const unknownKeys = input.primaryKeys.filter((k) => !sourceSet.has(k));
  if (unknownKeys.length > 0) {
    report.error(
      'primary-key-missing',
      `Primary key ${list(unknownKeys)} is not a column of the file. Choose primary key columns from the file's header.`,
    );
  }
  const unmappedKeys = input.primaryKeys.filter((k) => sourceSet.has(k) && !Object.hasOwn(input.columnMap, k));
  if (unmappedKeys.length > 0) {
    report.error(
      'primary-key-missing',
      `Primary key ${list(unmappedKeys)} is left out of the column map. Include it, or choose another key.`,
    );
  }
  const keyIdx = input.primaryKeys.map((k) => input.sourceColumns.indexOf(k)).filter((i) => i >= 0);
  if (keyIdx.length === input.primaryKeys.length && keyIdx.length > 0) checkKeyValues(input, keyIdx, report);
}

/** The first empty or repeated key among the previewed rows (one problem: the rest likely repeat it). */
function checkKeyValues(input: ImportCheckInput, keyIdx: readonly number[], report: Report): void {
  const seen = new Map<string, number>();
  for (let r = 0; r < input.rows.length; r++) {
    const row = input.rows[r]!;
    const emptyAt = keyIdx.find((i) => row[i] === null || row[i] === undefined);
    if (emptyAt !== undefined) {
      report.error(
        'primary-key-values',
        `Row ${r + 1} has no value for primary key column "${input.sourceColumns[emptyAt]}". Fill it in, or choose another key.`,
      );
      return;
    }
    const key = JSON.stringify(keyIdx.map((i) => row[i]));
    const before = seen.get(key);
    if (before !== undefined) {
      report.error(
        'primary-key-values',
        `Rows ${before + 1} and ${r + 1} have the same primary key (${keyIdx.map((i) => row[i]).join(', ')}). Choose a key that is unique in every row, or remove the duplicate.`,
      );
      return;
    }
    seen.set(key, r);
  }
}

function list(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(', ');
}
