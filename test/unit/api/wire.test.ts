import { strict as assert } from 'node:assert';
import { HubClient, RefusedUrlError } from '../../../src/api/index';
import { sendJson, startLoopback, type Loopback } from '../../helpers/loopback';
import { waitFor } from '../../helpers/waitFor.cjs';
import { FakeTiming, RecordingLogger } from './fakes';

const TOKEN = 'pat_SECRET_0123456789';

/** What a real server sees on the wire: raw paths, headers, and what gets logged. */
describe('HubClient on the wire (loopback server)', () => {
  let hub: Loopback;
  beforeEach(async () => {
    hub = await startLoopback((req, res) => {
      if (req.url?.includes('/operations/')) {
        sendJson(
          res,
          200,
          { data: { id: 'x', type: 'merge', status: 'succeeded', created_at: 'x', cancelable: false } },
          { 'x-request-id': 'rid-1' },
        );
      } else if (req.url?.includes('/branches')) {
        sendJson(res, 200, { data: [{ name: 'main', head_commit_sha: 'h' }] }, { 'x-request-id': 'rid-1' });
      } else {
        sendJson(res, 200, { data: { name: 'main', head_commit_sha: 'h' } }, { 'x-request-id': 'rid-1' });
      }
    });
  });
  afterEach(async () => {
    await hub.close();
  });

  it('escapes each path segment on its own: slash, percent, dot-dot, query and hash characters, unicode', async () => {
    const client = new HubClient({ baseUrl: hub.origin });
    await client.getDatabase({ owner: 'a/b', name: '100%' });
    await client.getDatabase({ owner: '..', name: '.' });
    await client.getDatabase({ owner: 'q?x=1#h', name: 'żółw 🐢' });
    await client.getPull({ owner: 'o', name: 'n' }, '../../user');
    assert.deepEqual(
      hub.requests.map((r) => r.rawPath),
      [
        '/api/v2/databases/a%2Fb/100%25',
        '/api/v2/databases/%2E%2E/%2E',
        '/api/v2/databases/q%3Fx%3D1%23h/%C5%BC%C3%B3%C5%82w%20%F0%9F%90%A2',
        '/api/v2/databases/o/n/pulls/..%2F..%2Fuser',
      ],
    );
  });

  it('refuses an empty owner, name, pull number or operation id before any request', async () => {
    const client = new HubClient({ baseUrl: hub.origin });
    await assert.rejects(client.getDatabase({ owner: '', name: 'n' }), TypeError);
    await assert.rejects(client.listBranches({ owner: 'o', name: '' }), TypeError);
    await assert.rejects(client.getPull({ owner: 'o', name: 'n' }, ''), TypeError);
    await assert.rejects(client.getOperation(''), TypeError);
    assert.equal(hub.requests.length, 0);
  });

  it('getOperation sends the id as ONE escaped segment', async () => {
    const client = new HubClient({ baseUrl: hub.origin });
    await client.getOperation('owners/acme/repos/inv/jobs/j 1');
    assert.equal(hub.requests[0]!.rawPath, '/api/v2/operations/owners%2Facme%2Frepos%2Finv%2Fjobs%2Fj%201');
  });

  it('sends Authorization: Bearer with a string token, and none without a credential', async () => {
    await new HubClient({ baseUrl: hub.origin, token: TOKEN }).getDatabase({ owner: 'o', name: 'n' });
    await new HubClient({ baseUrl: hub.origin }).getDatabase({ owner: 'o', name: 'n' });
    await new HubClient({ baseUrl: hub.origin, token: async () => undefined }).getDatabase({ owner: 'o', name: 'n' });
    assert.equal(hub.requests[0]!.headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(hub.requests[1]!.headers.authorization, undefined);
    assert.equal(hub.requests[2]!.headers.authorization, undefined);
  });

  it('asks a token function before every request, so sign-out takes effect at once', async () => {
    let current: string | undefined = 'first-token';
    const client = new HubClient({ baseUrl: hub.origin, token: async () => current });
    await client.getDatabase({ owner: 'o', name: 'n' });
    current = undefined;
    await client.getDatabase({ owner: 'o', name: 'n' });
    assert.equal(hub.requests[0]!.headers.authorization, 'Bearer first-token');
    assert.equal(hub.requests[1]!.headers.authorization, undefined);
  });

  it('sends the user agent and asks for JSON', async () => {
    await new HubClient({ baseUrl: hub.origin, userAgent: 'versioned-db/9.9' }).getDatabase({ owner: 'o', name: 'n' });
    assert.equal(hub.requests[0]!.headers['user-agent'], 'versioned-db/9.9');
    assert.match(hub.requests[0]!.headers.accept ?? '', /application\/json/);
  });

  it('refuses an operation href on another origin before any request, so the token never leaves', async () => {
    const other = await startLoopback((_req, res) => sendJson(res, 200, { data: {} }));
    try {
      const client = new HubClient({ baseUrl: hub.origin, token: TOKEN });
      await assert.rejects(
        client.waitForOperation({ id: 'x', href: `${other.origin}/api/v2/operations/x` }),
        (err: unknown) => err instanceof RefusedUrlError && !err.message.includes(TOKEN),
      );
      // Same host name, different port or scheme: also another origin.
      await assert.rejects(
        client.waitForOperation({ id: 'x', href: hub.origin.replace('http:', 'https:') + '/api/v2/operations/x' }),
        RefusedUrlError,
      );
      await assert.rejects(client.waitForOperation({ id: 'x', href: 'javascript:alert(1)' }), RefusedUrlError);
      assert.equal(other.requests.length, 0);
      assert.equal(hub.requests.length, 0);
    } finally {
      await other.close();
    }
  });

  it('follows a same-origin href verbatim, with the token', async () => {
    const client = new HubClient({ baseUrl: hub.origin, token: TOKEN });
    const op = await client.waitForOperation({ id: 'ignored', href: `${hub.origin}/api/v2/operations/owners%2Fa%2Frepos%2Fb%2Fjobs%2F1` });
    assert.equal(op.status, 'succeeded');
    assert.equal(hub.requests[0]!.rawPath, '/api/v2/operations/owners%2Fa%2Frepos%2Fb%2Fjobs%2F1');
    assert.equal(hub.requests[0]!.headers.authorization, `Bearer ${TOKEN}`);
  });

  it('logs method, path, status, duration and request id at debug, with no token', async () => {
    const logger = new RecordingLogger();
    const client = new HubClient({ baseUrl: hub.origin, token: TOKEN, logger, timing: new FakeTiming() });
    await client.getDatabase({ owner: 'o', name: 'n' });
    await client.listBranches({ owner: 'o', name: 'n' }, { pageToken: 'tok' });
    assert.match(logger.lines[0]!, /^debug GET \/api\/v2\/databases\/o\/n 200 \d+ms request-id=rid-1$/);
    assert.match(logger.lines[1]!, /^debug GET \/api\/v2\/databases\/o\/n\/branches\?page_token=\[REDACTED\] 200/);
    assert.ok(!logger.text.includes(TOKEN));
  });

  it('a request that gets no answer in time fails with TIMEOUT, and abort stops a request at once', async () => {
    const silent = await startLoopback(() => undefined /* never answers */);
    try {
      const client = new HubClient({ baseUrl: silent.origin, timeoutMs: 150, maxRetries: 0 });
      const t0 = Date.now();
      await assert.rejects(
        client.getCurrentUser(),
        (e: unknown) => (e as { code?: string }).code === 'TIMEOUT' && (e as { status?: number }).status === 0,
      );
      assert.ok(Date.now() - t0 < 3000);
      const ac = new AbortController();
      const before = silent.requests.length;
      const p = new HubClient({ baseUrl: silent.origin }).getCurrentUser({ signal: ac.signal });
      p.catch(() => undefined);
      // Aborted in flight: once the server has the request (and will never answer it).
      await waitFor('the request to reach the server', () => silent.requests.length > before);
      ac.abort();
      await assert.rejects(p, (e: unknown) => (e as Error).name === 'AbortError');
    } finally {
      await silent.close();
    }
  });
});
