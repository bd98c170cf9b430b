// The sampled key boundaries of one view of a table at one commit (src/core/sql/keySamples.ts),
// read in chunks in the background so the user's own reads wait at most one chunk behind it (the
// hub runs one query per user at a time): a whole sample costs about one pass over the table
// (5.9 s at 1M rows on the hub, measured in one query), a chunk a fraction of that. A far jump
// uses the boundaries read so far and waits for more only while its nearest one is far away.
import type { Cell } from '../../shared/wire';
import type { SqlRunner } from '../sql/sqlPort';
import type { TableView } from '../sql/tableQuery';
import { orderColumns } from '../sql/tableQuery';
import { boundariesOf, boundaryBefore, buildSampleQuery, sampleInterval } from '../sql/keySamples';

/** Boundaries per query: 10 × N rows (20,000 at 1M rows), about 0.1–0.2 s of the hub's time. */
export const SAMPLE_CHUNK = 10;

export class KeySampler {
  readonly every: number;
  readonly expected: number;
  private readonly keys: Cell[][] = [];
  private done = false;
  private readonly stopping = new AbortController();
  private wake: () => void = () => undefined;
  private next: Promise<void>;

  constructor(
    private readonly view: TableView,
    private readonly run: SqlRunner,
    total: number,
    pageSize: number,
    target: number,
    private readonly onQuery: () => void = () => undefined,
  ) {
    this.every = sampleInterval(total, pageSize, target);
    this.expected = Math.floor(total / this.every);
    this.next = this.nextChunk();
    this.settled = this.fill();
  }

  /** Resolves when the sample is whole or will grow no more (tests). */
  readonly settled: Promise<void>;

  /**
   * Stops reading: the chunk in flight is aborted and no other starts (its view is no longer shown,
   * or its panel closed). Jumps keep the boundaries read so far.
   */
  stop(): void {
    this.stopping.abort();
  }

  /** Boundaries read so far (tests). */
  get read(): number {
    return this.keys.length;
  }

  /**
   * The nearest boundary before `start`, waiting for chunks while the nearest one read so far
   * would leave `enough` rows or more to skip, more are coming, and the rows the sample still has
   * to pass to reach `start` are fewer than `otherwise` (what the read skips without it: past
   * that, stepping over them by OFFSET is sooner than waiting). Rejects when `signal` aborts.
   */
  async before(
    start: number,
    enough: number,
    otherwise: number,
    signal: AbortSignal,
  ): Promise<{ index: number; key: readonly Cell[] } | undefined> {
    for (;;) {
      const b = boundaryBefore(this.keys, this.every, start);
      const skip = b ? start - b.index - 1 : start;
      const toGo = start - this.keys.length * this.every;
      if (this.done || skip < enough || toGo <= 0 || toGo >= otherwise) return b;
      await untilAborted(this.next, signal);
    }
  }

  private nextChunk(): Promise<void> {
    return new Promise<void>((resolve) => (this.wake = resolve));
  }

  /** Reads chunk after chunk; a failure or an answer of the wrong size ends it (jumps keep what was read). */
  private async fill(): Promise<void> {
    const width = orderColumns(this.view).length;
    try {
      while (this.keys.length < this.expected && !this.stopping.signal.aborted) {
        const count = Math.min(SAMPLE_CHUNK, this.expected - this.keys.length);
        const after = this.keys[this.keys.length - 1];
        this.onQuery();
        const r = await this.run(buildSampleQuery(this.view, this.every, count, after), {
          limit: count + 1,
          signal: this.stopping.signal,
        });
        const keys = r.status === 'success' && r.rows.length === count ? boundariesOf(r.rows, width) : undefined;
        if (!keys) break;
        this.keys.push(...keys);
        this.wake();
        this.next = this.nextChunk();
      }
    } catch {
      // Not read (or stopped): jumps go on with the boundaries read so far, the rest by OFFSET.
    }
    this.done = true;
    this.wake();
  }
}

/** `p`, or the signal's reason as soon as it aborts (`p` goes on for whoever else awaits it). */
export function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e as Error);
      },
    );
  });
}
