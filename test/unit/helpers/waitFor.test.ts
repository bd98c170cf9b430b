import * as assert from 'node:assert/strict';
import { waitFor, WaitTimeoutError } from '../../helpers/waitFor.cjs';

describe('waitFor (the one wait helper of the tests)', () => {
  it('resolves the first ready value, as soon as the condition holds', async () => {
    let calls = 0;
    const value = await waitFor('the third call', () => (++calls >= 3 ? { calls } : undefined), { intervalMs: 1 });
    assert.deepEqual(value, { calls: 3 });
  });

  it('takes 0 and the empty string as ready; undefined, null and false as not yet', async () => {
    const answers: unknown[] = [undefined, null, false, 0];
    assert.equal(await waitFor('zero', () => answers.shift(), { intervalMs: 1 }), 0);
    assert.equal(await waitFor('empty', async () => ''), '');
  });

  it('times out naming what never happened, described when the wait ends', async () => {
    let state = 'queued';
    const wait = waitFor(
      () => `the operation to end (last seen ${state})`,
      () => {
        state = 'running';
        return false;
      },
      { timeoutMs: 30, intervalMs: 5 },
    );
    await assert.rejects(wait, (e: unknown) => {
      assert.ok(e instanceof WaitTimeoutError);
      assert.equal(e.message, 'timed out after 30 ms waiting for the operation to end (last seen running)');
      return true;
    });
  });

  it('ends at once with the error a probe throws', async () => {
    let calls = 0;
    await assert.rejects(
      waitFor('never', () => {
        calls++;
        throw new SyntaxError('Unexpected end of JSON input');
      }),
      /Unexpected end of JSON input/,
    );
    assert.equal(calls, 1);
  });
});
