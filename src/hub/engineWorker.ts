// Runs inside a worker thread: owns one DoltLite (SQLite WASM) instance whose in-memory file
// system caches database files loaded from disk. A long query blocks only this thread; the
// main thread keeps serving HTTP. Writes persist atomically before they are reported done.
import { parentPort, workerData } from 'node:worker_threads';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { getHeapStatistics } from 'node:v8';
import init from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import type { Sqlite3, Sqlite3Db } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import type { QueryResult } from '../shared/wire';
import type {
  Author,
  BranchRow,
  DbFile,
  EngineRequest,
  EngineResponse,
  Revision,
  TagRow,
  WriteResult,
  WriteScript,
} from './engineProtocol';
import { mysqlNow, translateQuery } from './mysqlDialect';
import { ReadOnlyGuard } from './readOnlyGuard';
import { engineMessage, runSelect, type QueryBudget } from './selectRunner';
import { writeFileAtomicSync } from './atomicFile';
import { runImport } from './tableImport';
import { rewriteDoltSql } from './doltSql/rewrite';
import { CommitSnapshots } from './commitSnapshot';
import { engineContext, registerDoltSqlFunctions, reopenAsOf } from './doltSql/engineContext';
import { DiffRowCache, diffCopyBudget } from './doltSql/diffRowCache';
import { ENGINE_DEFAULTS } from './engine';

const SQLITE_LIMIT_LENGTH = 0;

export function locateWasm(file: string): string {
  const beside = join(__dirname, file);
  if (existsSync(beside)) return beside;
  try {
    // Running from the sources (tests under tsx): the package's own copy.
    return createRequire(__filename).resolve(`@dolthub/doltlite-wasm/${file}`);
  } catch {
    throw new Error(`${file} is missing: it must sit beside ${__filename} (npm run build copies it into dist/).`);
  }
}

export class SqlRefused extends Error {}

function fileBytes(path: string): Uint8Array {
  const b = readFileSync(path);
  // The glue accepts plain typed arrays only, not Buffer.
  return new Uint8Array(b.buffer, b.byteOffset, b.length);
}

export class EngineCore {
  private readonly loaded = new Map<string, number>();
  private readonly snapshots: CommitSnapshots;
  /** Copies of row diffs, so their pages are read without recomputing the diff (diffRowCache.ts). */
  private readonly diffCopies: DiffRowCache;

  constructor(
    readonly sqlite3: Sqlite3,
    diffCopyBytes = diffCopyBudget(ENGINE_DEFAULTS.workerMemoryBytes),
  ) {
    this.snapshots = new CommitSnapshots(sqlite3);
    this.diffCopies = new DiffRowCache(diffCopyBytes);
  }

  static async create(diffCopyBytes?: number): Promise<EngineCore> {
    const sqlite3 = await init({ locateFile: (f) => locateWasm(f), print: () => undefined, printErr: () => undefined });
    // The oo1 layer prints every failed step to the console; failures reach us as exceptions.
    sqlite3.config.warn = () => undefined;
    sqlite3.config.error = () => undefined;
    sqlite3.config.log = () => undefined;
    sqlite3.config.debug = () => undefined;
    return new EngineCore(sqlite3, diffCopyBytes);
  }

  /** How many row diffs this worker keeps copies of, and their estimated size. */
  diffCopyStats(): { copies: number; bytes: number } {
    return this.diffCopies.size;
  }

  /** WASM memory (it only grows) plus this thread's JS heap, which holds the cached database files. */
  memoryBytes(): number {
    const h = getHeapStatistics();
    return this.sqlite3.wasm.memory.buffer.byteLength + h.used_heap_size + ((h as { external_memory?: number }).external_memory ?? 0);
  }

  memPath(key: string): string {
    return '/' + key.replace('/', '~') + '.db';
  }

  ensure(db: DbFile): string {
    const mem = this.memPath(db.key);
    if (this.loaded.get(db.key) !== db.version) {
      const buf = readFileSync(db.path);
      // The glue accepts plain typed arrays only, not Buffer.
      this.sqlite3.capi.sqlite3_js_posix_create_file(mem, new Uint8Array(buf.buffer, buf.byteOffset, buf.length));
      this.loaded.set(db.key, db.version);
    }
    return mem;
  }

  openAt(db: DbFile, rev: Revision | undefined, mode: 'r' | 'c'): Sqlite3Db {
    const mem = this.ensure(db);
    const at = rev === undefined ? '' : '@' + ('branch' in rev ? rev.branch : 'commitHex' in rev ? rev.commitHex : rev.ref);
    return new this.sqlite3.oo1.DB(mem + at, mode);
  }

