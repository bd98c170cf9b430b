// What an engine worker (engineWorker.ts) does between requests: reads on the copies of diffs
// whose pages are being read (src/hub/doltSql/diffCopyStream.ts).
/**
 * Between requests, the worker reads on the copies of diffs their pages are reading, a slice of
 * IDLE_SLICE_MS at a time, so a request that arrives waits for one slice at most.
 */
export class IdleReads {
  private pending = 0;
  private scheduled = false;

  constructor(private readonly core: { backgroundRead(ms: number): boolean }) {}

  requestArrived(): void {
    this.pending++;
  }

  requestDone(): void {
    this.pending--;
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.pending > 0) return;
    this.scheduled = true;
    // setImmediate: messages that came meanwhile are delivered before the slice runs.
    setImmediate(() => {
      this.scheduled = false;
      if (this.pending === 0 && this.core.backgroundRead(IDLE_SLICE_MS)) this.schedule();
    });
  }
}

const IDLE_SLICE_MS = 8;
