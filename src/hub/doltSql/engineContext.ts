// The Dolt SQL rewriter's view of one read-only DoltLite connection, plus the two SQL functions
// rewritten queries call: dolt_hash32(x) (40 hex -> Dolt's base32, anything else unchanged) and
// dolt_rev(x) (a base32 commit hash, with an optional ~N/^ suffix, -> what DoltLite reads).
import { createHash } from 'node:crypto';
import { MYSQL_TEXT_FUNCTION, sqliteToMysqlText } from './mysqlText';
import type { Sqlite3, Sqlite3Capi, Sqlite3Db } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import type { DiffPageRequest, DoltSqlContext, PreviewTable } from './common';
import { diffPage, type DiffPageSource, type ServedCopies } from './diffPageServe';
import { HASH_FUNCTION, REVISION_FUNCTION } from './forms';
import { toDoltHash, toEngineRevision } from './revisions';
import { userColumnOf } from './userColumns';
import { loadMemFile } from '../queryMemory';
import { q } from '../sqliteQuote';

/** One throwaway file per worker thread for merge previews; emptied after each use. */
const PREVIEW_PATH = '/~merge-preview.db';

export function registerDoltSqlFunctions(conn: Sqlite3Db): void {
  conn.createFunction(HASH_FUNCTION, (_ctx, v) => toDoltHash(v), { arity: 1, deterministic: true });
  conn.createFunction(MYSQL_TEXT_FUNCTION, (_ctx, v) => (typeof v === 'string' ? sqliteToMysqlText(v) : v), {
    arity: 1,
    deterministic: true,
  });
  conn.createFunction(REVISION_FUNCTION, (_ctx, v) => (typeof v === 'string' ? toEngineRevision(v) : v), { arity: 1, deterministic: true });
}

/**
 * `loadCopy` gives the bytes of the database file (as committed on disk); merge previews run on
 * a private copy of them, so the real database and its branches are never touched.
 */
export { COPY_FROM_FIRST_PAGE, type DiffPageSource } from './diffPageServe';

export function engineContext(sqlite3: Sqlite3, conn: Sqlite3Db, loadCopy: () => Uint8Array, diffPages?: DiffPageSource): DoltSqlContext {
  const resolved = new Map<string, string | null>();
  /** The copies this query's pages read: the only ones its cell function can reach. */
  const served: ServedCopies = { copies: [], registered: false };
  const interrupted = (): 'timeout' | 'cancelled' | undefined =>
    diffPages === undefined ? undefined : Date.now() > diffPages.deadline ? 'timeout' : diffPages.callerGone?.() ? 'cancelled' : undefined;
  // The look-ups translation runs on the connection stop too (runSelect sets its own handler after).
  if (diffPages) sqlite3.capi.sqlite3_progress_handler(conn.pointer, 1000, () => (interrupted() === undefined ? 0 : 1), 0);
  return {
    interrupted,
    resolve(spec) {
      if (!resolved.has(spec)) {
        let hex: string | null;
        try {
          const v = conn.selectValue('SELECT dolt_hashof(?)', [spec]);
          hex = typeof v === 'string' && /^[0-9a-f]{40}$/.test(v) ? v : null;
        } catch {
          hex = null;
        }
        resolved.set(spec, hex);
      }
      return resolved.get(spec) ?? null;
    },
    mergeBase(a, b) {
      try {
        const v = conn.selectValue('SELECT dolt_merge_base(?, ?)', [a, b]);
        return typeof v === 'string' && v !== '' ? v : null;
      } catch {
        return null;
      }
    },
    columns(sql) {
      let stmt;
      try {
        stmt = conn.prepare(sql);
      } catch (e) {
        return { error: message(e) };
      }
      try {
        const out: string[] = [];
        for (let i = 0; i < stmt.columnCount; i++) out.push(stmt.getColumnName(i));
        return out;
      } finally {
        stmt.finalize();
      }
    },
    columnsAt(hex, table) {
      return columnsAt(sqlite3, conn, hex, table);
    },
    rows(sql, bind) {
      return conn.selectObjects(sql, bind).map((r) => Object.values(r));
    },
    previewMerge(baseHex, mergeHex, table) {
      return previewMerge(sqlite3, loadCopy(), baseHex, mergeHex, table);
    },
    ...(diffPages ? { diffPage: (req: DiffPageRequest) => diffPage(sqlite3, conn, diffPages, served, req) } : {}),
  };
}

/**
 * The table's columns at commit `hex`: the connection's own schema when `hex` has the same (no
 * row in dolt_schema_diff from the connection's HEAD), else read from the CREATE statement there.
 */