  async handle(req: EngineRequest): Promise<unknown> {
    switch (req.op) {
      case 'query':
        return this.query(req.db, req.ref, req.sql, req.limit, req.timeoutMs, req.dbName, {
          maxBytes: req.maxBytes,
          maxValueBytes: req.maxValueBytes,
        });
      case 'read':
        return this.read(req.db, req.what, req.ref);
      case 'write':
        return this.write(req.db, req.nextVersion, req.author, req.script);
    }
  }

  query(db: DbFile, ref: Revision, q: string, limit: number, timeoutMs: number, dbName: string, budget: QueryBudget): QueryResult {
    // The deadline covers all the query's work, reading a diff for its pages included.
    const deadline = Date.now() + timeoutMs;
    const t = translateQuery(q);
    if (t.kind === 'invalid') return { columns: [], rows: [], status: 'error', message: t.message };
    let conn: Sqlite3Db;
    try {
      conn = this.openAt(db, ref, 'r');
    } catch (e) {
      // Opening at a branch, tag or commit that does not exist: the server answers 404.
      return { columns: [], rows: [], status: 'error', message: engineMessage(e), ref_not_found: true } as QueryResult;
    }
    // At a commit or tag DoltLite cannot sort (see commitSnapshot.ts): read there through a branch.
    const detached = conn;
    try {
      conn = this.snapshots.reopen(detached, { memPath: this.memPath(db.key), version: db.version, bytes: () => fileBytes(db.path) });
    } catch (e) {
      detached.close();
      return { columns: [], rows: [], status: 'error', message: engineMessage(e) };
    }
    // Every statement on this connection is the caller's or built from the caller's input.
    let guard = new ReadOnlyGuard(this.sqlite3.capi, conn.pointer);
    this.sqlite3.capi.sqlite3_limit(conn.pointer, SQLITE_LIMIT_LENGTH, budget.maxValueBytes);
    try {
      conn.createFunction('now', () => mysqlNow(), { arity: 0 });
      conn.createFunction('database', () => dbName, { arity: 0 });
      let sql: string;
      let describeSql: string | undefined;
      let fixedTypes: string[] | undefined;
      if (t.kind === 'showTables') {
        const nameCol = `"Tables_in_${dbName.replace(/"/g, '""')}"`;
        const hidden = `name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE 'dolt\\_%' ESCAPE '\\'`;
        if (t.full) {
          // Dolt's SHOW FULL TABLES: tables and views, with MySQL's Table_type.
          sql = `SELECT name AS ${nameCol}, CASE type WHEN 'view' THEN 'VIEW' ELSE 'BASE TABLE' END AS "Table_type" FROM sqlite_master WHERE type IN ('table','view') AND ${hidden} ORDER BY name`;
          fixedTypes = ['varchar(64)', 'varchar(64)'];
        } else {
          sql = `SELECT name AS ${nameCol} FROM sqlite_master WHERE type='table' AND ${hidden} ORDER BY name`;
          fixedTypes = ['varchar(64)'];
        }
      } else if (t.kind === 'describe' || t.kind === 'showCreateTable') {
        if (t.asOf !== undefined) {
          // DESCRIBE t AS OF 'rev': the schema at that revision, read on a connection opened there.
          guard.remove();
          const at = reopenAsOf(this.sqlite3, conn, this.memPath(db.key), t.asOf);
          if ('error' in at) return { columns: [], rows: [], status: 'error', message: at.error };
          conn = at.conn;
          // The connection at the revision answers the caller too: it gets the same guard.
          guard = new ReadOnlyGuard(this.sqlite3.capi, conn.pointer);
        }
        const exists = conn.selectValue(`SELECT count(*) FROM sqlite_master WHERE type IN ('table','view') AND name = ?`, [t.table]);
        if (Number(exists) === 0) return { columns: [], rows: [], status: 'error', message: `table not found: ${t.table}` };
        const lit = `'${t.table.replace(/'/g, "''")}'`;
        if (t.kind === 'describe') {
          sql = `SELECT name AS "Field", lower(type) AS "Type", CASE WHEN "notnull" OR pk > 0 THEN 'NO' ELSE 'YES' END AS "Null", CASE WHEN pk > 0 THEN 'PRI' ELSE '' END AS "Key", dflt_value AS "Default", '' AS "Extra" FROM pragma_table_info(${lit}) ORDER BY cid`;
          fixedTypes = ['varchar(64)', 'longtext', 'varchar(3)', 'char(3)', 'text', 'varchar(256)'];
        } else {
          sql = `SELECT name AS "Table", sql AS "Create Table" FROM sqlite_master WHERE type IN ('table','view') AND name = ${lit}`;
          fixedTypes = ['varchar(64)', 'longtext'];
        }
      } else {
        // Dolt's version-control forms (DOLT_DIFF(...), AS OF, HASHOF, ...) onto DoltLite's.
        registerDoltSqlFunctions(conn);
        const rewritten = rewriteDoltSql(
          t.sql,
          engineContext(
            this.sqlite3,
            conn,
            () => {
              const b = readFileSync(db.path);
              return new Uint8Array(b.buffer, b.byteOffset, b.length);
            },
            { cache: this.diffCopies, dbKey: db.key, deadline, callerGone },
          ),
        );
        if ('error' in rewritten) return { columns: [], rows: [], status: rewritten.status, message: rewritten.error };
        sql = rewritten.sql;
        describeSql = rewritten.describeSql;
      }
      return runSelect(this.sqlite3, conn, guard, sql, limit, timeoutMs, budget, fixedTypes, {
        deadline,
        callerGone,
        ...(describeSql !== undefined ? { describeSql } : {}),
      });
    } finally {
      guard.remove();
      conn.close();
    }
  }

