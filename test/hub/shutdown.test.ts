// Stopping the hub (SIGTERM, as `hub.stop()` and the extension do) while requests are in the
// engine: the running and the queued query are answered 503 with a Problem, the process exits 0,
// and stderr holds no error and no stack trace. Progress is read from the hub's own verbose log
// (the engine's "queued"/"started" lines), never from elapsed time.
import assert from 'node:assert/strict';
import { startHub, type HubHandle, type HubResponse } from '../helpers/hub';

/** Never ends on its own: stopped by its timeout_ms, or by the shutdown. */
const ENDLESS = 'WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r';

describe('hub shutdown with requests in flight', function () {
  this.timeout(120000);
  let hub: HubHandle;
  let stderr = '';

  before(async () => {
    // One query worker: alice's query runs, bob's waits behind it (and would wait up to 10 min).
    hub = await startHub({ seed: true, args: ['--verbose', '--query-workers', '1', '--queue-wait-ms', '600000'] });
    await Promise.all(['alice', 'bob'].map((u) => hub.token(u)));
    hub.process.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  });
  after(async () => hub?.stop());

  /** Resolves when the hub's stderr has a line matching `re` (waits on output, not on a clock). */
  function logged(re: RegExp): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!re.test(stderr)) return;
        hub.process.stderr?.off('data', check);
        hub.process.off('exit', exited);
        resolve();
      };
      const exited = (): void => reject(new Error(`the hub exited before logging ${re}:\n${stderr}`));
      hub.process.stderr?.on('data', check);
      hub.process.once('exit', exited);
      check();
    });
  }

  const query = (user: string): Promise<HubResponse> =>
    hub.fetch('/databases/alice/prices/sql', { user, json: { ref: 'main', q: ENDLESS, timeout_ms: 60000 } });

  it('answers the running and the queued query 503 with a Problem and logs no stack trace', async () => {
    const running = query('alice');
    await logged(/engine: query job \d+ of user:alice started/);
    const queued = query('bob');
    await logged(/engine: query job \d+ of user:bob queued/);
    assert.doesNotMatch(stderr, /engine: query job \d+ of user:bob started/, 'bob waits behind alice');

    const exit = new Promise<number | null>((r) => hub.process.once('exit', (code) => r(code)));
    hub.process.kill('SIGTERM');
    const answers = await Promise.all([running, queued]);
    for (const [who, r] of [
      ['running', answers[0]],
      ['queued', answers[1]],
    ] as const) {
      assert.equal(r.status, 503, `${who}: ${r.text}`);
      assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/, who);
      assert.equal(r.body.status, 503, who);
      assert.equal(r.body.code, 'SERVICE_UNAVAILABLE', who);
      assert.match(r.body.detail, /shutting down/i, who);
      assert.ok(r.body.request_id ?? r.headers.get('x-request-id'), `${who}: a request id`);
    }
    assert.equal(await exit, 0, 'a clean exit');

    const lines = stderr.split('\n').filter((l) => l !== '' && !l.startsWith('[hub debug]') && !l.startsWith('[hub trace]'));
    assert.ok(lines.length <= 1, `at most one line beside the verbose log:\n${lines.join('\n')}`);
    for (const l of lines) assert.match(l, /^\[hub info\] Stopped: 2 request\(s\) in flight were answered 503/);
    assert.doesNotMatch(stderr, /^\s+at /m, 'no stack trace');
    assert.doesNotMatch(stderr, /\[hub error\]/);
  });
});
