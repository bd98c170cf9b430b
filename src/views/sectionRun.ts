// What the pull view's computed sections (the merge preview, Checks) share: one run at a time for
// the pull as last read, started after the pull renders; a newer read (or clear) drops an older
// run's answer and aborts it; a run that fails says why in the section.

/** A section's state while it runs, when it failed, or its answer (`{ kind: 'done', … }`). */
export type SectionState<Done extends { kind: 'done' }> = { kind: 'checking' } | { kind: 'failed'; message: string } | Done;

export class SectionRun<Done extends { kind: 'done' }> {
  state: SectionState<Done> | undefined;
  private generation = 0;
  private abort: AbortController | undefined;
  /** Resolves when the run last started has finished (for tests). */
  settled: Promise<void> = Promise.resolve();

  constructor(private readonly onChange: () => void) {}

  /** Starts `compute`, dropping any run under way; its answer (or failure) replaces the state unless a newer run began. */
  start(compute: (signal: AbortSignal) => Promise<Done>): void {
    this.abort?.abort();
    const generation = ++this.generation;
    const abort = (this.abort = new AbortController());
    this.state = { kind: 'checking' };
    this.settled = (async () => {
      let next: SectionState<Done>;
      try {
        next = await compute(abort.signal);
      } catch (e) {
        if (abort.signal.aborted) return;
        next = { kind: 'failed', message: e instanceof Error ? e.message : String(e) };
      }
      if (generation !== this.generation || abort.signal.aborted) return;
      this.state = next;
      this.onChange();
    })();
  }

  /** No section (a pull that is not open, or could not be read), and any run under way dropped. */
  clear(): void {
    this.generation++;
    this.abort?.abort();
    this.state = undefined;
  }
}
