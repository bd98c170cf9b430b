import { strict as assert } from 'node:assert';
import type { MockAgent } from 'undici';
import { ApiError, HubClient, OperationFailedError, pollDelay, waitForOperation } from '../../../src/api/index';
import type { Operation, OperationRef } from '../../../src/shared/wire';
import { FakeTiming, mockAgent, ORIGIN } from './fakes';
import { anOperation } from '../../builders/wire';

const ref: OperationRef = { id: 'owners/a/repos/b/jobs/9', href: `${ORIGIN}/api/v2/operations/owners%2Fa%2Frepos%2Fb%2Fjobs%2F9` };
const op = (status: string, extra: Partial<Operation> = {}): Operation => anOperation({ id: ref.id, status, ...extra });

describe('waitForOperation', () => {
  let agent: MockAgent;
  let paths: string[];
  beforeEach(() => {
    agent = mockAgent();
    paths = [];
  });
  afterEach(async () => {
    await agent.close();
  });

  function states(...ops: Operation[]): void {
    for (const o of ops) {
      agent
        .get(ORIGIN)
        .intercept({ path: '/api/v2/operations/owners%2Fa%2Frepos%2Fb%2Fjobs%2F9', method: 'GET' })
        .reply((opts) => {
          paths.push(opts.path);
          return { statusCode: 200, data: JSON.stringify({ data: o }) };
        });
    }
  }

  it('polls href until succeeded, reporting each state, with delays 1 s, 2 s, 4 s, 8 s, 10 s, 10 s', async () => {
    states(
      op('queued'),
      op('running'),
      op('running'),
      op('running'),
      op('running'),
      op('running'),
      op('succeeded', { result: { pull_id: 12 } }),
    );
    const timing = new FakeTiming(() => 0.5);
    const client = new HubClient({ baseUrl: ORIGIN, dispatcher: agent, timing });
    const seen: string[] = [];
    const done = await client.waitForOperation(ref, { onUpdate: (o) => seen.push(o.status) });
    assert.equal(done.status, 'succeeded');
    assert.deepEqual(done.result, { pull_id: 12 });
    assert.deepEqual(seen, ['queued', 'running', 'running', 'running', 'running', 'running', 'succeeded']);
    assert.deepEqual(timing.sleeps, [1000, 2000, 4000, 8000, 10000, 10000]);
    assert.equal(paths.length, 7);
  });

  it('jitters each delay by at most ±20%', () => {
    for (let attempt = 0; attempt < 8; attempt++) {
      const base = Math.min(1000 * 2 ** attempt, 10_000);
      assert.equal(
        pollDelay(attempt, () => 0),
        base * 0.8,
      );
      assert.equal(
        pollDelay(attempt, () => 0.99999),
        Math.round(base * 1.2),
      );
    }
  });

  it('throws OperationFailedError carrying the failed Operation and its error', async () => {
    const error = { status: 409, code: 'MERGE_CONFLICT', title: 'Conflicts', detail: '2 tables' };
    states(op('running'), op('failed', { error }));
    const client = new HubClient({ baseUrl: ORIGIN, dispatcher: agent, timing: new FakeTiming() });
    await assert.rejects(client.waitForOperation(ref), (e: unknown) => {
      assert.ok(e instanceof OperationFailedError);
      assert.deepEqual(e.operation.error, error);
      assert.match(e.message, /Conflicts: 2 tables/);
      return true;
    });
  });

  it('keeps polling through a status it does not know', async () => {
    states(op('waiting_for_ci'), op('succeeded'));
    const client = new HubClient({ baseUrl: ORIGIN, dispatcher: agent, timing: new FakeTiming() });
    assert.equal((await waitForOperation(client, ref)).status, 'succeeded');
    assert.equal(paths.length, 2);
  });

  it('stops on abort without another request', async () => {
    states(op('queued'), op('running'), op('succeeded'));
    const ac = new AbortController();
    const client = new HubClient({ baseUrl: ORIGIN, dispatcher: agent, timing: new FakeTiming() });
    await assert.rejects(
      client.waitForOperation(ref, { signal: ac.signal, onUpdate: () => ac.abort() }),
      (e: unknown) => (e as Error).name === 'AbortError',
    );
    assert.equal(paths.length, 1);
  });

  it('a poll that fails with a Problem ends the wait with that ApiError', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: /\/api\/v2\/operations\//, method: 'GET' })
      .reply(404, { title: 'Gone', status: 404, code: 'NOT_FOUND', request_id: 'r' });
    const client = new HubClient({ baseUrl: ORIGIN, dispatcher: agent, timing: new FakeTiming() });
    await assert.rejects(client.waitForOperation(ref), (e: unknown) => e instanceof ApiError && e.status === 404);
  });

  it('refuses a ref without an href instead of building a path from the id', async () => {
    const client = new HubClient({ baseUrl: ORIGIN, dispatcher: agent, timing: new FakeTiming() });
    await assert.rejects(client.waitForOperation({ id: 'owners/a/repos/b/jobs/9', href: '' }), /no href/);
  });
});
