import { createReadStream } from 'node:fs';
import { ImportParseError } from '../importParseError';
import type { Cell, TableReader } from '../tableReader';
import { checkHeader } from './header';
import { SqlStatementSplitter, SqlSyntaxError, type SqlStatement } from './sqlStatements';
import { parseStatement, SqlValueError, type CreateTable, type InsertRows } from './sqlStatementParser';

/**
 * Rows of one table from CREATE TABLE / INSERT statements, streamed statement by statement.
 * Which table: `sqlTable` when the file has it, else the file's only table. Columns come from
 * its CREATE TABLE, else from the first INSERT's column list.
 */
export async function openSqlReader(filePath: string, options: { signal?: AbortSignal; sqlTable?: string }): Promise<TableReader> {
  const file = createReadStream(filePath, { encoding: 'utf8', ...(options.signal ? { signal: options.signal } : {}) });
  const chunks = file[Symbol.asyncIterator]() as AsyncIterator<string>;
  const splitter = new SqlStatementSplitter();
  const queue: SqlStatement[] = [];
  let ended = false;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    file.destroy();
  };

  const nextStatement = async (): Promise<SqlStatement | undefined> => {
    while (queue.length === 0) {
      if (ended) return undefined;
      let r: IteratorResult<string>;
      try {
        r = await chunks.next();
        if (r.done) {
          ended = true;
          queue.push(...splitter.end());
        } else {
          queue.push(...splitter.push(stripBom(r.value)));
        }
      } catch (err) {
        throw translate(err);
      }
    }
    return queue.shift();
  };
  let bomChecked = false;
  function stripBom(s: string): string {
    if (bomChecked) return s;
    bomChecked = true;
    return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
  }
  const parse = (stmt: SqlStatement): ReturnType<typeof parseStatement> => {
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
  };

  // Read up to the first INSERT (or the end), collecting CREATE TABLEs on the way.
  const creates = new Map<string, CreateTable>();
  let firstInsert: InsertRows | undefined;
  let firstInsertLine = 0;
  try {
    for (;;) {
      options.signal?.throwIfAborted();
      const stmt = await nextStatement();
      if (!stmt) break;
      const parsed = parse(stmt);
      if (parsed.kind === 'create') creates.set(parsed.table.toLowerCase(), parsed);
      if (parsed.kind === 'insert') {
        firstInsert = parsed;
        firstInsertLine = stmt.line;
        break;
      }
    }
  } catch (err) {
    await close();
    throw err;
  }

  const wanted = options.sqlTable?.toLowerCase();
  let table: string | undefined;
  let explicit = false;
  if (wanted !== undefined && (creates.has(wanted) || firstInsert?.table.toLowerCase() === wanted)) {
    table = wanted;
    explicit = true;
  } else if (firstInsert) {
    table = firstInsert.table.toLowerCase();
  } else if (creates.size === 1) {
    table = [...creates.keys()][0];
  }
  if (table === undefined) {
    await close();
    throw new ImportParseError(
      creates.size === 0
        ? 'the file has no CREATE TABLE or INSERT statements. Export the table as SQL INSERT statements.'
        : `the file creates ${creates.size} tables and inserts no rows. Keep only the table to import.`,
      { fileType: 'sql', reason: 'empty' },
    );
  }
  const create = creates.get(table);
  let columnSource: readonly string[] | undefined = create?.columns;
  if (!columnSource && firstInsert?.table.toLowerCase() === table) columnSource = firstInsert.columns;
  if (!columnSource) {
    await close();
    throw new ImportParseError(
      `the INSERT into ${firstInsert?.table ?? table} has no column list and the file has no CREATE TABLE for it. ` +
        'Add the column names: INSERT INTO t (a, b) VALUES …, or include the CREATE TABLE statement.',
      { fileType: 'sql', reason: 'bad-header', line: firstInsertLine },
    );
  }
  const columns = checkHeader('sql', columnSource, create ? undefined : firstInsertLine);
  const index = new Map(columns.map((c, i) => [c.toLowerCase(), i]));
  const sourceTable = create?.table ?? firstInsert?.table ?? table;

  async function* rows(): AsyncGenerator<Cell[]> {
    let rowNumber = 0;
    let insert = firstInsert;
    let line = firstInsertLine;
    try {
      for (;;) {
        if (insert) {
          if (insert.table.toLowerCase() === table) {
            const positions = insert.columns?.map((name) => {
              const at = index.get(name.toLowerCase());
              if (at === undefined) {
                throw new ImportParseError(
                  `the INSERT names column "${name}", which the table ${sourceTable} does not have. Fix the column list or the CREATE TABLE.`,
                  { fileType: 'sql', reason: 'bad-row', row: rowNumber + 1, line, column: name },
                );
              }
              return at;
            });
            const width = positions ? positions.length : columns.length;
            for (const tuple of insert.tuples) {
              rowNumber++;
              if (tuple.length !== width) {
                throw new ImportParseError(
                  `${plural(tuple.length, 'value')}, but ${positions ? 'the INSERT names' : 'the table has'} ${plural(width, 'column')}. Give every row ${plural(width, 'value')}.`,
                  { fileType: 'sql', reason: 'bad-row', row: rowNumber, line },
                );
              }
              if (!positions) {
                yield tuple;
              } else {
                const row: Cell[] = new Array<Cell>(columns.length).fill(null);
                positions.forEach((at, k) => (row[at] = tuple[k] ?? null));
                yield row;
              }
            }
          } else if (!explicit) {
            throw new ImportParseError(
              `the file inserts rows into both ${sourceTable} and ${insert.table}. Import a file with one table's rows, or choose the table to import.`,
              { fileType: 'sql', reason: 'unsupported', line },
            );
          }
        }
        options.signal?.throwIfAborted();
        const stmt = await nextStatement();
        if (!stmt) return;
        let parsed: ReturnType<typeof parseStatement>;
        try {
          parsed = parseStatement(stmt);
        } catch (err) {
          if (err instanceof SqlValueError) {
            throw new ImportParseError(`${err.message}.`, {
              fileType: 'sql',
              reason: 'bad-row',
              row: rowNumber + err.tupleIndex + 1,
              line: err.line,
              ...((err.column ?? columns[err.valueIndex]) !== undefined ? { column: err.column ?? columns[err.valueIndex] } : {}),
            });
          }
          throw translate(err, rowNumber + 1);
        }
        insert = parsed.kind === 'insert' ? parsed : undefined;
        line = stmt.line;
      }
    } finally {
      await close();
    }
  }

  return {
    fileType: 'sql',
    columns,
    ...(create ? { declaredTypes: create.types } : {}),
    ...(create && create.primaryKeys.length > 0 ? { declaredPrimaryKeys: create.primaryKeys } : {}),
    sourceTable,
    rows,
    close,
  };
}

function translate(err: unknown, row?: number): unknown {
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