function columnsAt(sqlite3: Sqlite3, conn: Sqlite3Db, hex: string, table: string): string[] | undefined {
  const own = (): string[] =>
    conn.selectObjects('SELECT name FROM pragma_table_info(?) ORDER BY cid', [table]).map((r) => String(r['name']));
  try {
    const head = String(conn.selectValue(`SELECT dolt_hashof('HEAD')`));
    if (head === hex) return own();
    const diff = conn.selectObjects('SELECT from_create_statement AS s FROM dolt_schema_diff(?, ?, ?)', [hex, head, table]);
    if (diff.length === 0) return own();
    const create = diff[0]?.['s'];
    if (typeof create !== 'string' || create === '') return undefined;
    // The statement's columns, as SQLite reads them, on a scratch in-memory database.
    const scratch = new sqlite3.oo1.DB(':memory:', 'c');
    try {
      scratch.exec(create);
      return scratch.selectObjects('SELECT name FROM pragma_table_info(?) ORDER BY cid', [table]).map((r) => String(r['name']));
    } finally {
      scratch.close();
    }
  } catch {
    return undefined;
  }
}

function previewMerge(
  sqlite3: Sqlite3,
  bytes: Uint8Array,
  baseHex: string,
  mergeHex: string,
  table?: string,
): { summary: PreviewTable; table?: PreviewTable } | { error: string } {
  loadMemFile(sqlite3, PREVIEW_PATH, bytes);
  const copy = new sqlite3.oo1.DB(PREVIEW_PATH, 'c');
  try {
    // A branch of the copy at the base commit receives the trial merge.
    const branch = `merge-preview-${Date.now().toString(36)}`;
    copy.exec('SELECT dolt_branch(?, ?)', { bind: [branch, baseHex] });
    copy.exec('SELECT dolt_checkout(?)', { bind: [branch] });
    if (table !== undefined && !tableInMerge(copy, table, baseHex, mergeHex)) return { error: `table not found: ${table}` };
    copy.exec('BEGIN');
    let summary: PreviewTable = { columns: ['table', 'num_data_conflicts', 'num_schema_conflicts'], rows: [] };
    let detail: PreviewTable | undefined;
    try {
      copy.selectValue('SELECT dolt_merge(?)', [mergeHex]);
    } catch (e) {
      const { data, schema } = conflictCounts(copy);
      if (data.size === 0 && schema.size === 0) return { error: `the merge cannot be previewed: ${message(e)}` };
      const tables = [...new Set([...data.keys(), ...schema.keys()])].sort();
      summary = { ...summary, rows: tables.map((t) => [t, schema.has(t) ? null : (data.get(t) ?? 0), schema.get(t) ?? 0]) };
      if (table !== undefined && data.has(table)) detail = conflictRows(copy, table, mergeHex);
    }
    if (table !== undefined && !detail) {
      // No conflicts in that table: the same columns, no rows.
      detail = { columns: conflictColumns(copy, table), rows: [] };
    }
    return detail ? { summary, table: detail } : { summary };
  } catch (e) {
    return { error: message(e) };
  } finally {
    try {
      if (sqlite3.capi.sqlite3_get_autocommit(copy.pointer) === 0) copy.exec('ROLLBACK');
    } catch {
      // the copy is dropped anyway
    }
    copy.close();
    loadMemFile(sqlite3, PREVIEW_PATH, new Uint8Array(0));
  }
}

/** Is `table` in the preview's copy at the base, or changed by the merge? */
function tableInMerge(copy: Sqlite3Db, table: string, baseHex: string, mergeHex: string): boolean {
  const known = copy.selectValue(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, [table]);
  const theirs = copy.selectValue(`SELECT count(*) FROM dolt_diff_summary(?, ?) WHERE to_table_name = ? OR from_table_name = ?`, [
    baseHex,
    mergeHex,
    table,
    table,
  ]);
  return Number(known) > 0 || Number(theirs) > 0;
}

/** After a failed trial merge: data conflicts and schema conflicts per table. */
function conflictCounts(copy: Sqlite3Db): { data: Map<string, number>; schema: Map<string, number> } {
  const data = new Map<string, number>();
  const schema = new Map<string, number>();
  try {
    for (const r of copy.selectObjects('SELECT "table", num_conflicts FROM dolt_conflicts'))
      data.set(String(r['table']), Number(r['num_conflicts']));
  } catch {
    // no data conflicts table: the merge failed for another reason (the caller says so)
  }
  try {
    for (const r of copy.selectObjects('SELECT table_name FROM dolt_schema_conflicts')) {
      const t = String(r['table_name']);
      schema.set(t, (schema.get(t) ?? 0) + 1);
    }
  } catch {
    // DoltLite without schema conflicts
  }
  return { data, schema };
}

