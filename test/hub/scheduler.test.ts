// The query lane's scheduler without a server: round-robin per caller, per-caller running caps,
// and the shared cap of heavy callers (callers whose last query ran long, issue 26).
import assert from 'node:assert/strict';
import { FairQueue } from '../../src/hub/scheduler';

interface J {
  caller: string;
  n: number;
}

const limits = { maxRunningPerCaller: 1, maxQueuedPerCaller: 8, maxQueued: 64, maxRunningHeavy: 1, heavyMs: 1000 };

/** Runs one job of `caller` to its end after `ranMs`, so the queue remembers how long it ran. */
function runOnce(q: FairQueue<J>, caller: string, ranMs: number): void {
  assert.ok(q.push({ caller, n: 0 }));
  const j = q.take();
  assert.equal(j?.caller, caller);
  q.done(j!, ranMs);
}

describe('FairQueue', () => {
  it('serves callers round-robin and holds each to its running cap', () => {
    const q = new FairQueue<J>({ maxRunningPerCaller: 1, maxQueuedPerCaller: 8, maxQueued: 64 });
    for (const [caller, n] of [
      ['a', 1],
      ['a', 2],
      ['b', 1],
    ] as const)
      q.push({ caller, n });
    const first = q.take();
    const second = q.take();
    assert.deepEqual([first?.caller, first?.n, second?.caller], ['a', 1, 'b']);
    assert.equal(q.take(), undefined, "a's second job waits for its first");
    q.done(first!);
    assert.deepEqual(q.take(), { caller: 'a', n: 2 });
  });

  it('refuses past the per-caller and the lane queue limits', () => {
    const q = new FairQueue<J>({ maxRunningPerCaller: 1, maxQueuedPerCaller: 2, maxQueued: 3 });
    assert.equal(q.push({ caller: 'a', n: 1 }), true);
    assert.equal(q.push({ caller: 'a', n: 2 }), true);
    assert.equal(q.push({ caller: 'a', n: 3 }), false);
    assert.equal(q.push({ caller: 'b', n: 1 }), true);
    assert.equal(q.push({ caller: 'c', n: 1 }), false);
  });

  it('marks a caller heavy after a long run and light again after a short one', () => {
    const q = new FairQueue<J>(limits);
    runOnce(q, 'a', 500);
    assert.equal(q.isHeavy('a'), false);
    runOnce(q, 'a', 3000);
    assert.equal(q.isHeavy('a'), true);
    // A cancelled or killed job (no run time) says nothing new about its caller.
    assert.ok(q.push({ caller: 'a', n: 1 }));
    q.done(q.take()!);
    assert.equal(q.isHeavy('a'), true);
    runOnce(q, 'a', 20);
    assert.equal(q.isHeavy('a'), false);
  });

  it('lets heavy callers together run at most maxRunningHeavy jobs, while a light caller still starts', () => {
    const q = new FairQueue<J>(limits);
    runOnce(q, 'h1', 3000);
    runOnce(q, 'h2', 3000);
    q.push({ caller: 'h1', n: 1 });
    q.push({ caller: 'h2', n: 1 });
    const running = q.take();
    assert.equal(running?.caller, 'h1');
    assert.equal(q.heavyRunning, 1);
    assert.equal(q.take(), undefined, "h2's job waits: the heavy callers' share is in use");
    q.push({ caller: 'light', n: 1 });
    assert.equal(q.take()?.caller, 'light', 'the light caller gets the worker the heavy ones may not take');
    // When h1's job ends (long again), h2's turn comes: heavy callers alternate, none starves.
    q.done(running!, 3000);
    assert.equal(q.take()?.caller, 'h2');
  });

  it('lets a lone heavy caller run (the cap is a share, not a ban)', () => {
    const q = new FairQueue<J>(limits);
    runOnce(q, 'h', 3000);
    runOnce(q, 'h', 3000);
    assert.equal(q.isHeavy('h'), true);
  });

  it('caps nothing without maxRunningHeavy (the meta and operation lanes)', () => {
    const q = new FairQueue<J>({ maxRunningPerCaller: 1, maxQueuedPerCaller: 8, maxQueued: 64 });
    runOnce(q, 'h1', 3000);
    runOnce(q, 'h2', 3000);
    q.push({ caller: 'h1', n: 1 });
    q.push({ caller: 'h2', n: 1 });
    assert.equal(q.take()?.caller, 'h1');
    assert.equal(q.take()?.caller, 'h2');
  });
});