  read(db: DbFile, what: 'branches' | 'tags' | 'commit', ref?: Revision): BranchRow[] | TagRow[] | { hashHex: string | null } {
    if (what === 'commit') {
      if (!ref) throw new Error('ref required');
      let conn: Sqlite3Db;
      try {
        conn = this.openAt(db, ref, 'r');
      } catch {
        return { hashHex: null };
      }
      try {
        return { hashHex: String(conn.selectValue(`SELECT dolt_hashof('HEAD')`)) };
      } catch {
        return { hashHex: null };
      } finally {
        conn.close();
      }
    }
    const conn = this.openAt(db, undefined, 'r');
    try {
      if (what === 'branches') {
        return conn
          .selectObjects(`SELECT name, hash, latest_commit_date FROM dolt_branches WHERE remote = '' OR remote IS NULL ORDER BY name`)
          .map((r) => ({
            name: String(r['name']),
            hashHex: String(r['hash']),
            date: String(r['latest_commit_date'] ?? ''),
          }));
      }
      return conn.selectObjects(`SELECT tag_name, tag_hash, message, date FROM dolt_tags ORDER BY tag_name`).map((r) => ({
        name: String(r['tag_name']),
        hashHex: String(r['tag_hash']),
        message: String(r['message'] ?? ''),
        date: String(r['date'] ?? ''),
      }));
    } finally {
      conn.close();
    }
  }

  async write(db: DbFile, nextVersion: number, author: Author, script: WriteScript): Promise<WriteResult> {
    const mem = this.memPath(db.key);
    if (script.kind === 'create') {
      const conn = new this.sqlite3.oo1.DB(mem, 'c');
      try {
        return this.persist(conn, db, nextVersion);
      } finally {
        conn.close();
      }
    }
    const conn = this.openAt(db, undefined, 'c');
    let ok = false;
    try {
      conn.exec(`SELECT dolt_config('user.name', ?)`, { bind: [author.name] });
      conn.exec(`SELECT dolt_config('user.email', ?)`, { bind: [author.email] });
      const result = await this.applyScript(conn, db, author, script);
      if (!result.ok) return result;
      const persisted = this.persist(conn, db, nextVersion);
      ok = true;
      return persisted.ok ? { ...persisted, commitHex: result.commitHex } : persisted;
    } finally {
      conn.close();
      // A failed script may have left the in-memory copy half-changed: reload it next time.
      if (!ok) this.loaded.delete(db.key);
    }
  }

  private persist(conn: Sqlite3Db, db: DbFile, nextVersion: number): WriteResult & { ok: true } {
    const bytes = this.sqlite3.capi.sqlite3_js_db_export(conn.pointer);
    writeFileAtomicSync(db.path, bytes);
    this.loaded.set(db.key, nextVersion);
    return { ok: true, sizeBytes: statSync(db.path).size };
  }

