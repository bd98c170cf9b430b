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
import type { Sqlite3Db } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';

interface Kept {
  dbKey: string;
  /** The file in the worker's memory the connection is open on (the database or its scratch copy). */
  path: string;
  version: number;
  conn: Sqlite3Db;
}

export class ConnectionPool {
  /** Insertion order is recency: the first entry is the least recently used. */
  private readonly kept = new Map<string, Kept>();

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
    this.kept.set(id, { dbKey, path, version, conn });
    while (this.kept.size > this.max) {
      const [oldest, k] = this.kept.entries().next().value as [string, Kept];
      this.kept.delete(oldest);
      k.conn.close();
    }
    return conn;
  }

  /** Forgets and closes a connection that failed in a way that may have left it unusable. */
  discard(conn: Sqlite3Db): void {
    for (const [id, k] of this.kept) {
      if (k.conn !== conn) continue;
      this.kept.delete(id);
      conn.close();
      return;
    }
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
    for (const [id, k] of [...this.kept]) {
      if (!test(k)) continue;
      this.kept.delete(id);
      k.conn.close();
    }
  }

  get size(): number {
    return this.kept.size;
  }
}
