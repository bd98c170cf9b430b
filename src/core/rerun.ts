// A task run on demand whose calls while it runs share one more run after the running one: that
// run may have started before the caller's change (a comment posted, a branch moved), so joining
// it alone would answer from before the change, and a burst of calls still costs two runs at most.
// Used for the pull view's reload, its and the table browser's "did the branch move" checks, the
// Changes view's comment marks, and the table browser's check of new keys while editing. No vscode.

export class Rerun {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly task: () => Promise<void>,
    /** No further run once this says so (the view is gone). */
    private readonly stopped: () => boolean = () => false,
  ) {}

  /** Runs the task, or asks the running one for one more run; resolves when no run is due. */
  run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.task();
      } while (this.again && !this.stopped());
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }
}
