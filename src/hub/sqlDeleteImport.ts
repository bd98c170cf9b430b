// A `sql` import of deletions (DELETE FROM t WHERE column = value [AND …], read by
// core/import/readers/sqlDeletes.ts) inside an engine worker. The file's SQL is never run: each
// statement is parsed into a table, columns and literal values, checked against the import's own
// table, and deleted with a statement the hub writes and binds. So a file cannot reach another
// table, branch or database, call a function or a procedure, or change settings; anything but
// that form is refused naming its line. All deletions are one transaction and one commit;
// an error rolls the whole import back (runImport).
import type { Sqlite3Db, Sqlite3Stmt } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import type { DeleteStatement, SqlDeleteFile } from '../core/import/readers/sqlDeletes';
import type { ImportSpec, WriteResult } from './engineProtocol';
import { cellChecker, ImportFailure, type TableColumn } from './importCells';
import { q } from './sqliteQuote';

export interface SqlDeleteImport {
  spec: ImportSpec;
  /** The table's columns on the branch. */
  existing: TableColumn[];
  deletions: SqlDeleteFile;
  author: string;
}

/** Runs every deletion of the file on the checked-out branch and commits them as one. */
export async function commitSqlDeletes(conn: Sqlite3Db, job: SqlDeleteImport): Promise<WriteResult> {
  const { spec } = job;
  if (spec.operation !== 'update') {
    await job.deletions.close();
    throw new ImportFailure(
      'VALIDATION_FAILED',
      `A SQL file of DELETE statements is imported with import_operation "update" (this one asks for "${spec.operation}").`,
    );
  }
  const statements = new Map<string, Sqlite3Stmt>();
  conn.exec('BEGIN');
  let count = 0;
  try {
    for await (const d of job.deletions.deletes()) {
      const { sql, values } = boundDelete(job, d);
      let stmt = statements.get(sql);
      if (!stmt) statements.set(sql, (stmt = conn.prepare(sql)));
      stmt.bind(values);
      stmt.step();
      stmt.reset();
      count++;
    }
  } finally {
    for (const s of statements.values()) s.finalize();
  }
  conn.exec('COMMIT');
  const message = spec.commitMessage || `Delete rows of ${spec.table} (${count} statement${count === 1 ? '' : 's'})`;
  const hex = String(conn.selectValue(`SELECT dolt_commit('-A', '--allow-empty', '-m', ?, '--author', ?)`, [message, job.author]));
  return { ok: true, commitHex: hex, sizeBytes: 0 };
}

/** The hub's own DELETE for one statement of the file, with its values checked against the columns. */
function boundDelete(job: SqlDeleteImport, d: DeleteStatement): { sql: string; values: (string | number | null)[] } {
  const { spec, existing } = job;
  if (d.table.toLowerCase() !== spec.table.toLowerCase()) {
    throw new ImportFailure(
      'VALIDATION_FAILED',
      `SQL line ${d.line}: the statement deletes from ${d.table}; this import writes table ${spec.table} only.`,
    );
  }
  const where: string[] = [];
  const values: (string | number | null)[] = [];
  for (const m of d.match) {
    const column = existing.find((c) => c.name.toLowerCase() === m.column.toLowerCase());
    if (!column) {
      throw new ImportFailure(
        'VALIDATION_FAILED',
        `SQL line ${d.line}: ${spec.table} has no column "${m.column}" (its columns: ${existing.map((c) => c.name).join(', ')}).`,
      );
    }
    const checked = cellChecker({ ...column, notNull: false })(m.value);
    if (typeof checked === 'string')
      throw new ImportFailure('VALIDATION_FAILED', `SQL line ${d.line}, column "${column.name}": ${checked}`);
    where.push(`${q(column.name)} = ?`);
    values.push(checked.value);
  }
  return { sql: `DELETE FROM ${q(spec.table)} WHERE ${where.join(' AND ')}`, values };
}
