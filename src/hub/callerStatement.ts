// The statement an engine worker runs for a caller's query, on a connection at the query's
// revision: SHOW TABLES and DESCRIBE / SHOW CREATE TABLE (MySQL forms DoltLite lacks) as reads of
// the schema, anything else through the Dolt SQL rewriter (DOLT_DIFF(...), AS OF, HASHOF, ...).
import type { Sqlite3, Sqlite3Db } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import type { TranslatedQuery } from './mysqlDialect';
import { ReadOnlyGuard } from './readOnlyGuard';
import { rewriteDoltSql } from './doltSql/rewrite';
import type { DirectPage } from './doltSql/directPage';
import { engineContext, registerDoltSqlFunctions, reopenAsOf, type DiffPageSource } from './doltSql/engineContext';
import { q } from './sqliteQuote';

/** The connection that answers (DESCRIBE … AS OF replaces it) and the guard on it. */
export interface Answering {
  conn: Sqlite3Db;
  guard: ReadOnlyGuard;
}

export interface CallerStatement {
  sql: string;
  describeSql?: string;
  /** The answer's rows, read from a copy of a diff (directPage.ts): `describeSql` is prepared, `sql` never run. */
  direct?: DirectPage;
  fixedTypes?: string[];
}

export interface StatementContext {
  sqlite3: Sqlite3;
  dbName: string;
  /** The database's path in the worker's memory (DESCRIBE … AS OF opens it at the revision). */
  memPath: string;
  /** The bytes of the database file on disk (merge previews run on a private copy). */
  fileBytes: () => Uint8Array;
  diffPages: DiffPageSource;
}

type Query = Exclude<TranslatedQuery, { kind: 'invalid' }>;

/** The statement for `t`, or the error the caller gets. May replace `at.conn` (and its guard). */
export function callerStatement(
  t: Query,
  at: Answering,
  ctx: StatementContext,
): CallerStatement | { error: string; status?: 'error' | 'timeout' } {
  if (t.kind === 'showTables') return showTables(t.full, ctx.dbName);
  if (t.kind === 'describe' || t.kind === 'showCreateTable') return describeTable(t, at, ctx);
  // Dolt's version-control forms (DOLT_DIFF(...), AS OF, HASHOF, ...) onto DoltLite's.
  registerDoltSqlFunctions(at.conn);
  const rewritten = rewriteDoltSql(t.sql, engineContext(ctx.sqlite3, at.conn, ctx.fileBytes, ctx.diffPages));
  // A translation stopped at the deadline is a timeout, as a query stopped while running is.
  if ('error' in rewritten) return { error: rewritten.error, status: rewritten.status };
  return {
    sql: rewritten.sql,
    ...(rewritten.describeSql !== undefined ? { describeSql: rewritten.describeSql } : {}),
    ...(rewritten.direct ? { direct: rewritten.direct } : {}),
  };
}

function showTables(full: boolean, dbName: string): CallerStatement {
  const nameCol = q(`Tables_in_${dbName}`);
  const hidden = `name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE 'dolt\\_%' ESCAPE '\\'`;
  if (full) {
    // Dolt's SHOW FULL TABLES: tables and views, with MySQL's Table_type.
    return {
      sql: `SELECT name AS ${nameCol}, CASE type WHEN 'view' THEN 'VIEW' ELSE 'BASE TABLE' END AS "Table_type" FROM sqlite_master WHERE type IN ('table','view') AND ${hidden} ORDER BY name`,
      fixedTypes: ['varchar(64)', 'varchar(64)'],
    };
  }
  return {
    sql: `SELECT name AS ${nameCol} FROM sqlite_master WHERE type='table' AND ${hidden} ORDER BY name`,
    fixedTypes: ['varchar(64)'],
  };
}

function describeTable(
  t: Extract<Query, { kind: 'describe' | 'showCreateTable' }>,
  at: Answering,
  ctx: StatementContext,
): CallerStatement | { error: string } {
  if (t.asOf !== undefined) {
    // DESCRIBE t AS OF 'rev': the schema at that revision, read on a connection opened there.
    at.guard.remove();
    const reopened = reopenAsOf(ctx.sqlite3, at.conn, ctx.memPath, t.asOf);
    if ('error' in reopened) return { error: reopened.error };
    at.conn = reopened.conn;
    // The connection at the revision answers the caller too: it gets the same guard.
    at.guard = new ReadOnlyGuard(ctx.sqlite3.capi, at.conn.pointer);
  }
  const exists = at.conn.selectValue(`SELECT count(*) FROM sqlite_master WHERE type IN ('table','view') AND name = ?`, [t.table]);
  if (Number(exists) === 0) return { error: `table not found: ${t.table}` };
  const lit = `'${t.table.replace(/'/g, "''")}'`;
  if (t.kind === 'describe') {
    return {
      sql: `SELECT name AS "Field", lower(type) AS "Type", CASE WHEN "notnull" OR pk > 0 THEN 'NO' ELSE 'YES' END AS "Null", CASE WHEN pk > 0 THEN 'PRI' ELSE '' END AS "Key", dflt_value AS "Default", '' AS "Extra" FROM pragma_table_info(${lit}) ORDER BY cid`,
      fixedTypes: ['varchar(64)', 'longtext', 'varchar(3)', 'char(3)', 'text', 'varchar(256)'],
    };
  }
  return {
    sql: `SELECT name AS "Table", sql AS "Create Table" FROM sqlite_master WHERE type IN ('table','view') AND name = ${lit}`,
    fixedTypes: ['varchar(64)', 'longtext'],
  };
}
