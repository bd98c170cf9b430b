// A copy of a diff read as its pages need it, instead of whole before its first page (issue #28):
// the copy's statement is read sorted (SQLite's sort puts every row in its final place before the
// first comes out), so the rows read so far are the diff's first rows and a page among them is
// answered at once; a page past them reads on until it is there. Between queries the worker reads
// on by itself (engineWorker.ts, `backgroundRead`), so an export's next pages find their rows
// read while the extension was busy with the last one: its pages and the copy overlap.
//
// The statement stays open between queries, on a connection lent to it by the worker's pool
// (connectionPool.ts): no other query uses that connection meanwhile (SQLite refuses to redefine a
// function on a connection with a statement running), and the pool closes it under the copy when
// the database changes, which ends the copy (its rows read so far were served; later pages start
// a new one). The statement ends at the request's deadline, at the copies' budget or on an error:
// the rows read stay correct for the pages they served, and later pages read the diff as written.
import type { Sqlite3, Sqlite3Db } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import { CopyRead, type CopyReadState, type DiffCopy, type DiffCopyRequest } from './diffCopyRead';

/** A connection lent to a copy being read: nobody else uses it until it is given back. */
export interface CopyLease {
  /** Gives the connection back to its pool (the copy is read, or given up). */
  release(): void;
  /** `cb` runs when the pool closes the connection while it is lent (its database changed). */
  onClose(cb: () => void): void;
}

/** How a copy being read ended: read whole (`copy`), or stopped. */
export type StreamEnd = { state: 'done'; copy: DiffCopy } | { state: Exclude<CopyReadState, 'more' | 'done'> };

export class StreamingCopy {
  private ended = false;

  private constructor(
    private readonly read: CopyRead,
    private readonly lease: CopyLease,
    private readonly onEnd: (end: StreamEnd) => void,
  ) {
    lease.onClose(() => {
      // Closed under it: the statement goes first (the pool closes the connection next).
      this.read.close();
      this.settle('failed', false);
    });
  }

  /** Starts reading `req`'s copy sorted on the lent connection; undefined when its statement cannot run. */
  static start(
    sqlite3: Sqlite3,
    conn: Sqlite3Db,
    req: DiffCopyRequest,
    budget: number,
    lease: CopyLease,
    onEnd: (end: StreamEnd) => void,
  ): StreamingCopy | undefined {
    const read = CopyRead.open(sqlite3, conn, req, req.sql, budget, 'sorted');
    return read ? new StreamingCopy(read, lease, onEnd) : undefined;
  }

  /** The rows read so far. */
  view(): DiffCopy {
    return this.read.view();
  }

  get bytes(): number {
    return this.read.bytes;
  }

  /** Reads until there are `rows` rows or the diff ends; false when no more can be read. */
  more(rows: number): boolean {
    const state = this.read.readTo(rows, Infinity);
    this.settle(state, true);
    return state === 'more' || state === 'done';
  }

  /** Reads on for about `ms` milliseconds. */
  readFor(ms: number): void {
    this.settle(this.read.readTo(Infinity, Date.now() + ms), true);
  }

  /** Stops reading (the rows read stay readable for the pages that have them). */
  abandon(): void {
    this.read.close();
    this.settle('failed', true);
  }

  private settle(state: CopyReadState, giveBack: boolean): void {
    if (state === 'more' || this.ended) return;
    this.ended = true;
    if (giveBack) this.lease.release();
    this.onEnd(state === 'done' ? { state, copy: this.read.view() } : { state });
  }
}
