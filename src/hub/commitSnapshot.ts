// Reading at a commit or tag (not a branch) on a connection that can sort.
//
// DoltLite opens `file@<commit>` and `file@<tag>` detached, and a detached connection refuses
// every write to its store, including the transient tables the engine builds for itself while
// answering a read: ORDER BY … LIMIT, DISTINCT, GROUP BY on an unindexed column, IN (subquery)
// all fail there with "attempt to write a readonly database" (checked on doltlite-wasm 0.50.12;
// temp_store and the open mode make no difference, a connection at a branch works). Most reads
// (a table's pages by key, a plain scan, a count) need no such table, so the worker runs a read
// at a commit on the detached connection first and comes here only when it failed that way
// (`needsSnapshot`).
//
// Here such a read gets a connection opened at a branch made for its commit, in a scratch copy
// of the database file that only this module writes: the copy is made once per database version
// (at most `maxCopies` databases have one; the least recently used copy is emptied), a branch is
// created at the commit, a read-only connection is opened at it, and the branch is deleted again
// before the caller's SQL runs (the open connection keeps its root), so the caller never sees the
// hub's branch in dolt_branches. The worker keeps such a connection for the next reads at the
// same commit (connectionPool.ts), which bounds how many there are. The caller's connection is
// then guarded like any other (authorizer + sqlite3_stmt_readonly); the database file the hub
// serves is never touched.
import type { Sqlite3, Sqlite3Db } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import { loadMemFile } from './queryMemory';

const SNAPSHOT_BRANCH = 'hub-snapshot-at';

/** The message DoltLite gives a detached connection that had to write a transient table. */
const READONLY = /attempt to write a readonly database/;

/** Whether a read that failed with `message` on a detached connection would work on a snapshot. */
export function needsSnapshot(message: string | undefined): boolean {
  return message !== undefined && READONLY.test(message);
}

/** The database a snapshot is taken from: its path in the worker, its version, its bytes on disk. */
export interface SnapshotSource {
  memPath: string;
  version: number;
  bytes: () => Uint8Array;
}

interface ScratchCopy {
  version: number;
  bytes: number;
}

export class CommitSnapshots {
  /** Scratch copy path → what it holds; insertion order is recency. */
  private readonly copies = new Map<string, ScratchCopy>();

  constructor(
    private readonly sqlite3: Sqlite3,
    /** Called before a scratch copy is replaced or emptied: connections open on it must close. */
    private readonly onDrop: (scratch: string) => void = () => undefined,
    private readonly maxCopies = 2,
  ) {}

  /** The path of the scratch copy of the database at `memPath`. */
  static scratchPath(memPath: string): string {
    return memPath.replace(/\.db$/, '') + '~snapshot.db';
  }

  /** Bytes of every scratch copy this worker holds. */
  get bytes(): number {
    let n = 0;
    for (const c of this.copies.values()) n += c.bytes;
    return n;
  }

  /**
   * A read-only connection at commit `hex` (40 hex digits) that can sort. The caller closes it,
   * or keeps it while the source's version stands (connectionPool.ts).
   */
  open(hex: string, source: SnapshotSource): Sqlite3Db {
    if (!/^[0-9a-f]{40}$/.test(hex)) throw new Error(`commit snapshot: not a commit hash: ${hex}`);
    const scratch = CommitSnapshots.scratchPath(source.memPath);
    this.copyOf(scratch, source);
    const writer = new this.sqlite3.oo1.DB(scratch, 'c');
    let at: Sqlite3Db | undefined;
    try {
      if (writer.selectValue('SELECT count(*) FROM dolt_branches WHERE name = ?', [SNAPSHOT_BRANCH]) !== 0) {
        writer.selectValue(`SELECT dolt_branch('-D', ?)`, [SNAPSHOT_BRANCH]);
      }
      writer.selectValue(`SELECT dolt_branch(?, ?)`, [SNAPSHOT_BRANCH, hex]);
      at = new this.sqlite3.oo1.DB(`${scratch}@${SNAPSHOT_BRANCH}`, 'r');
      writer.selectValue(`SELECT dolt_branch('-D', ?)`, [SNAPSHOT_BRANCH]);
      if (String(at.selectValue(`SELECT dolt_hashof('HEAD')`)) !== hex)
        throw new Error(`commit snapshot: opened at the wrong commit (wanted ${hex})`);
    } catch (e) {
      at?.close();
      // A scratch copy in an unknown state is copied afresh next time.
      this.copies.delete(scratch);
      throw e;
    } finally {
      writer.close();
    }
    // At a detached revision Dolt has no active branch; the scratch branch is the hub's own.
    at.createFunction('active_branch', () => null, { arity: 0 });
    return at;
  }

  /** The scratch copy of `source` at its version, made now if it is missing or older. */
  private copyOf(scratch: string, source: SnapshotSource): ScratchCopy {
    let copy = this.copies.get(scratch);
    if (copy?.version !== source.version) {
      const bytes = source.bytes();
      this.onDrop(scratch);
      loadMemFile(this.sqlite3, scratch, bytes);
      copy = { version: source.version, bytes: bytes.length };
    }
    this.copies.delete(scratch);
    this.copies.set(scratch, copy);
    while (this.copies.size > this.maxCopies) {
      const [oldest] = this.copies.keys();
      this.copies.delete(oldest as string);
      this.onDrop(oldest as string);
      loadMemFile(this.sqlite3, oldest as string, new Uint8Array(0));
    }
    return copy;
  }
}