  private async applyScript(conn: Sqlite3Db, db: DbFile, author: Author, script: WriteScript): Promise<WriteResult> {
    const authorArg = `${author.name} <${author.email}>`;
    switch (script.kind) {
      case 'branch': {
        const start = this.revisionHex(db, script.from);
        if (!start) return { ok: false, code: 'NOT_FOUND', message: 'The source revision does not exist.' };
        conn.exec(`SELECT dolt_branch(?, ?)`, { bind: [script.name, start] });
        return { ok: true, commitHex: start, sizeBytes: 0 };
      }
      case 'tag': {
        const start = this.revisionHex(db, script.from);
        if (!start) return { ok: false, code: 'NOT_FOUND', message: 'The source revision does not exist.' };
        if (script.message !== undefined) {
          conn.exec(`SELECT dolt_tag('-m', ?, ?, ?)`, { bind: [script.message, script.name, start] });
        } else {
          conn.exec(`SELECT dolt_tag(?, ?)`, { bind: [script.name, start] });
        }
        return { ok: true, commitHex: start, sizeBytes: 0 };
      }
      case 'sql': {
        conn.exec(`SELECT dolt_checkout(?)`, { bind: [script.branch] });
        conn.exec('BEGIN');
        try {
          for (const s of script.statements) conn.exec(s);
          conn.exec('COMMIT');
        } catch (e) {
          conn.exec('ROLLBACK');
          throw e;
        }
        const args = ['-A', '-m', script.message, '--author', authorArg];
        if (script.date) args.push('--date', script.date);
        const hex = String(conn.selectValue(`SELECT dolt_commit(${args.map(() => '?').join(', ')})`, args));
        return { ok: true, commitHex: hex, sizeBytes: 0 };
      }
      case 'merge':
        return this.merge(conn, db, script, authorArg);
      case 'import':
        return runImport(conn, script.spec, authorArg);
      case 'create':
        return { ok: true, sizeBytes: 0 };
    }
  }

  private merge(conn: Sqlite3Db, _db: DbFile, script: Extract<WriteScript, { kind: 'merge' }>, _authorArg: string): WriteResult {
    let source = script.fromBranch;
    let remote: string | undefined;
    if (script.fromFile) {
      const forkMem = this.ensure(script.fromFile);
      remote = `fork_${Date.now().toString(36)}`;
      conn.exec(`SELECT dolt_remote('add', ?, ?)`, { bind: [remote, 'file://' + forkMem] });
      conn.exec(`SELECT dolt_fetch(?)`, { bind: [remote] });
      source = `${remote}/${script.fromBranch}`;
    }
    conn.exec(`SELECT dolt_checkout(?)`, { bind: [script.toBranch] });
    conn.exec('BEGIN');
    try {
      conn.selectValue(`SELECT dolt_merge(?, '--no-ff', '-m', ?)`, [source, script.message]);
    } catch (e) {
      let tables: string[] = [];
      try {
        tables = conn.selectObjects(`SELECT "table" FROM dolt_conflicts`).map((r) => String(r['table']));
      } catch {
        // Not a conflict: the message says what went wrong.
      }
      try {
        conn.exec('ROLLBACK');
      } catch {
        /* already rolled back */
      }
      if (tables.length > 0) {
        return {
          ok: false,
          code: 'CONFLICT',
          message: `Merge conflict in table${tables.length > 1 ? 's' : ''}: ${tables.join(', ')}`,
          tables,
        };
      }
      return { ok: false, code: 'UNPROCESSABLE', message: engineMessage(e) };
    }
    // A clean dolt_merge commits and ends the transaction itself.
    if (this.sqlite3.capi.sqlite3_get_autocommit(conn.pointer) === 0) conn.exec('COMMIT');
    if (remote) conn.exec(`SELECT dolt_remote('remove', ?)`, { bind: [remote] });
    const hex = String(conn.selectValue(`SELECT dolt_hashof('HEAD')`));
    return { ok: true, commitHex: hex, sizeBytes: 0 };
  }

  private revisionHex(db: DbFile, rev: Revision): string | null {
    const r = this.read(db, 'commit', rev) as { hashHex: string | null };
    return r.hashHex;
  }
}

/**
 * Set to 1 by the engine (engine.ts, a SharedArrayBuffer per worker) when the caller of the running
 * query went away; read between steps of the query, since this thread is busy stepping it.
 */
const cancelFlag: Int32Array | undefined = workerData?.cancel instanceof Int32Array ? workerData.cancel : undefined;
const callerGone = (): boolean => cancelFlag !== undefined && Atomics.load(cancelFlag, 0) === 1;

/** Worker entry: answer requests one at a time. */
export async function runEngineWorker(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('runEngineWorker must run in a worker thread');
  const budget = (workerData as { diffCopyBytes?: unknown } | null)?.diffCopyBytes;
  const core = await EngineCore.create(typeof budget === 'number' ? budget : undefined);
  // Main sends one request at a time per worker; the chain keeps that true even if it did not.
  let chain: Promise<void> = Promise.resolve();
  port.on('message', (msg: { id: number; req: EngineRequest }) => {
    chain = chain.then(async () => {
      let resp: EngineResponse;
      try {
        resp = { id: msg.id, ok: true, value: (await core.handle(msg.req)) as never };
      } catch (e) {
        resp = { id: msg.id, ok: false, message: engineMessage(e) };
      }
      resp.memoryBytes = core.memoryBytes();
      port.postMessage(resp);
    });
  });
  port.postMessage({ ready: true });
}
