// The SQL endpoint is read-only, and the engine (not a text pattern) enforces it. On every
// connection that runs a caller's SQL:
// - an authorizer allows only reading (SELECT, reading tables, recursive CTEs), the functions
//   known to only compute or read (an allow-list: SQLite's own, Dolt's that read, the hub's), and
//   pragmas that only report; everything else (ATTACH, INSERT, CREATE, BEGIN, PRAGMA x = y,
//   dolt_commit(), fts5(), bm25(), vec1_train(), any function added later, ...) fails to prepare;
// - a prepared statement must also be read-only by SQLite's own account (sqlite3_stmt_readonly),
//   which catches what no authorizer code covers (VACUUM, VACUUM INTO).
// The hub's own writes (merges, imports, branches) use other connections and are not guarded.
import type { Sqlite3Capi } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import { HASH_FUNCTION, REVISION_FUNCTION } from './doltSql/forms';
import { MYSQL_TEXT_FUNCTION } from './doltSql/mysqlText';
import { DIFF_CELL_FUNCTION } from './doltSql/diffRowCache';

const SQLITE_DENY = 1;
const SQLITE_OK = 0;

const DELETE = 9;
const INSERT = 18;
const PRAGMA = 19;
const READ = 20;
const SELECT = 21;
const UPDATE = 23;
const FUNCTION = 31;
const RECURSIVE = 33;

/** What each refused authorizer action is called in the message. */
const ACTIONS: Record<number, string> = {
  0: 'COPY',
  1: 'CREATE INDEX',
  2: 'CREATE TABLE',
  3: 'CREATE INDEX',
  4: 'CREATE TABLE',
  5: 'CREATE TRIGGER',
  6: 'CREATE VIEW',
  7: 'CREATE TRIGGER',
  8: 'CREATE VIEW',
  9: 'DELETE',
  10: 'DROP INDEX',
  11: 'DROP TABLE',
  12: 'DROP INDEX',
  13: 'DROP TABLE',
  14: 'DROP TRIGGER',
  15: 'DROP VIEW',
  16: 'DROP TRIGGER',
  17: 'DROP VIEW',
  18: 'INSERT',
  22: 'Transaction control (BEGIN, COMMIT, ROLLBACK)',
  23: 'UPDATE',
  24: 'ATTACH',
  25: 'DETACH',
  26: 'ALTER TABLE',
  27: 'REINDEX',
  28: 'ANALYZE',
  29: 'CREATE VIRTUAL TABLE',
  30: 'DROP VIRTUAL TABLE',
  32: 'SAVEPOINT',
};

/** Dolt functions that only read. Every other `dolt…` function changes the database or its config. */
const READ_ONLY_DOLT_FUNCTIONS: ReadonlySet<string> = new Set([
  'dolt_hashof',
  'dolt_hashof_table',
  'dolt_hashof_db',
  'dolt_hashof_index',
  'dolt_hashof_catalog',
  'dolt_merge_base',
  'dolt_version',
  'doltlite_engine',
  // The hub's own pure helpers that the Dolt SQL rewriter calls (hash and revision conversion).
  HASH_FUNCTION,
  REVISION_FUNCTION,
]);

/**
 * SQLite's built-in functions that compute a value from their arguments or read (scalar, date and
 * time, math, JSON, aggregate, window), as DoltLite's `pragma function_list` names them. Not here
 * on purpose: load_extension, fts3_tokenizer, the FTS5 and R-Tree helpers (fts5, bm25, highlight,
 * snippet, matchinfo, offsets, optimize, rtree*), the vector extension (vec1_*), sqlite_log.
 */
const SQLITE_FUNCTIONS = `-> ->> abs acos acosh asin asinh atan atan2 atanh avg ceil ceiling changes char coalesce concat
  concat_ws cos cosh count cume_dist current_date current_time current_timestamp date datetime degrees dense_rank exp
  first_value floor format glob group_concat hex if ifnull iif instr json json_array json_array_insert json_array_length
  json_error_position json_extract json_group_array json_group_object json_insert json_object json_patch json_pretty
  json_quote json_remove json_replace json_set json_type json_valid jsonb jsonb_array jsonb_array_insert jsonb_extract
  jsonb_group_array jsonb_group_object jsonb_insert jsonb_object jsonb_patch jsonb_remove jsonb_replace jsonb_set
  julianday lag last_insert_rowid last_value lead length like likelihood likely ln log log10 log2 lower ltrim max median
  min mod nth_value ntile nullif octet_length percent_rank percentile percentile_cont percentile_disc pi pow power printf
  quote radians random randomblob rank replace round row_number rtrim sign sin sinh sqlite_compileoption_get
  sqlite_compileoption_used sqlite_source_id sqlite_version sqrt strftime string_agg substr substring subtype sum tan tanh
  time timediff total total_changes trim trunc typeof unhex unicode unistr unistr_quote unixepoch unlikely upper zeroblob`;

