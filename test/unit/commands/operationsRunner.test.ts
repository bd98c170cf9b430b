import { strict as assert } from 'node:assert';
import { runOperation, type OperationWaiter } from '../../../src/commands/operationsRunner';
import {
  copyIdsLabel,
  operationErrorMessage,
  operationIdsText,
  operationProgressMessage,
  stoppedWaitingMessage,
} from '../../../src/commands/operationsText';
import { OperationFailedError } from '../../../src/api/errors';
import { HubClient } from '../../../src/api/index';
import { sendJson, startLoopback } from '../../helpers/loopback';
import { FakeTiming } from '../api/fakes';
import type { Operation, OperationRef } from '../../../src/shared/wire';
import { anOperation } from '../../builders/wire';
import { waitFor } from '../../helpers/waitFor.cjs';

const ref: OperationRef = { id: 'owners/alice/repos/db/jobs/1', href: 'http://hub/api/v2/operations/owners/alice/repos/db/jobs/1' };

function op(status: string, over: Partial<Operation> = {}): Operation {
  return anOperation({ id: ref.id, status, ...over });
}

/** A waiter that replays states, one per tick, honouring the signal like the real client. */
function scripted(states: Operation[], final: 'return' | 'throw' = 'return'): OperationWaiter & { polled: number } {
  const w = {
    polled: 0,
    async waitForOperation(_r: OperationRef, opts?: { signal?: AbortSignal; onUpdate?: (o: Operation) => void }) {
      for (const s of states) {
        await new Promise((r) => setTimeout(r, 1));
        if (opts?.signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
        w.polled++;
        opts?.onUpdate?.(s);
        if (s.status === 'failed' && final === 'throw') throw new OperationFailedError(s);
        if (s.status === 'succeeded' || s.status === 'failed') return s;
      }
      // Never ends by itself: wait for the abort.
      return new Promise<Operation>((_, reject) =>
        opts?.signal?.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }))),
      );
    },
  };
  return w;
}

describe('operations watcher', () => {
  it('starts the operation, reports every state and ends succeeded', async () => {
    const seen: string[] = [];
    let started = 0;
    const outcome = await runOperation({
      start: async () => {
        started++;
        return ref;
      },
      waiter: scripted([op('queued'), op('running'), op('succeeded', { result: { pull_id: 3 } })]),
      signal: new AbortController().signal,
      onUpdate: (o) => seen.push(o.status),
    });
    assert.equal(started, 1);
    assert.deepEqual(seen, ['queued', 'running', 'succeeded']);
    assert.equal(outcome.kind, 'succeeded');
    assert.deepEqual(outcome.kind === 'succeeded' && outcome.operation.result, { pull_id: 3 });
  });

  it('turns a failed operation (thrown by the client) into its OperationError', async () => {
    const error = { status: 409, code: 'CONFLICT', title: 'Merge conflict', detail: 'Conflicts in table: parts' };
    const outcome = await runOperation({
      start: ref,
      waiter: scripted([op('running'), op('failed', { error })], 'throw'),
      signal: new AbortController().signal,
    });
    assert.equal(outcome.kind, 'failed');
    assert.deepEqual(outcome.kind === 'failed' && outcome.error, error);
    assert.equal(
      operationErrorMessage('Merging pull request #3', error),
      'Merging pull request #3 failed: Merge conflict. Conflicts in table: parts (409 CONFLICT)',
    );
  });

  it('a failed operation without a recorded error still says it failed', async () => {
    const outcome = await runOperation({ start: ref, waiter: scripted([op('failed')]), signal: new AbortController().signal });
    assert.equal(outcome.kind, 'failed');
    assert.equal(outcome.kind === 'failed' && outcome.error.code, 'OPERATION_FAILED');
  });

  it('stopping the wait ends with stoppedWaiting and never pretends the server op was cancelled', async () => {
    const controller = new AbortController();
    const waiter = scripted([op('queued'), op('running')]);
    const run = runOperation({ start: ref, waiter, signal: controller.signal });
    // Stop once both states were reported (a fixed delay raced the replay on a busy machine).
    await waitFor('both states reported', () => waiter.polled >= 2, { intervalMs: 1 });
    controller.abort();
    const outcome = await run;
    assert.equal(outcome.kind, 'stoppedWaiting');
    assert.equal(outcome.kind === 'stoppedWaiting' && outcome.ref, ref);
    assert.equal(outcome.kind === 'stoppedWaiting' && outcome.last?.status, 'running');
    assert.match(stoppedWaitingMessage('the merge', true), /not cancelled: it keeps running on the server/);
  });

  it('stopping before the start call answers reports that the request may have reached the server', async () => {
    const controller = new AbortController();
    const run = runOperation({
      start: (signal) =>
        new Promise<OperationRef>((_, reject) =>
          signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }))),
        ),
      waiter: scripted([]),
      signal: controller.signal,
    });
    controller.abort();
    const outcome = await run;
    assert.equal(outcome.kind, 'stoppedWaiting');
    assert.equal(outcome.kind === 'stoppedWaiting' && outcome.ref, undefined);
    assert.match(stoppedWaitingMessage('the merge', false), /may already have reached the server/);
  });

  it('lets HTTP errors of the start call through to reportError', async () => {
    const boom = Object.assign(new Error('403'), { name: 'ApiError', status: 403 });
    await assert.rejects(
      runOperation({
        start: async () => {
          throw boom;
        },
        waiter: scripted([]),
        signal: new AbortController().signal,
      }),
      (e: unknown) => e === boom,
    );
  });

  it('progress messages say where the operation is', () => {
    assert.equal(operationProgressMessage(op('queued'), 0), 'Queued on the server…');
    assert.equal(operationProgressMessage(op('running'), 3200), 'Running (3 s)…');
    assert.equal(operationProgressMessage(op('paused'), 2000), 'paused (2 s)…');
  });
});

