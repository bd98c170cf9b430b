// The import operation inside an engine worker: read the assembled file with the shared readers
// (src/core/import), then create/overwrite/update/replace the table the way Dolt's
// `table import -c / -c -f / -u / -r` does, in one transaction and one commit. Any bad cell
// fails the whole import with its row and column, and nothing is committed.
import { statSync } from 'node:fs';
import type { Sqlite3Db, Sqlite3Stmt } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import type { ImportSpec, WriteResult } from './engineProtocol';
import { openTableReader } from '../core/import/openTableReader';
import { ColumnTypeInferrer } from '../core/import/inferColumnTypes';
import { ImportParseError } from '../core/import/importParseError';
import { readRowBatches, type Cell, type ImportFileKind, type TableReader } from '../core/import/tableReader';
import { openSqlDeletes } from '../core/import/readers/sqlDeletes';
import { cellChecker, ImportFailure, type TableColumn } from './importCells';
import { q } from './sqliteQuote';
import { commitSqlDeletes } from './sqlDeleteImport';
import { ImportBatches, rowsSource, type ImportValue } from './importBatches';

/** Files up to this size are parsed once (rows kept in memory between inference and insert), but csv/psv. */
const BUFFER_LIMIT = 128 * 1024 * 1024;

function bufferedReader(from: TableReader, rows: Cell[][]): TableReader {
  return {
    fileType: from.fileType,
    columns: from.columns,
    rows: async function* () {
      yield* rows;
    },
    rowBatches: async function* () {
      yield rows;
    },
    close: async () => undefined,
  };
}

export async function runImport(conn: Sqlite3Db, spec: ImportSpec, author: string): Promise<WriteResult> {
  try {
    return await importInto(conn, spec, author);
  } catch (e) {
    try {
      conn.exec('ROLLBACK');
    } catch {
      /* no transaction open */
    }
    if (e instanceof ImportFailure) return { ok: false, code: e.code, message: e.message };
    if (e instanceof ImportParseError) return { ok: false, code: 'VALIDATION_FAILED', message: e.message };
    throw e;
  }
}

async function openReader(spec: ImportSpec, table: string): Promise<TableReader> {
  return openTableReader(spec.fileType as ImportFileKind, spec.filePath, spec.fileType === 'sql' ? { sqlTable: table } : {});
}

async function importInto(conn: Sqlite3Db, spec: ImportSpec, author: string): Promise<WriteResult> {
  const target = spec.newBranch ?? spec.branch;
  if (spec.newBranch) conn.exec(`SELECT dolt_branch(?, ?)`, { bind: [spec.newBranch, spec.branch] });
  conn.exec(`SELECT dolt_checkout(?)`, { bind: [target] });
  const existing = tableColumns(conn, spec.table);
  checkOperation(spec, existing.length > 0, target);
  const deletions = spec.fileType === 'sql' ? await openSqlDeletes(spec.filePath) : undefined;
  if (deletions) return commitSqlDeletes(conn, { spec, existing, deletions, author });

  const file = await mappedFile(spec);
  const { reader, columns } =
    spec.operation === 'create' || spec.operation === 'overwrite'
      ? await createTable(conn, spec, file, existing.length > 0)
      : await intoExisting(conn, spec, file, existing);
  const rows = await insertRows(conn, spec, { reader, columns, sourceCols: file.sourceCols }, existing);
  if (rows === 0) throw new ImportFailure('VALIDATION_FAILED', `The file has a header but no rows; nothing to import into ${spec.table}.`);
  conn.exec('COMMIT');
  const hex = String(conn.selectValue(`SELECT dolt_commit('-A', '--allow-empty', '-m', ?, '--author', ?)`, [spec.commitMessage, author]));
  return { ok: true, commitHex: hex, sizeBytes: 0 };
}

/** The table's columns on the checked-out branch; none when it does not exist. */
function tableColumns(conn: Sqlite3Db, table: string): TableColumn[] {
  return conn.selectObjects(`SELECT name, type, "notnull" AS nn, pk FROM pragma_table_info(?) ORDER BY cid`, [table]).map((r) => ({
    name: String(r['name']),
    type: String(r['type'] ?? ''),
    notNull: Number(r['nn']) === 1,
    pk: Number(r['pk']) > 0,
  }));
}

