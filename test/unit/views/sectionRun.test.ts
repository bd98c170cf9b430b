// The pull view's computed sections share SectionRun: the last run's answer wins, an older one is
// dropped (and aborted), a failure says why, clear leaves no section.
import { strict as assert } from 'node:assert';
import { SectionRun } from '../../../src/views/sectionRun';

type Done = { kind: 'done'; value: number };

function deferred<T>(): { promise: Promise<T>; resolve(v: T): void; reject(e: unknown): void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('SectionRun', () => {
  it('shows checking, then the answer, and says so once', async () => {
    let changes = 0;
    const run = new SectionRun<Done>(() => changes++);
    run.start(async () => ({ kind: 'done', value: 1 }));
    assert.deepEqual(run.state, { kind: 'checking' });
    await run.settled;
    assert.deepEqual(run.state, { kind: 'done', value: 1 });
    assert.equal(changes, 1);
  });

  it('a newer run wins: the older one is aborted and its late answer dropped', async () => {
    const run = new SectionRun<Done>(() => undefined);
    const first = deferred<Done>();
    let firstSignal: AbortSignal | undefined;
    run.start((signal) => ((firstSignal = signal), first.promise));
    const older = run.settled;
    run.start(async () => ({ kind: 'done', value: 2 }));
    assert.equal(firstSignal?.aborted, true);
    first.resolve({ kind: 'done', value: 1 });
    await older;
    await run.settled;
    assert.deepEqual(run.state, { kind: 'done', value: 2 });
  });

  it('a failure is the section with its message; clear leaves none', async () => {
    const run = new SectionRun<Done>(() => undefined);
    run.start(async () => {
      throw new Error('the server said no');
    });
    await run.settled;
    assert.deepEqual(run.state, { kind: 'failed', message: 'the server said no' });
    const pending = deferred<Done>();
    run.start(() => pending.promise);
    run.clear();
    pending.resolve({ kind: 'done', value: 3 });
    await run.settled;
    assert.equal(run.state, undefined);
  });
});