describe('a failed operation carries the request id of the poll that reported it', () => {
  it('over real HTTP: the X-Request-Id of the last poll reaches the outcome and the copied text', async () => {
    let polls = 0;
    const server = await startLoopback((_req, res) => {
      polls++;
      const state =
        polls < 2
          ? op('running')
          : op('failed', { error: { status: 409, code: 'MERGE_CONFLICT', title: 'Merge conflict', detail: 'table products' } });
      sendJson(res, 200, { data: state }, { 'x-request-id': `req-poll-${polls}` });
    });
    try {
      const href = `${server.origin}/api/v2/operations/owners%2Falice%2Frepos%2Fdb%2Fjobs%2F1`;
      const client = new HubClient({ baseUrl: server.origin, timing: new FakeTiming() });
      const outcome = await runOperation({ start: { id: ref.id, href }, waiter: client, signal: new AbortController().signal });
      assert.equal(outcome.kind, 'failed');
      assert.ok(outcome.kind === 'failed');
      assert.equal(outcome.requestId, 'req-poll-2', 'the poll that said "failed", not an earlier one');
      assert.equal(outcome.error.code, 'MERGE_CONFLICT');
      const ids = { operationId: outcome.ref.id, ...(outcome.requestId ? { requestId: outcome.requestId } : {}) };
      assert.equal(copyIdsLabel(ids), 'Copy operation and request ids');
      assert.equal(operationIdsText(ids), 'operation owners/alice/repos/db/jobs/1, request req-poll-2');
    } finally {
      await server.close();
    }
  });

  it('without an X-Request-Id the action copies the operation id alone', async () => {
    const server = await startLoopback((_req, res) => sendJson(res, 200, { data: op('failed') }));
    try {
      const client = new HubClient({ baseUrl: server.origin, timing: new FakeTiming() });
      const err = await client.waitForOperation({ id: ref.id, href: `${server.origin}/api/v2/operations/x` }).then(
        () => assert.fail('the operation failed'),
        (e: unknown) => e as OperationFailedError,
      );
      assert.equal(err.name, 'OperationFailedError');
      assert.equal(err.requestId, undefined);
      const outcome = await runOperation({
        start: { id: ref.id, href: `${server.origin}/api/v2/operations/x` },
        waiter: client,
        signal: new AbortController().signal,
      });
      assert.ok(outcome.kind === 'failed' && outcome.requestId === undefined);
      assert.equal(copyIdsLabel({}), 'Copy operation id');
      assert.equal(operationIdsText({ operationId: ref.id }), 'operation owners/alice/repos/db/jobs/1');
    } finally {
      await server.close();
    }
  });
});