/** `create` needs a new table, `update` and `replace` an existing one. */
function checkOperation(spec: ImportSpec, exists: boolean, target: string): void {
  const op = spec.operation;
  if (op === 'create' && exists)
    throw new ImportFailure('CONFLICT', `Table ${spec.table} already exists on ${target}; use overwrite, update or replace.`);
  if ((op === 'update' || op === 'replace') && !exists)
    throw new ImportFailure('NOT_FOUND', `Table ${spec.table} does not exist on ${target}; use create.`);
}

/** The file open for reading, with its columns and the table column each one goes to (column_map). */
interface MappedFile {
  reader: TableReader;
  sourceCols: string[];
  destCols: string[];
  map: Record<string, string>;
}

/** Closes the reader and fails the import. */
async function refuse(reader: TableReader, message: string): Promise<never> {
  await reader.close();
  throw new ImportFailure('VALIDATION_FAILED', message);
}

async function mappedFile(spec: ImportSpec): Promise<MappedFile> {
  const reader = await openReader(spec, spec.table);
  const sourceCols = [...reader.columns];
  const map = spec.columnMap ?? {};
  for (const k of Object.keys(map)) {
    if (!sourceCols.includes(k))
      await refuse(reader, `column_map names "${k}", which is not a column of the file (its columns: ${sourceCols.join(', ')}).`);
  }
  const destCols = sourceCols.map((c) => map[c] ?? c);
  if (new Set(destCols).size !== destCols.length) await refuse(reader, 'Two file columns map to the same table column; fix column_map.');
  return { reader, sourceCols, destCols, map };
}

/** `create` / `overwrite`: the key and the types (declared, or inferred over the file), then the new table. */
async function createTable(
  conn: Sqlite3Db,
  spec: ImportSpec,
  file: MappedFile,
  exists: boolean,
): Promise<{ reader: TableReader; columns: TableColumn[] }> {
  const { sourceCols, destCols, map } = file;
  const requested = spec.primaryKeys.length > 0 ? spec.primaryKeys : [...(file.reader.declaredPrimaryKeys ?? [])];
  const pks = requested.map((k) => (sourceCols.includes(k) ? (map[k] ?? k) : k));
  for (const k of pks) {
    if (!destCols.includes(k))
      await refuse(file.reader, `Primary key column "${k}" is not in the file (its columns: ${sourceCols.join(', ')}).`);
  }
  if (pks.length === 0) await refuse(file.reader, 'A new table needs a primary key: set primary_keys to one or more columns of the file.');
  const { types, reader } = await columnTypes(spec, file);
  const columns = destCols.map((name, i) => ({ name, type: types[i] as string, notNull: pks.includes(name), pk: pks.includes(name) }));
  conn.exec('BEGIN');
  if (spec.operation === 'overwrite' && exists) conn.exec(`DROP TABLE ${q(spec.table)}`);
  const defs = columns.map((c) => `${q(c.name)} ${c.type}${c.notNull ? ' NOT NULL' : ''}`);
  // The key keeps the order the caller gave.
  conn.exec(`CREATE TABLE ${q(spec.table)} (${defs.join(', ')}, PRIMARY KEY (${pks.map(q).join(', ')}))`);
  return { reader, columns };
}

/**
 * The file's declared types, or MySQL-style types inferred over the whole file first (as `dolt
 * table import -c`). Files of the slower formats up to BUFFER_LIMIT keep their rows for the insert
 * pass instead of being parsed twice; csv, psv and larger files are opened again.
 */
async function columnTypes(spec: ImportSpec, file: MappedFile): Promise<{ types: string[]; reader: TableReader }> {
  const { reader, sourceCols } = file;
  const declared = reader.declaredTypes;
  if (declared && sourceCols.every((c) => declared[c] !== undefined))
    return { types: sourceCols.map((c) => declared[c] as string), reader };
  const inferrer = new ColumnTypeInferrer(sourceCols);
  // csv and psv are read again rather than kept: their reader (fastDelimited.ts) parses 1M rows in
  // about a second, less than keeping the rows costs in garbage collection (and memory stays flat).
  const keep = spec.fileType !== 'csv' && spec.fileType !== 'psv' && statSync(spec.filePath).size <= BUFFER_LIMIT;
  const kept: Cell[][] = [];
  for await (const batch of readRowBatches(reader)) {
    for (const row of batch) inferrer.observe(row);
    if (keep) for (const row of batch) kept.push(row);
  }
  return { types: inferrer.types(), reader: keep ? bufferedReader(reader, kept) : await openReader(spec, spec.table) };
}

