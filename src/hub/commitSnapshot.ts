// Reading at a commit or tag (not a branch) on a connection that can sort.
//
// DoltLite opens `file@<commit>` and `file@<tag>` detached, and a detached connection refuses
// every write to its store, including the transient tables the engine builds for itself while
// answering a read: ORDER BY … LIMIT, DISTINCT, GROUP BY on an unindexed column, IN (subquery)
// all fail there with "attempt to write a readonly database" (checked on doltlite-wasm 0.50.12;
// temp_store and the open mode make no difference, a connection at a branch works). So a read at
// a detached revision runs on a connection opened at a branch made for it: in a scratch copy of
// the database file that only this module writes, a branch is created at the commit, a read-only
// connection is opened at it, and the branch is deleted again before the caller's SQL runs (the
// open connection keeps its root). The caller's connection is then guarded like any other
// (authorizer + sqlite3_stmt_readonly), and the database file the hub serves is never touched.
import type { Sqlite3, Sqlite3Db } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';

const SNAPSHOT_BRANCH = 'hub-snapshot-at';

export class CommitSnapshots {
  /** Scratch copy path → the database version it was copied from. */
  private readonly copied = new Map<string, number>();

  constructor(private readonly sqlite3: Sqlite3) {}

  /**
   * `detached` is a read-only connection opened at a commit or tag (it proved the revision
   * exists). Returns a connection at the same commit that can sort, and closes `detached`; returns
   * `detached` itself when it is at a branch.
   */
  reopen(detached: Sqlite3Db, source: { memPath: string; version: number; bytes: () => Uint8Array }): Sqlite3Db {
    if (detached.selectValue('SELECT active_branch()') !== null) return detached;
    const hex = String(detached.selectValue(`SELECT dolt_hashof('HEAD')`));
    if (!/^[0-9a-f]{40}$/.test(hex)) return detached;
    const scratch = source.memPath.replace(/\.db$/, '') + '~snapshot.db';
    if (this.copied.get(scratch) !== source.version) {
      this.sqlite3.capi.sqlite3_js_posix_create_file(scratch, source.bytes());
      this.copied.set(scratch, source.version);
    }
    const writer = new this.sqlite3.oo1.DB(scratch, 'c');
    let at: Sqlite3Db | undefined;
    try {
      if (writer.selectValue('SELECT count(*) FROM dolt_branches WHERE name = ?', [SNAPSHOT_BRANCH]) !== 0) {
        writer.selectValue(`SELECT dolt_branch('-D', '${SNAPSHOT_BRANCH}')`);
      }
      writer.selectValue(`SELECT dolt_branch('${SNAPSHOT_BRANCH}', '${hex}')`);
      at = new this.sqlite3.oo1.DB(`${scratch}@${SNAPSHOT_BRANCH}`, 'r');
      writer.selectValue(`SELECT dolt_branch('-D', '${SNAPSHOT_BRANCH}')`);
      if (String(at.selectValue(`SELECT dolt_hashof('HEAD')`)) !== hex)
        throw new Error(`commit snapshot: opened at the wrong commit (wanted ${hex})`);
    } catch (e) {
      at?.close();
      // A scratch copy in an unknown state is copied afresh next time.
      this.copied.delete(scratch);
      throw e;
    } finally {
      writer.close();
    }
    // At a detached revision Dolt has no active branch; the scratch branch is the hub's own.
    at.createFunction('active_branch', () => null, { arity: 0 });
    detached.close();
    return at;
  }
}
