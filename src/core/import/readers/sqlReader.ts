import { ImportParseError } from '../importParseError';
import type { Cell, TableReader } from '../tableReader';
import { checkHeader } from './header';
import { SqlSyntaxError, type SqlStatement } from './sqlStatements';
import { StatementSource } from './sqlStatementSource';
import { parseStatement, SqlValueError, type CreateTable, type InsertRows, type ParsedStatement } from './sqlStatementParser';

/**
 * Rows of one table from CREATE TABLE / INSERT statements, streamed statement by statement.
 * Which table: `sqlTable` when the file has it, else the file's only table. Columns come from
 * its CREATE TABLE, else from the first INSERT's column list.
 */
export async function openSqlReader(filePath: string, options: { signal?: AbortSignal; sqlTable?: string }): Promise<TableReader> {
  const source = new StatementSource(filePath, options.signal, translate);
  let head: FileHead;
  let shape: TableShape;
  try {
    head = await readToFirstInsert(source, options.signal);
    shape = tableShape(head, options.sqlTable);
  } catch (err) {
    await source.close();
    throw err;
  }
  const { create } = shape;
  return {
    fileType: 'sql',
    columns: shape.columns,
    ...(create ? { declaredTypes: create.types } : {}),
    ...(create && create.primaryKeys.length > 0 ? { declaredPrimaryKeys: create.primaryKeys } : {}),
    sourceTable: shape.sourceTable,
    rows: () => tableRows(source, head, shape, options.signal),
    close: () => source.close(),
  };
}

/** What precedes the rows: the CREATE TABLEs up to the first INSERT, and that INSERT. */
interface FileHead {
  creates: Map<string, CreateTable>;
  firstInsert: InsertRows | undefined;
  firstInsertLine: number;
}

/** The table whose rows are read, and its columns. */
interface TableShape {
  /** Lower case. */
  table: string;
  /** Chosen by `sqlTable`: rows of other tables are skipped rather than refused. */
  explicit: boolean;
  create: CreateTable | undefined;
  columns: string[];
  /** Lower-cased column name → its index in `columns`. */
  index: Map<string, number>;
  /** The table's name as the file writes it. */
  sourceTable: string;
}

/** Reads up to the first INSERT (or the end), collecting CREATE TABLEs on the way. */
async function readToFirstInsert(source: StatementSource, signal: AbortSignal | undefined): Promise<FileHead> {
  const head: FileHead = { creates: new Map(), firstInsert: undefined, firstInsertLine: 0 };
  for (;;) {
    signal?.throwIfAborted();
    const stmt = await source.next();
    if (!stmt) return head;
    const parsed = parseBeforeRows(stmt, head.creates);
    if (parsed.kind === 'delete') throw mixedDeletes(stmt.line);
    if (parsed.kind === 'create') head.creates.set(parsed.table.toLowerCase(), parsed);
    if (parsed.kind === 'insert') {
      head.firstInsert = parsed;
      head.firstInsertLine = stmt.line;
      return head;
    }
  }
}

function parseBeforeRows(stmt: SqlStatement, creates: ReadonlyMap<string, CreateTable>): ParsedStatement {
  try {
    return parseStatement(stmt);
  } catch (err) {
    if (err instanceof SqlValueError) {
      // In the first INSERT: rows before it are none.
      const column = err.column ?? [...creates.values()][0]?.columns[err.valueIndex];
      throw new ImportParseError(`${err.message}.`, {
        fileType: 'sql',
        reason: 'bad-row',
        row: err.tupleIndex + 1,
        line: err.line,
        ...(column !== undefined ? { column } : {}),
      });
    }
    throw translate(err);
  }
}

function tableShape(head: FileHead, sqlTable: string | undefined): TableShape {
  const { creates, firstInsert, firstInsertLine } = head;
  const { table, explicit } = chooseTable(head, sqlTable);
  const create = creates.get(table);
  let columnSource: readonly string[] | undefined = create?.columns;
  if (!columnSource && firstInsert?.table.toLowerCase() === table) columnSource = firstInsert.columns;
  if (!columnSource) {
    throw new ImportParseError(
      `the INSERT into ${firstInsert?.table ?? table} has no column list and the file has no CREATE TABLE for it. ` +
        'Add the column names: INSERT INTO t (a, b) VALUES …, or include the CREATE TABLE statement.',
      { fileType: 'sql', reason: 'bad-header', line: firstInsertLine },
    );
  }
  const columns = checkHeader('sql', columnSource, create ? undefined : firstInsertLine);
  return {
    table,
    explicit,
    create,
    columns,
    index: new Map(columns.map((c, i) => [c.toLowerCase(), i])),
    sourceTable: create?.table ?? firstInsert?.table ?? table,
  };
}