/** `update` / `replace`: every file column is a column of the table (and `update` has the whole key). */
async function intoExisting(
  conn: Sqlite3Db,
  spec: ImportSpec,
  file: MappedFile,
  existing: TableColumn[],
): Promise<{ reader: TableReader; columns: TableColumn[] }> {
  const { reader, sourceCols, destCols } = file;
  const byName = new Map(existing.map((c) => [c.name, c]));
  for (let i = 0; i < destCols.length; i++) {
    if (byName.has(destCols[i] as string)) continue;
    const via = destCols[i] !== sourceCols[i] ? ` (from file column "${sourceCols[i]}")` : '';
    await refuse(
      reader,
      `Column "${destCols[i]}"${via} is not in table ${spec.table} (its columns: ${existing.map((c) => c.name).join(', ')}). Map it with column_map.`,
    );
  }
  const missingPk = existing.filter((c) => c.pk && !destCols.includes(c.name));
  if (spec.operation === 'update' && missingPk.length > 0)
    await refuse(
      reader,
      `The file has no column for primary key ${missingPk.map((c) => c.name).join(', ')} of ${spec.table}, so rows cannot be matched.`,
    );
  conn.exec('BEGIN');
  if (spec.operation === 'replace') conn.exec(`DELETE FROM ${q(spec.table)}`);
  return { reader, columns: destCols.map((n) => byName.get(n) as TableColumn) };
}

/** The INSERT each row goes through: an upsert by the table's key for `update`. */
function insertSql(spec: ImportSpec, columns: TableColumn[], existing: TableColumn[], from: 'values' | 'json'): string {
  const colList = columns.map((c) => q(c.name)).join(', ');
  const sql = `INSERT INTO ${q(spec.table)} (${colList}) ${rowsSource(columns.length, from)}`;
  if (spec.operation !== 'update') return sql;
  const pkCols = existing.filter((c) => c.pk).map((c) => q(c.name));
  const setCols = columns.filter((c) => !c.pk).map((c) => `${q(c.name)} = excluded.${q(c.name)}`);
  if (pkCols.length === 0) return sql;
  return setCols.length > 0
    ? `${sql} ON CONFLICT (${pkCols.join(', ')}) DO UPDATE SET ${setCols.join(', ')}`
    : `${sql} ON CONFLICT (${pkCols.join(', ')}) DO NOTHING`;
}

/** Checks and inserts every row of the file; returns how many. A bad cell names its row and column. */
async function insertRows(
  conn: Sqlite3Db,
  spec: ImportSpec,
  into: { reader: TableReader; columns: TableColumn[]; sourceCols: string[] },
  existing: TableColumn[],
): Promise<number> {
  const { reader, columns, sourceCols } = into;
  const perRow = conn.prepare(insertSql(spec, columns, existing, 'values'));
  let perBatch: Sqlite3Stmt | undefined;
  const checkers = columns.map((c) => cellChecker(c));
  const kind = spec.fileType.toUpperCase();
  let rowNo = 0;
  try {
    perBatch = conn.prepare(insertSql(spec, columns, existing, 'json'));
    const batches = new ImportBatches(conn, perBatch, (values, n) => stepRow(perRow, values, kind, n));
    for await (const rowsRead of readRowBatches(reader)) {
      for (const row of rowsRead) {
        rowNo++;
        const values: ImportValue[] = new Array(columns.length);
        for (let i = 0; i < columns.length; i++) {
          const checked = checkers[i]!(row[i] ?? null);
          if (typeof checked === 'string')
            throw new ImportFailure('VALIDATION_FAILED', `${kind} row ${rowNo}, column "${sourceCols[i]}": ${checked}`);
          values[i] = checked.value;
        }
        batches.add(values, rowNo);
      }
    }
    batches.flush();
  } finally {
    perBatch?.finalize();
    perRow.finalize();
    await reader.close();
  }
  return rowNo;
}

/** One row through the INSERT; a constraint it breaks is the row's failure. */
function stepRow(stmt: Sqlite3Stmt, values: ImportValue[], kind: string, rowNo: number): void {
  stmt.bind(values);
  try {
    stmt.step();
  } catch (e) {
    const msg = e instanceof Error ? e.message.replace(/^SQLITE_[A-Z_]+: sqlite3 result code \d+: /, '') : String(e);
    const col = /constraint failed: [^.]+\.(\S+)/.exec(msg)?.[1];
    throw new ImportFailure(
      'VALIDATION_FAILED',
      `${kind} row ${rowNo}${col ? `, column "${col}"` : ''}: ${msg}${/UNIQUE|PRIMARY/.test(msg) ? ' (a primary key value appears twice)' : ''}`,
    );
  }
  stmt.reset();
}
