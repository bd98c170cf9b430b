// Runs inside a worker thread: owns one DoltLite (SQLite WASM) instance whose in-memory file
// system caches database files loaded from disk. A long query blocks only this thread; the
// main thread keeps serving HTTP. Writes persist atomically before they are reported done.
import { parentPort, workerData } from 'node:worker_threads';
import { statSync } from 'node:fs';
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
import { mysqlNow, translateQuery, type TranslatedQuery } from './mysqlDialect';
import { ReadOnlyGuard } from './readOnlyGuard';
import { engineMessage, runSelect, type EngineQueryResult, type QueryBudget } from './selectRunner';
import { writeFileAtomicSync } from './atomicFile';
import { CommitSnapshots, needsSnapshot } from './commitSnapshot';
import { ConnectionPool } from './connectionPool';
import { callerStatement, type Answering } from './callerStatement';
import { applyScript } from './writeScripts';
import { DiffRowCache, diffCopyBudget } from './doltSql/diffRowCache';
import { ENGINE_DEFAULTS } from './engine';
import { CACHE_SLACK_BYTES, cacheBytesFor, fileBytes, locateWasm } from './engineFiles';
import { isOutOfMemory, loadMemFile, QueryMemory, queryMemoryMessage, sortsInHeap } from './queryMemory';
import { IdleReads } from './engineIdle';

const SQLITE_LIMIT_LENGTH = 0;

export class SqlRefused extends Error {}

export class EngineCore {
  /** Database key → the version and size of the copy in this worker's memory. */
  private readonly loaded = new Map<string, { version: number; bytes: number }>();
  private readonly snapshots: CommitSnapshots;
  /** Connections kept between queries (connectionPool.ts). */
  private readonly pool = new ConnectionPool();
  /** Copies of row diffs, so their pages are read without recomputing the diff (diffRowCache.ts). */
  private readonly diffCopies: DiffRowCache;
  /** The heap limit and each caller's query's share under it (queryMemory.ts). */
  private readonly memory: QueryMemory;

