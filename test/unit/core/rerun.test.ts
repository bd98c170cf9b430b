// Rerun (src/core/rerun.ts): a call while the task runs gets one more run after it, never a join of
// a run that may have started before the caller's change; a burst costs two runs; none after stop.
import { strict as assert } from 'node:assert';
import { Rerun } from '../../../src/core/rerun';

describe('Rerun', () => {
  it('runs once more for calls made while it runs, and the callers see the later state', async () => {
    let state = 0;
    const seen: number[] = [];
    let release: () => void = () => undefined;
    let gate: Promise<void> | undefined = new Promise((r) => (release = r));
    const rerun = new Rerun(async () => {
      const read = state;
      await gate;
      seen.push(read);
    });
    const first = rerun.run();
    state = 1; // changed after the running task read it
    const burst = [rerun.run(), rerun.run(), rerun.run()];
    gate = undefined;
    release();
    await Promise.all([first, ...burst]);
    assert.deepEqual(seen, [0, 1], 'one run before the change, one after it; the burst of three adds one');
    await rerun.run();
    assert.deepEqual(seen, [0, 1, 1], 'idle again: a call runs at once');
  });

  it('runs no more once stopped', async () => {
    let runs = 0;
    let stopped = false;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const rerun = new Rerun(
      async () => {
        runs++;
        await gate;
      },
      () => stopped,
    );
    const first = rerun.run();
    const second = rerun.run();
    stopped = true;
    release();
    await Promise.all([first, second]);
    assert.equal(runs, 1);
  });
});