/** Every function a caller's SQL may call: known to only compute or read. Anything else is refused. */
const READ_ONLY_FUNCTIONS: ReadonlySet<string> = new Set([
  ...SQLITE_FUNCTIONS.split(/\s+/),
  ...READ_ONLY_DOLT_FUNCTIONS,
  // Registered by the hub on the caller's connection (engineWorker.ts, commitSnapshot.ts, doltSql/).
  'now',
  'database',
  'active_branch',
  MYSQL_TEXT_FUNCTION,
  DIFF_CELL_FUNCTION,
]);

/** Pragmas that take a table or index name and report on it. */
const PRAGMAS_WITH_ARGUMENT: ReadonlySet<string> = new Set([
  'table_info',
  'table_xinfo',
  'table_list',
  'index_list',
  'index_info',
  'index_xinfo',
  'foreign_key_list',
]);

/** Pragmas that report a setting when given no value (with a value they would change it). */
const PRAGMAS_WITHOUT_VALUE: ReadonlySet<string> = new Set([
  'application_id',
  'collation_list',
  'compile_options',
  'data_version',
  'database_list',
  'encoding',
  'foreign_keys',
  'freelist_count',
  'function_list',
  'module_list',
  'page_count',
  'page_size',
  'pragma_list',
  'schema_version',
  'user_version',
]);

export function isReadOnlyFunction(name: string): boolean {
  return READ_ONLY_FUNCTIONS.has(name.toLowerCase());
}

const READ_ONLY = 'the SQL endpoint is read-only';

/** Why an authorizer request is refused, or undefined when it is allowed. */
export function refusal(code: number, a1: string | null, a2: string | null): string | undefined {
  switch (code) {
    case SELECT:
    case READ:
    case RECURSIVE:
      return undefined;
    case FUNCTION: {
      const name = a2 ?? '';
      if (isReadOnlyFunction(name)) return undefined;
      if (/^dolt/i.test(name)) return `${name}() changes the database and is not allowed: ${READ_ONLY}.`;
      return `${name}() is not known to only read, so it is not allowed: ${READ_ONLY}.`;
    }
    case PRAGMA: {
      const name = (a1 ?? '').toLowerCase();
      if (PRAGMAS_WITH_ARGUMENT.has(name)) return undefined;
      if (PRAGMAS_WITHOUT_VALUE.has(name) && a2 === null) return undefined;
      return a2 === null ? `PRAGMA ${name} is not allowed: ${READ_ONLY}.` : `PRAGMA ${name} = … is not allowed: ${READ_ONLY}.`;
    }
    case INSERT:
    case UPDATE:
    case DELETE:
      // CREATE and DROP are first asked as a write to the schema table, and refused there.
      if (/^sqlite_(?:temp_)?(?:master|schema)$/i.test(a1 ?? ''))
        return `Changing the schema (CREATE, DROP, ALTER) is not allowed: ${READ_ONLY}.`;
      return `${ACTIONS[code]} is not allowed: ${READ_ONLY}.`;
    default:
      return `${ACTIONS[code] ?? `Statement kind ${code}`} is not allowed: ${READ_ONLY}.`;
  }
}

export class ReadOnlyGuard {
  private refused: string | undefined;

  constructor(
    private readonly capi: Sqlite3Capi,
    private readonly db: number,
  ) {
    capi.sqlite3_set_authorizer(
      db,
      (_user: number, code: number, a1: string | null, a2: string | null) => {
        const why = refusal(code, a1, a2);
        if (why !== undefined && this.refused === undefined) this.refused = why;
        return why === undefined ? SQLITE_OK : SQLITE_DENY;
      },
      0,
    );
  }

  /** Call before preparing a statement. */
  reset(): void {
    this.refused = undefined;
  }

  /** The reason the last prepare failed, if the authorizer refused it. */
  get refusedReason(): string | undefined {
    return this.refused;
  }

  /** Throws when a prepared statement would write (what the authorizer cannot see: VACUUM). */
  checkStatement(stmt: number, sql: string): void {
    if (this.capi.sqlite3_stmt_readonly(stmt) !== 0) return;
    const word = /^\s*(?:(?:--[^\n]*\n|\/\*[\s\S]*?\*\/)\s*)*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? 'This statement';
    throw new ReadOnlyRefusal(`${word} would change the database and is not allowed: ${READ_ONLY}.`);
  }

  remove(): void {
    this.capi.sqlite3_set_authorizer(this.db, 0, 0);
  }
}

export class ReadOnlyRefusal extends Error {}
