// The SQL endpoint is read-only, and the engine (not a text pattern) enforces it. On every
// connection that runs a caller's SQL:
// - an authorizer allows only reading (SELECT, reading tables, recursive CTEs), functions other
//   than Dolt's procedures that write, and pragmas that only report; everything else (ATTACH,
//   INSERT, CREATE, BEGIN, PRAGMA x = y, dolt_commit(), dolt_reset(), ...) fails to prepare;
// - a prepared statement must also be read-only by SQLite's own account (sqlite3_stmt_readonly),
//   which catches what no authorizer code covers (VACUUM, VACUUM INTO).
// The hub's own writes (merges, imports, branches) use other connections and are not guarded.
import type { Sqlite3Capi } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import { HASH_FUNCTION, REVISION_FUNCTION } from './doltSql/forms';

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

/** Other functions with effects beyond their result (fts3_tokenizer can register a tokenizer). */
const REFUSED_FUNCTIONS: ReadonlySet<string> = new Set(['fts3_tokenizer', 'load_extension']);

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
  const n = name.toLowerCase();
  if (REFUSED_FUNCTIONS.has(n)) return false;
  return !n.startsWith('dolt') || READ_ONLY_DOLT_FUNCTIONS.has(n);
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
      return isReadOnlyFunction(name) ? undefined : `${name}() changes the database and is not allowed: ${READ_ONLY}.`;
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