/** The conflicting rows of `table` after a trial merge, as Dolt shows them. */
function conflictRows(copy: Sqlite3Db, table: string, mergeHex: string): PreviewTable {
  const source = q(`dolt_conflicts_${table}`);
  const stmt = copy.prepare(`SELECT * FROM ${source}`);
  const columns: string[] = [];
  for (let i = 0; i < stmt.columnCount; i++) columns.push(stmt.getColumnName(i));
  stmt.finalize();
  const rows = copy.selectObjects(`SELECT * FROM ${source}`).map((r) => Object.values(r));
  return { columns, rows: rows.map((r) => asDoltConflictRow(columns, r, mergeHex)) };
}

/**
 * A conflict row as Dolt shows it: `from_root_ish` is the commit being merged in (DoltLite leaves
 * it empty on a trial merge) and `dolt_conflict_id` a 22-character base64 id, the same for the
 * same conflict on every read (Dolt's own ids hash its storage's key tuples, which this cannot
 * reproduce byte for byte; they are ids to name a row with, not values to compare across servers).
 */
function asDoltConflictRow(columns: readonly string[], row: unknown[], mergeHex: string): unknown[] {
  const out = [...row];
  const root = columns.indexOf('from_root_ish');
  const id = columns.indexOf('dolt_conflict_id');
  if (root >= 0) out[root] = mergeHex;
  if (id >= 0) {
    const cells = out.filter((_, k) => k !== root && k !== id).map((v) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v));
    const key = JSON.stringify([mergeHex, ...cells], (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    out[id] = createHash('md5').update(key).digest('base64').replace(/=+$/, '');
  }
  return out;
}

/** dolt_conflicts_<t>'s columns for a table: from_root_ish, base_/our_/their_ columns and ids. */
function conflictColumns(db: Sqlite3Db, table: string): string[] {
  const cols = db.selectObjects('SELECT name FROM pragma_table_info(?) ORDER BY cid', [table]).map((r) => String(r['name']));
  return [
    'from_root_ish',
    ...cols.map((c) => `base_${c}`),
    ...cols.map((c) => `our_${c}`),
    'our_diff_type',
    ...cols.map((c) => `their_${c}`),
    'their_diff_type',
    'dolt_conflict_id',
  ];
}

function message(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.replace(/^SQLITE_[A-Z_]+: sqlite3 result code \d+: /, '');
}

/**
 * Result columns read from DoltLite's version tables take the user table's declared type, and
 * a table read AS OF a revision (dolt_at_<t>) shows as that table, primary key included.
 */
export class UserColumnTypes {
  private readonly tables = new Map<string, Map<string, string>>();

  constructor(private readonly conn: Sqlite3Db) {}

  private declared(table: string): Map<string, string> {
    let cols = this.tables.get(table);
    if (!cols) {
      cols = new Map();
      try {
        for (const r of this.conn.selectObjects('SELECT name, type FROM pragma_table_info(?)', [table]))
          cols.set(String(r['name']), String(r['type'] ?? ''));
      } catch {
        // not a table here
      }
      this.tables.set(table, cols);
    }
    return cols;
  }

  declType(capi: Sqlite3Capi, stmt: number, i: number): string | null {
    const decl = capi.sqlite3_column_decltype(stmt, i);
    const user = userColumnOf(capi.sqlite3_column_table_name(stmt, i) ?? '', capi.sqlite3_column_origin_name(stmt, i) ?? '');
    const mapped = user ? this.declared(user.table).get(user.column) : undefined;
    return mapped !== undefined && mapped !== '' ? mapped : decl;
  }

  /** [table, column] the column comes from, as the grid should show it. */
  source(capi: Sqlite3Capi, stmt: number, i: number): [string, string] {
    const table = capi.sqlite3_column_table_name(stmt, i) ?? '';
    const origin = capi.sqlite3_column_origin_name(stmt, i) ?? '';
    const at = /^dolt_at_(.+)$/.exec(table);
    if (at && this.declared(at[1] as string).has(origin)) return [at[1] as string, origin];
    return [table, origin];
  }
}

/** Closes `conn` and opens the same database at revision `spec` (read-only), or says why not. */
export function reopenAsOf(sqlite3: Sqlite3, conn: Sqlite3Db, memPath: string, spec: string): { conn: Sqlite3Db } | { error: string } {
  let hex: unknown;
  try {
    hex = conn.selectValue('SELECT dolt_hashof(?)', [toEngineRevision(spec)]);
  } catch {
    hex = null;
  }
  if (typeof hex !== 'string' || !/^[0-9a-f]{40}$/.test(hex)) return { error: `AS OF: no branch, tag or commit named "${spec}".` };
  const at = new sqlite3.oo1.DB(`${memPath}@${hex}`, 'r');
  conn.close();
  return { conn: at };
}
