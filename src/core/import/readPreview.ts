import { inferColumnTypes } from './inferColumnTypes';
import { openTableReader } from './openTableReader';
import type { Cell, ImportFileKind, TableReaderOptions } from './tableReader';

export interface ImportPreview {
  fileType: ImportFileKind;
  columns: string[];
  /** The first rows, at most `maxRows`. */
  rows: Cell[][];
  /** Inferred from `rows` only: a hint for a new table, not a promise about the whole file. */
  types: string[];
  /** True when the file has more rows than were read. */
  truncated: boolean;
  declaredTypes?: Readonly<Record<string, string>>;
  declaredPrimaryKeys?: readonly string[];
  sourceTable?: string;
}

export const DEFAULT_PREVIEW_ROWS = 100;

/**
 * Reads the header and the first rows of a file, and infers types from them. Reads only what
 * it shows (plus one row to know whether there is more), so it is cheap on a 1 GiB file —
 * except yaml, which is read whole (capped). Throws ImportParseError for a bad file or a bad
 * row among the first `maxRows`.
 */
export async function readPreview(
  fileType: ImportFileKind,
  filePath: string,
  options: TableReaderOptions & { maxRows?: number } = {},
): Promise<ImportPreview> {
  const maxRows = options.maxRows ?? DEFAULT_PREVIEW_ROWS;
  const reader = await openTableReader(fileType, filePath, options);
  const rows: Cell[][] = [];
  let truncated = false;
  try {
    for await (const row of reader.rows()) {
      if (rows.length === maxRows) {
        truncated = true;
        break;
      }
      rows.push(row);
    }
  } finally {
    await reader.close();
  }
  const columns = [...reader.columns];
  const types = columns.map(
    (c, i) =>
      reader.declaredTypes?.[c] ??
      inferColumnTypes(
        [c],
        rows.map((r) => [r[i] ?? null]),
      )[0]!,
  );
  return {
    fileType,
    columns,
    rows,
    types,
    truncated,
    ...(reader.declaredTypes ? { declaredTypes: reader.declaredTypes } : {}),
    ...(reader.declaredPrimaryKeys ? { declaredPrimaryKeys: reader.declaredPrimaryKeys } : {}),
    ...(reader.sourceTable !== undefined ? { sourceTable: reader.sourceTable } : {}),
  };
}
