import { createReadStream, statSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { ImportParseError } from '../importParseError';
import type { Cell, TableReader } from '../tableReader';
import { checkHeader } from './header';
import { formatDate } from './objectRows';

/**
 * The first worksheet of a workbook, streamed with exceljs' WorkbookReader. Its first non-empty
 * row is the header; fully empty rows are skipped. Styles are read so that date-formatted
 * numbers come back as dates.
 */
export async function openXlsxReader(filePath: string, options: { signal?: AbortSignal }): Promise<TableReader> {
  const file = createReadStream(filePath, options.signal ? { signal: options.signal } : {});
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(file, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    file.destroy();
  };
  const fail = failure(close, options.signal);

  let sheetRows: AsyncIterator<ExcelJS.Row>;
  let header: { cells: Cell[]; sheetRow: number } | undefined;
  try {
    ({ sheetRows, header } = await firstSheetHeader(workbook).catch(async (err: unknown) => {
      if (!lostSheetList(err) || statSync(filePath).size > WHOLE_READ_LIMIT) throw err;
      await close();
      return firstSheetRead(filePath);
    }));
  } catch (err) {
    return fail(err);
  }
  if (!header) {
    await close();
    throw new ImportParseError('the first worksheet is empty. Put the column names in its first row.', {
      fileType: 'xlsx',
      reason: 'empty',
    });
  }
  const columns = checkHeader('xlsx', header.cells);
  const width = columns.length;

  async function* rows(): AsyncGenerator<Cell[]> {
    let rowNumber = 0;
    try {
      for (;;) {
        options.signal?.throwIfAborted();
        let r: IteratorResult<ExcelJS.Row>;
        try {
          r = await sheetRows.next();
        } catch (err) {
          return await fail(err, rowNumber + 1);
        }
        if (r.done) return;
        const cells = rowCells(r.value);
        if (!cells.some((c) => c !== null)) continue;
        rowNumber++;
        yield toWidth(cells, width, { sheetRow: r.value.number, rowNumber });
      }
    } finally {
      await close();
    }
  }

  return { fileType: 'xlsx', columns, rows, close };
}

/**
 * Ends the read on an error, the file closed: a parse error or an abort as it is, anything else
 * said as a workbook that cannot be read (at data row `row` when known).
 */
function failure(close: () => Promise<void>, signal: AbortSignal | undefined): (err: unknown, row?: number) => Promise<never> {
  return async (err, row) => {
    await close();
    if (err instanceof ImportParseError || (err instanceof Error && err.name === 'AbortError')) throw err;
    if (signal?.aborted) throw signal.reason;
    throw new ImportParseError(
      `the file could not be read as an Excel workbook (${err instanceof Error ? err.message : String(err)}). ` +
        'Save it from your spreadsheet program as "Excel Workbook (.xlsx)".',
      { fileType: 'xlsx', reason: 'bad-syntax', ...(row !== undefined ? { row } : {}), cause: err },
    );
  };
}

type SheetStart = { sheetRows: AsyncIterator<ExcelJS.Row>; header: { cells: Cell[]; sheetRow: number } | undefined };

const NO_SHEET = (): ImportParseError =>
  new ImportParseError('the workbook has no worksheet. Add a sheet with a header row.', { fileType: 'xlsx', reason: 'empty' });

/** The first worksheet's rows, and its first non-empty row as the header (undefined when it has none). */
async function firstSheetHeader(workbook: ExcelJS.stream.xlsx.WorkbookReader): Promise<SheetStart> {
  const sheets = workbook[Symbol.asyncIterator]();
  const sheet = await sheets.next();
  if (sheet.done) throw NO_SHEET();
  return headerOf(sheet.value[Symbol.asyncIterator]());
}

async function headerOf(sheetRows: AsyncIterator<ExcelJS.Row>): Promise<SheetStart> {
  for (;;) {
    const r = await sheetRows.next();
    if (r.done) return { sheetRows, header: undefined };
    const cells = rowCells(r.value);
    if (cells.some((c) => c !== null)) return { sheetRows, header: { cells: trimTrailingNulls(cells), sheetRow: r.value.number } };
  }
}

/**
 * exceljs' streaming reader (4.4.0) needs xl/workbook.xml's list of sheets before it hands out a
 * sheet; when that entry comes last in the zip (where exceljs itself writes it) it is sometimes not
 * seen in time and the read fails with "Cannot read properties of undefined (reading 'sheets')":
 * 2 reads in 300 of fresh exceljs files here, never the same file twice, and every time for a
 * file whose shared strings come before a sheet. Such a file is read again whole, by its central
 * directory (no race), when it is small enough to hold.
 */
const WHOLE_READ_LIMIT = 64 * 1024 * 1024;

function lostSheetList(err: unknown): boolean {
  return err instanceof TypeError && /reading 'sheets'/.test(err.message);
}

async function firstSheetRead(filePath: string): Promise<SheetStart> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(filePath);
  const ws = wb.worksheets[0];
  if (!ws) throw NO_SHEET();
  async function* rows(sheet: ExcelJS.Worksheet): AsyncGenerator<ExcelJS.Row> {
    for (let i = 1; i <= sheet.rowCount; i++) {
      const r = sheet.findRow(i);
      if (r) yield r;
    }
  }
  return headerOf(rows(ws));
}

/** A data row cut or padded to the header's width; a value beyond the named columns is an error. */
function toWidth(cells: Cell[], width: number, at: { sheetRow: number; rowNumber: number }): Cell[] {
  if (cells.length > width && cells.slice(width).some((c) => c !== null)) {
    throw new ImportParseError(
      `sheet row ${at.sheetRow} has a value in column ${columnLetter(width + 1)} or later, beyond the ${width} named columns. ` +
        'Give that column a name in the header row, or clear the cell.',
      { fileType: 'xlsx', reason: 'bad-row', row: at.rowNumber },
    );
  }
  const row = cells.slice(0, width);
  while (row.length < width) row.push(null);
  return row;
}

function rowCells(row: ExcelJS.Row): Cell[] {
  const values = row.values;
  if (!Array.isArray(values)) return [];
  const cells: Cell[] = [];
  // row.values is 1-based and sparse: index 1 is column A.
  for (let i = 1; i < values.length; i++) cells.push(cellText(values[i]));
  return cells;
}

function trimTrailingNulls(cells: Cell[]): Cell[] {
  let end = cells.length;
  while (end > 0 && cells[end - 1] === null) end--;
  return cells.slice(0, end);
}

function cellText(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return formatDate(value);
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v['richText'])) return (v['richText'] as { text: string }[]).map((t) => t.text).join('');
    if ('result' in v) return cellText(v['result']);
    if ('formula' in v || 'sharedFormula' in v) return null; // formula never calculated
    if (typeof v['error'] === 'string') return v['error'];
    if (typeof v['text'] === 'string') return v['text'];
  }
  return String(value);
}

function columnLetter(n: number): string {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}
