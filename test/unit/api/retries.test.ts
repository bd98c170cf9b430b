import { strict as assert } from 'node:assert';
import { ApiError, HubClient } from '../../../src/api/index';
import { sendJson, startLoopback, type Loopback } from '../../helpers/loopback';
import { FakeTiming } from './fakes';

const db = { owner: 'o', name: 'n' };
const ok = { data: { owner: 'o', name: 'n', visibility: 'public', fork_network_count: 0, star_count: 0, size_bytes: 0 } };
const problem = (status: number, code: string) => ({ title: code, status, code, request_id: 'r' });

/** A server that answers the i-th request with script[i] (the last entry repeats). */
async function scripted(
  script: Array<(res: import('node:http').ServerResponse, req: import('node:http').IncomingMessage) => void>,
): Promise<Loopback> {
  let i = 0;
  return startLoopback((req, res) => {
    const step = script[Math.min(i++, script.length - 1)]!;
    step(res, req);
  });
}

describe('retries', () => {
  let server: Loopback | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('retries a GET after 503 and 429, waiting as Retry-After says (seconds and HTTP date)', async () => {
    const inTwoSeconds = new Date(Date.now() + 5000).toUTCString();
    server = await scripted([
      (res) => sendJson(res, 503, problem(503, 'SERVICE_UNAVAILABLE'), { 'retry-after': '2' }),
      (res) => sendJson(res, 429, problem(429, 'RATE_LIMITED'), { 'retry-after': inTwoSeconds }),
      (res) => sendJson(res, 200, ok),
    ]);
    const timing = new FakeTiming();
    const client = new HubClient({ baseUrl: server.origin, timing });
    assert.equal((await client.getDatabase(db)).name, 'n');
    assert.equal(server.requests.length, 3);
    assert.equal(timing.sleeps[0], 2000);
    assert.ok(timing.sleeps[1]! > 2000 && timing.sleeps[1]! <= 5000, String(timing.sleeps[1]));
  });

  it('without Retry-After backs off 1 s, 2 s, 4 s (±20%) and gives up after 3 retries', async () => {
    server = await scripted([(res) => sendJson(res, 503, problem(503, 'SERVICE_UNAVAILABLE'))]);
    // The extremes of the jitter: random() = 0 is -20%, random() → 1 is +20%.
    const low = new FakeTiming(() => 0);
    await assert.rejects(
      new HubClient({ baseUrl: server.origin, timing: low }).getDatabase(db),
      (e: unknown) => e instanceof ApiError && e.status === 503 && e.code === 'SERVICE_UNAVAILABLE',
    );
    assert.equal(server.requests.length, 4);
    assert.deepEqual(low.sleeps, [800, 1600, 3200]);
    const high = new FakeTiming(() => 0.99999);
    await assert.rejects(new HubClient({ baseUrl: server.origin, timing: high }).getDatabase(db), ApiError);
    assert.deepEqual(high.sleeps, [1200, 2400, 4800]);
  });

  it('never retries a POST (not safe to repeat)', async () => {
    server = await scripted([
      (res) => sendJson(res, 503, problem(503, 'SERVICE_UNAVAILABLE'), { 'retry-after': '1' }),
      (res) => sendJson(res, 201, ok),
    ]);
    const client = new HubClient({ baseUrl: server.origin, timing: new FakeTiming() });
    await assert.rejects(
      client.createDatabase({ owner: 'o', name: 'n', visibility: 'public' }),
      (e: unknown) => e instanceof ApiError && e.status === 503,
    );
    assert.equal(server.requests.length, 1);
  });

  it('does not retry other errors (500, 404)', async () => {
    server = await scripted([(res) => sendJson(res, 500, problem(500, 'INTERNAL'))]);
    const client = new HubClient({ baseUrl: server.origin, timing: new FakeTiming() });
    await assert.rejects(client.getDatabase(db), (e: unknown) => e instanceof ApiError && e.status === 500);
    assert.equal(server.requests.length, 1);
  });

  it('retries a GET whose connection was reset', async () => {
    server = await scripted([(res) => res.socket?.destroy(), (res) => sendJson(res, 200, ok)]);
    const timing = new FakeTiming();
    const client = new HubClient({ baseUrl: server.origin, timing });
    assert.equal((await client.getDatabase(db)).name, 'n');
    assert.equal(server.requests.length, 2);
    assert.equal(timing.sleeps.length, 1);
  });

  it('does not wait for a Retry-After beyond the limit: the error carries it instead', async () => {
    server = await scripted([(res) => sendJson(res, 429, problem(429, 'RATE_LIMITED'), { 'retry-after': '3600' })]);
    const timing = new FakeTiming();
    const client = new HubClient({ baseUrl: server.origin, timing });
    await assert.rejects(
      client.getDatabase(db),
      (e: unknown) => e instanceof ApiError && e.code === 'RATE_LIMITED' && e.retryAfterMs === 3_600_000,
    );
    assert.equal(server.requests.length, 1);
    assert.deepEqual(timing.sleeps, []);
  });

  it('abort during the wait between retries ends the call with AbortError and no further request', async () => {
    server = await scripted([(res) => sendJson(res, 503, problem(503, 'SERVICE_UNAVAILABLE'), { 'retry-after': '1' })]);
    const ac = new AbortController();
    const timing = new FakeTiming();
    const sleep = timing.sleep.bind(timing);
    timing.sleep = (ms, signal) => {
      ac.abort();
      return sleep(ms, signal);
    };
    const client = new HubClient({ baseUrl: server.origin, timing });
    await assert.rejects(client.getDatabase(db, { signal: ac.signal }), (e: unknown) => (e as Error).name === 'AbortError');
    assert.equal(server.requests.length, 1);
  });
});
