// A worker that dies mid-request: the request gets a 503 Problem the client can retry, and the
// engine replaces the worker so the next requests are served. The hub runs in this process with
// a worker script that dies on a marked query (test/hub/fixtures/crashingEngineWorker.cjs, which
// otherwise runs the built worker from dist/hub.js).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HubServer } from '../../src/hub/hubServer';
import type { Logger } from '../../src/core/logger';
import { runHubCli } from '../helpers/hub';

/** What fixtures/crashingEngineWorker.cjs dies on. */
const CRASH_MARKER = '/* crash this worker */';

const quiet: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

describe('hub engine: a worker that dies mid-request', function () {
  this.timeout(60000);
  let dir: string;
  let hub: HubServer;
  let token: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vdb-crash-'));
    await runHubCli(['user', 'add', 'alice', '--data', dir]);
    token = (await runHubCli(['token', 'create', '--user', 'alice', '--data', dir])).stdout.trim();
    hub = new HubServer({
      dataDir: dir,
      host: '127.0.0.1',
      port: 0,
      pageSize: 50,
      maxRows: 1000,
      uploadTtlSeconds: 600,
      logger: quiet,
      workerScript: resolve(__dirname, 'fixtures', 'crashingEngineWorker.cjs'),
      // One query worker, so the replacement is the only one left to answer.
      engine: { workers: { query: 1 } },
    });
    await hub.start();
    const r = await call('POST', '/databases', { owner: 'alice', name: 'c', visibility: 'public' });
    assert.equal(r.status, 201);
  });
  after(async () => {
    await hub?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function call(method: string, path: string, json?: unknown): Promise<{ status: number; headers: Headers; body: any }> {
    const res = await fetch(`${hub.url}/api/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }

  it('answers the request with 503 SERVICE_UNAVAILABLE and Retry-After, then serves the next ones', async () => {
    for (let round = 0; round < 3; round++) {
      const dead = await call('POST', '/databases/alice/c/sql', { ref: 'main', q: `SELECT 1 ${CRASH_MARKER}` });
      assert.equal(dead.status, 503, JSON.stringify(dead.body));
      assert.equal(dead.body.code, 'SERVICE_UNAVAILABLE');
      assert.equal(dead.headers.get('retry-after'), '1');
      assert.match(dead.body.detail, /stopped while running this request/);
      const ok = await call('POST', '/databases/alice/c/sql', { ref: 'main', q: `SELECT ${round} + 1 AS n` });
      assert.equal(ok.status, 200);
      assert.deepEqual(ok.body.data.rows, [[String(round + 1)]]);
    }
    // Other lanes never noticed.
    const branches = await call('GET', '/databases/alice/c/branches');
    assert.deepEqual(
      branches.body.data.map((b: any) => b.name),
      ['main'],
    );
  });
});
