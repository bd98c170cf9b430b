// Read-only connections an engine worker keeps open between queries, so a run of pages at the same
// revision (an export, the table browser's scrolling) reads through a warm page cache instead of
// opening a cold connection per page. A connection is kept under the database version it was
// opened at: a version change (a write anywhere) closes every connection of that database before
// the worker replaces its copy of the file, and a connection is never reused across versions. At
// most `max` connections are kept; the least recently used is closed first.
//
// A kept connection carries no caller state from one query to the next: the SQL endpoint's guard
// (readOnlyGuard.ts) refuses everything that would change it (writes, temp tables, ATTACH,
// pragmas that set), and the guard, the progress handler and the statements are removed at the
// end of each query (engineWorker.ts, selectRunner.ts).
//
// A kept connection can be lent to a copy of a diff read page by page (diffCopyStream.ts): while
// lent it is not handed out (another connection is opened at its revision if asked for), not
// counted or closed as least recently used, but still closed with its database, after telling the
// borrower. Given back, it is kept again: its page cache holds what the copy read (both commits'
// trees), which the next query there reads again, so it replaces a connection opened meanwhile
// (once that one's query, if one is running on it, is over: `use`).
import type { Sqlite3Db } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import type { CopyLease } from './doltSql/diffCopyStream';

interface Kept {
  id: string;
  dbKey: string;
  /** The file in the worker's memory the connection is open on (the database or its scratch copy). */
  path: string;
  version: number;
  conn: Sqlite3Db;
  /** While lent: told before the pool closes the connection. */
  onClose?: () => void;
}

export class ConnectionPool {
  /** Insertion order is recency: the first entry is the least recently used. */
  private readonly kept = new Map<string, Kept>();
  /** Connections lent out (diffCopyStream.ts). */
  private readonly lent = new Set<Kept>();
  /** Given back while the connection they replace runs a query: kept when it ends. */
  private readonly returned = new Set<Kept>();
  /** The connection of the query running now, if it is one of ours. */
  private inUse: Sqlite3Db | undefined;

  constructor(private readonly max = 4) {}

  /**
   * The connection kept for `path@at` (`at` a revision as the worker opens it) of `dbKey` at
   * `version`, or a new one from `open`, kept from now on. Callers must not close it.
   */
  get(dbKey: string, version: number, path: string, at: string, open: () => Sqlite3Db): Sqlite3Db {
    const id = `${version}\u0000${path}@${at}`;
    const hit = this.kept.get(id);
    if (hit) {
      this.kept.delete(id);
      this.kept.set(id, hit);
      return hit.conn;
    }
    const conn = open();
    this.keep({ id, dbKey, path, version, conn });
    return conn;
  }

  private keep(k: Kept): void {
    this.kept.set(k.id, k);
    while (this.kept.size > this.max) {
      const [oldest, old] = this.kept.entries().next().value as [string, Kept];
      this.kept.delete(oldest);
      old.conn.close();
    }
  }

  /** Lends a kept connection (not handed out until given back); undefined when it is not kept here. */
  lend(conn: Sqlite3Db): CopyLease | undefined {
    const k = [...this.kept.values()].find((x) => x.conn === conn);
    if (!k) return undefined;
    this.kept.delete(k.id);
    this.lent.add(k);
    return {
      release: () => {
        if (!this.lent.delete(k)) return;
        delete k.onClose;
        if (this.kept.get(k.id)?.conn === this.inUse && this.inUse !== undefined) this.returned.add(k);
        else this.keepInstead(k);
      },
      onClose: (cb) => {
        k.onClose = cb;
      },
    };
  }

  /** Keeps `k`, closing a connection kept at its revision meanwhile. */
  private keepInstead(k: Kept): void {
    const other = this.kept.get(k.id);
    if (other) this.close(other);
    this.keep(k);
  }

  /** The connection a query runs on from now (undefined: the query ended; connections given back meanwhile are kept). */
  use(conn: Sqlite3Db | undefined): void {
    this.inUse = conn;
    if (conn !== undefined) return;
    for (const k of [...this.returned]) {
      this.returned.delete(k);
      this.keepInstead(k);
    }
  }

  /** Forgets and closes a connection that failed in a way that may have left it unusable. */
  discard(conn: Sqlite3Db): void {
    for (const k of this.all()) if (k.conn === conn) this.close(k);
  }

  private all(): Kept[] {
    return [...this.kept.values(), ...this.lent, ...this.returned];
  }

  /** Closes every connection of `dbKey`, its scratch copies' too (its file is about to be replaced or written). */
  closeDatabase(dbKey: string): void {
    this.closeWhere((k) => k.dbKey === dbKey);
  }

  /** Closes every connection open on the file at `path` (it is about to be replaced or emptied). */
  closeFile(path: string): void {
    this.closeWhere((k) => k.path === path);
  }

  private closeWhere(test: (k: Kept) => boolean): void {
    for (const k of this.all()) if (test(k)) this.close(k);
  }

  private close(k: Kept): void {
    if (this.lent.delete(k)) k.onClose?.();
    else if (!this.returned.delete(k)) this.kept.delete(k.id);
    k.conn.close();
  }

  /** Connections open: kept, lent and given back. */
  get size(): number {
    return this.kept.size + this.lent.size + this.returned.size;
  }
}