  constructor(
    readonly sqlite3: Sqlite3,
    diffCopyBytes = diffCopyBudget(ENGINE_DEFAULTS.workerMemoryBytes),
  ) {
    this.snapshots = new CommitSnapshots(sqlite3, (scratch) => this.pool.closeFile(scratch));
    this.diffCopies = new DiffRowCache(diffCopyBytes);
    this.memory = new QueryMemory(sqlite3);
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

  /**
   * Reads on, for about `ms`, a copy of a diff its pages are reading (diffCopyStream.ts), between
   * queries; false when no copy is being read.
   */
  backgroundRead(ms: number): boolean {
    return this.diffCopies.readOn(ms);
  }

  /** Connections kept open between queries. */
  keptConnections(): number {
    return this.pool.size;
  }

  /**
   * WASM memory used (it only grows) plus this thread's JS heap and buffers, which hold the cached
   * database files. V8 counts the WASM memory among the buffers: it is counted once, as used.
   */
  memoryBytes(): number {
    const h = getHeapStatistics();
    const external = ((h as { external_memory?: number }).external_memory ?? 0) - this.sqlite3.wasm.memory.buffer.byteLength;
    return this.memory.wasmBytes() + h.used_heap_size + Math.max(0, external);
  }

  /**
   * Bytes of the largest database file this worker holds plus its scratch copies: what its memory
   * may grow with (workerMemoryLimit). Not the sum: a worker that holds many databases is still
   * replaced past its limit, which drops them all.
   */
  dataBytes(): number {
    let largest = 0;
    for (const l of this.loaded.values()) largest = Math.max(largest, l.bytes);
    return largest + this.snapshots.bytes;
  }

  memPath(key: string): string {
    return '/' + key.replace('/', '~') + '.db';
  }

  ensure(db: DbFile): string {
    const mem = this.memPath(db.key);
    if (this.loaded.get(db.key)?.version !== db.version) {
      // Kept connections read the copy about to be replaced.
      this.pool.closeDatabase(db.key);
      const bytes = fileBytes(db.path);
      loadMemFile(this.sqlite3, mem, bytes);
      this.loaded.set(db.key, { version: db.version, bytes: bytes.length });
    }
    return mem;
  }

  openAt(db: DbFile, rev: Revision | undefined, mode: 'r' | 'c'): Sqlite3Db {
    const mem = this.ensure(db);
    return new this.sqlite3.oo1.DB(mem + revisionSuffix(rev), mode);
  }

  async handle(req: EngineRequest): Promise<unknown> {
    switch (req.op) {
      case 'query':
        return this.query(
          req.db,
          req.ref,
          req.sql,
          req.limit,
          req.timeoutMs,
          req.dbName,
          {
            maxBytes: req.maxBytes,
            maxValueBytes: req.maxValueBytes,
            memoryBytes: req.maxMemoryBytes,
          },
          req.rawRows === true,
        );
      case 'read':
        return this.read(req.db, req.what, req.ref);
      case 'write':
        return this.write(req.db, req.nextVersion, req.author, req.script);
    }
  }

  /**
   * A caller's query at `ref`. At a commit or tag it runs on the connection opened there, and only
   * when that connection cannot answer it (a sort or other transient table: commitSnapshot.ts) on
   * a connection at the commit in the worker's scratch copy. Plain queries run on kept connections.
   */
  query(
    db: DbFile,
    ref: Revision,
    q: string,
    limit: number,
    timeoutMs: number,
    dbName: string,
    budget: QueryBudget,
    rawRows = false,
  ): EngineQueryResult {
    // The deadline covers all the query's work, reading a diff for its pages included.
    const run: QueryRun = { db, dbName, limit, timeoutMs, budget, deadline: Date.now() + timeoutMs, rawRows };
    const t = translateQuery(q);
    if (t.kind === 'invalid') return { columns: [], rows: [], status: 'error', message: t.message };
    const keep = t.kind === 'sql';
    let conn: Sqlite3Db;
    try {
      conn = keep
        ? this.pool.get(db.key, db.version, this.memPath(db.key), revisionSuffix(ref), () => this.openKept(db, ref))
        : this.openAt(db, ref, 'r');
    } catch (e) {
      // Opening at a branch, tag or commit that does not exist: the server answers 404.
      return { columns: [], rows: [], status: 'error', message: engineMessage(e), ref_not_found: true } as QueryResult;
    }
    const first = this.answer(conn, keep, t, run);
    if (first.status !== 'error' || !needsSnapshot(first.message)) return first;
    const hex = this.detachedHead(db, ref);
    if (hex === undefined) return first;
    let snap: Sqlite3Db;
    try {
      const source = { memPath: this.memPath(db.key), version: db.version, bytes: () => fileBytes(db.path) };
      const open = (): Sqlite3Db => this.withCache(this.snapshots.open(hex, source), db);
      snap = keep ? this.pool.get(db.key, db.version, CommitSnapshots.scratchPath(source.memPath), hex, open) : open();
    } catch (e) {
      return { columns: [], rows: [], status: 'error', message: engineMessage(e) };
    }
    return this.answer(snap, keep, t, run);
  }

  /** A connection to keep at `ref`: read-only, with a page cache that can hold the database. */
  private openKept(db: DbFile, ref: Revision): Sqlite3Db {
    return this.withCache(this.openAt(db, ref, 'r'), db);
  }

  private withCache(conn: Sqlite3Db, db: DbFile): Sqlite3Db {
    const kib = Math.ceil(cacheBytesFor(this.loaded.get(db.key)?.bytes ?? 0) / 1024);
    conn.exec(`PRAGMA cache_size = -${kib}`);
    return conn;
  }

  /** The commit `ref` names when a connection there is detached (a commit or tag), else undefined. */
  private detachedHead(db: DbFile, ref: Revision): string | undefined {
    if ('branch' in ref) return undefined;
    const conn = this.openAt(db, ref, 'r');
    try {
      if (conn.selectValue('SELECT active_branch()') !== null) return undefined;
      const hex = String(conn.selectValue(`SELECT dolt_hashof('HEAD')`));
      return /^[0-9a-f]{40}$/.test(hex) ? hex : undefined;
    } finally {
      conn.close();
    }
  }

  /** Runs the caller's query on `conn` under the read-only guard; closes `conn` unless it is kept. */
  private answer(conn: Sqlite3Db, kept: boolean, t: Exclude<TranslatedQuery, { kind: 'invalid' }>, run: QueryRun): EngineQueryResult {
    sortsInHeap(conn, cacheBytesFor(this.loaded.get(run.db.key)?.bytes ?? 0), run.budget.memoryBytes);
    // Every statement on this connection is the caller's or built from the caller's input.
    const at: Answering = { conn, guard: new ReadOnlyGuard(this.sqlite3.capi, conn.pointer) };
    let failed = true;
    this.pool.use(conn);
    try {
      this.sqlite3.capi.sqlite3_limit(conn.pointer, SQLITE_LIMIT_LENGTH, run.budget.maxValueBytes);
      conn.createFunction('now', () => mysqlNow(), { arity: 0 });
      conn.createFunction('database', () => run.dbName, { arity: 0 });
      const result = this.memory.within(this.queryRoom(run), () => this.statement(at, t, run));
      failed = false;
      return result;
    } catch (e) {
      if (!isOutOfMemory(e)) throw e;
      // Out of memory outside the select's steps (translating, preparing a description): the
      // connection is discarded below like any that threw.
      return { columns: [], rows: [], status: 'error', message: queryMemoryMessage(run.budget.memoryBytes) };
    } finally {
      at.guard.remove();
      // A kept connection where the query threw (not answered an error) is not trusted again;
      // one kept carries no deadline of this query into the next.
      if (!kept) at.conn.close();
      else if (failed) this.pool.discard(at.conn);
      else this.sqlite3.capi.sqlite3_progress_handler(at.conn.pointer, 0, 0, 0);
      this.pool.use(undefined);
    }
  }

  /**
   * What a caller's query may grow SQLite's heap by: its budget, plus room for the page caches of
   * the connection it reads and of one more it may open (a Dolt form reading another revision or
   * a commit's scratch copy), each of which may still fill up to the file it reads.
   */
  private queryRoom(run: QueryRun): number {
    const file = this.loaded.get(run.db.key)?.bytes ?? 0;
    return run.budget.memoryBytes + 2 * Math.min(cacheBytesFor(file), Math.ceil(file * 1.25) + CACHE_SLACK_BYTES);
  }

  /** The caller's statement translated and run; an error answer when it cannot be. */
  private statement(at: Answering, t: Exclude<TranslatedQuery, { kind: 'invalid' }>, run: QueryRun): EngineQueryResult {
    const st = callerStatement(t, at, {
      sqlite3: this.sqlite3,
      dbName: run.dbName,
      memPath: this.memPath(run.db.key),
      fileBytes: () => fileBytes(run.db.path),
      diffPages: { cache: this.diffCopies, dbKey: run.db.key, deadline: run.deadline, callerGone, lease: (c) => this.pool.lend(c) },
    });
    if ('error' in st) return { columns: [], rows: [], status: st.status ?? 'error', message: st.error };
    return runSelect(this.sqlite3, at.conn, at.guard, st.sql, run.limit, run.timeoutMs, run.budget, st.fixedTypes, {
      deadline: run.deadline,
      callerGone,
      grownOutsideHeap: this.memory.outsideHeapMeter(),
      ...(st.describeSql !== undefined ? { describeSql: st.describeSql } : {}),
      ...(st.direct ? { direct: st.direct, rawRows: run.rawRows } : {}),
    });
  }

  read(db: DbFile, what: 'branches' | 'tags' | 'commit', ref?: Revision): BranchRow[] | TagRow[] | { hashHex: string | null } {
    if (what === 'commit') {
      if (!ref) throw new Error('ref required');
      return { hashHex: this.revisionHex(db, ref) };
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
    // Connections kept at the version being written are not used again.
    this.pool.closeDatabase(db.key);
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
      const result = await applyScript(conn, author, script, {
        sqlite3: this.sqlite3,
        revisionHex: (rev) => this.revisionHex(db, rev),
        loadFork: (fork) => this.ensure(fork),
      });
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
    this.loaded.set(db.key, { version: nextVersion, bytes: bytes.length });
    return { ok: true, sizeBytes: statSync(db.path).size };
  }

  /** The commit a revision names, or null when it does not exist. */
  private revisionHex(db: DbFile, rev: Revision): string | null {
    let conn: Sqlite3Db;
    try {
      conn = this.openAt(db, rev, 'r');
    } catch {
      return null;
    }
    try {
      return String(conn.selectValue(`SELECT dolt_hashof('HEAD')`));
    } catch {
      return null;
    } finally {
      conn.close();
    }
  }
}

/** One query's settings, as the worker was asked. */
interface QueryRun {
  db: DbFile;
  dbName: string;
  limit: number;
  timeoutMs: number;
  budget: QueryBudget;
  deadline: number;
  /** The rows of a page served from a copy may come as one JSON text. */
  rawRows: boolean;
}

/** How a connection at `rev` is opened: `file@branch`, `file@commit`, `file@tag`; the default branch bare. */
function revisionSuffix(rev: Revision | undefined): string {
  return rev === undefined ? '' : '@' + ('branch' in rev ? rev.branch : 'commitHex' in rev ? rev.commitHex : rev.ref);
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
  const idle = new IdleReads(core);
  port.on('message', (msg: { id: number; req: EngineRequest }) => {
    idle.requestArrived();
    chain = chain.then(async () => {
      let resp: EngineResponse;
      try {
        resp = { id: msg.id, ok: true, value: (await core.handle(msg.req)) as never };
      } catch (e) {
        resp = { id: msg.id, ok: false, message: engineMessage(e) };
      }
      resp.memoryBytes = core.memoryBytes();
      resp.dataBytes = core.dataBytes();
      port.postMessage(resp);
      idle.requestDone();
    });
  });
  port.postMessage({ ready: true });
}