/** `sqlTable` when the file has it; else the first INSERT's table; else the only CREATE TABLE. */
function chooseTable(head: FileHead, sqlTable: string | undefined): { table: string; explicit: boolean } {
  const { creates, firstInsert } = head;
  const wanted = sqlTable?.toLowerCase();
  if (wanted !== undefined && (creates.has(wanted) || firstInsert?.table.toLowerCase() === wanted))
    return { table: wanted, explicit: true };
  if (firstInsert) return { table: firstInsert.table.toLowerCase(), explicit: false };
  if (creates.size === 1) return { table: [...creates.keys()][0]!, explicit: false };
  throw new ImportParseError(
    creates.size === 0
      ? 'the file has no CREATE TABLE or INSERT statements. Export the table as SQL INSERT statements.'
      : `the file creates ${creates.size} tables and inserts no rows. Keep only the table to import.`,
    { fileType: 'sql', reason: 'empty' },
  );
}

/** The table's rows, INSERT after INSERT from the first one on; closes the file when done. */
async function* tableRows(
  source: StatementSource,
  head: FileHead,
  shape: TableShape,
  signal: AbortSignal | undefined,
): AsyncGenerator<Cell[]> {
  let rowNumber = 0;
  let insert = head.firstInsert;
  let line = head.firstInsertLine;
  try {
    for (;;) {
      if (insert && insert.table.toLowerCase() === shape.table) {
        yield* insertedRows(insert, shape, { line, before: rowNumber });
        rowNumber += insert.tuples.length;
      } else if (insert && !shape.explicit) {
        throw new ImportParseError(
          `the file inserts rows into both ${shape.sourceTable} and ${insert.table}. Import a file with one table's rows, or choose the table to import.`,
          { fileType: 'sql', reason: 'unsupported', line },
        );
      }
      signal?.throwIfAborted();
      const stmt = await source.next();
      if (!stmt) return;
      const parsed = parseAmongRows(stmt, rowNumber, shape.columns);
      if (parsed.kind === 'delete') throw mixedDeletes(stmt.line);
      insert = parsed.kind === 'insert' ? parsed : undefined;
      line = stmt.line;
    }
  } finally {
    await source.close();
  }
}

/** One INSERT's rows in the table's column order; `before` rows came before it. */
function* insertedRows(insert: InsertRows, shape: TableShape, at: { line: number; before: number }): Generator<Cell[]> {
  const positions = insert.columns?.map((name) => {
    const i = shape.index.get(name.toLowerCase());
    if (i === undefined) {
      throw new ImportParseError(
        `the INSERT names column "${name}", which the table ${shape.sourceTable} does not have. Fix the column list or the CREATE TABLE.`,
        { fileType: 'sql', reason: 'bad-row', row: at.before + 1, line: at.line, column: name },
      );
    }
    return i;
  });
  const width = positions ? positions.length : shape.columns.length;
  let rowNumber = at.before;
  for (const tuple of insert.tuples) {
    rowNumber++;
    if (tuple.length !== width) {
      throw new ImportParseError(
        `${plural(tuple.length, 'value')}, but ${positions ? 'the INSERT names' : 'the table has'} ${plural(width, 'column')}. Give every row ${plural(width, 'value')}.`,
        { fileType: 'sql', reason: 'bad-row', row: rowNumber, line: at.line },
      );
    }
    if (!positions) {
      yield tuple;
      continue;
    }
    const row: Cell[] = new Array<Cell>(shape.columns.length).fill(null);
    positions.forEach((p, k) => (row[p] = tuple[k] ?? null));
    yield row;
  }
}

/** A statement after the first INSERT; a bad value names its data row (`rowsBefore` rows came earlier). */
function parseAmongRows(stmt: SqlStatement, rowsBefore: number, columns: readonly string[]): ParsedStatement {
  try {
    return parseStatement(stmt);
  } catch (err) {
    if (err instanceof SqlValueError) {
      const column = err.column ?? columns[err.valueIndex];
      throw new ImportParseError(`${err.message}.`, {
        fileType: 'sql',
        reason: 'bad-row',
        row: rowsBefore + err.tupleIndex + 1,
        line: err.line,
        ...(column !== undefined ? { column } : {}),
      });
    }
    throw translate(err, rowsBefore + 1);
  }
}

/** A file that deletes rows is run on its own (sqlDeletes.ts); rows and deletes in one file are refused. */
function mixedDeletes(line: number): ImportParseError {
  return new ImportParseError(
    'the file both inserts and deletes rows. A SQL import holds either rows (CREATE TABLE, INSERT) or deletions (DELETE … WHERE): send them as two imports.',
    { fileType: 'sql', reason: 'unsupported', line },
  );
}

export function translate(err: unknown, row?: number): unknown {
  if (err instanceof SqlSyntaxError) {
    return new ImportParseError(err.message, {
      fileType: 'sql',
      reason: err.kind === 'syntax' ? 'bad-syntax' : err.kind === 'too-large' ? 'too-large' : 'unsupported',
      line: err.line,
      ...(row !== undefined ? { row } : {}),
      cause: err,
    });
  }
  if (err instanceof SqlValueError) {
    return new ImportParseError(`${err.message}.`, { fileType: 'sql', reason: 'bad-row', line: err.line, cause: err });
  }
  return err;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
