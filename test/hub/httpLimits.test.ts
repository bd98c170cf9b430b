// Oversized and hostile requests: 413, 414 and 431 are Problems on a connection that keeps
// working, `detail` never echoes unbounded input, hrefs come from --public-url and never from
// Host, the closed-schema check reads own properties only, and upload parts stream to disk within
// what the session allows while expired sessions are swept as the hub runs.
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { rssOf, startHub, type HubHandle } from '../helpers/hub';
import { waitFor } from '../helpers/waitFor.cjs';

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
  /** The client port of the connection: the same port means the same connection. */
  localPort: number;
}

/** One request through `agent` (keep-alive, one socket), so consecutive calls share a connection. */
function raw(
  agent: Agent,
  url: string,
  o: { method?: string; headers?: Record<string, string>; body?: Buffer | Readable } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, method: o.method ?? 'GET', headers: o.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = text === '' ? undefined : JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, localPort: req.socket?.localPort ?? -1 });
      });
    });
    req.on('error', reject);
    if (o.body instanceof Readable) o.body.pipe(req);
    else req.end(o.body);
  });
}

/** `size` bytes of `fill` as a stream, never held whole. */
function zeros(size: number): Readable {
  const chunk = Buffer.alloc(1024 * 1024, 0x61);
  let left = size;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const n = Math.min(left, chunk.length);
      left -= n;
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
}

function assertProblem(r: RawResponse, status: number): void {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.match(String(r.headers['content-type']), /application\/problem\+json/);
  assert.equal(r.body.status, status);
  assert.equal(typeof r.body.code, 'string');
  assert.equal(typeof r.body.request_id, 'string');
}

const PUBLIC = 'https://hub.example.com/base';

describe('hub HTTP limits', function () {
  this.timeout(120000);
  let hub: HubHandle;
  let agent: Agent;
  const P = '/databases/alice/prices';

  before(async () => {
    hub = await startHub({ seed: true, args: ['--upload-ttl', '2', '--public-url', `${PUBLIC}/`] });
    await hub.token('alice');
  });
  beforeEach(() => {
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
  });
  afterEach(() => agent.destroy());
  after(async () => hub?.stop());

  const api = (path: string): string => `${hub.url}/api/v2${path}`;
  const auth = async (): Promise<Record<string, string>> => ({ authorization: `Bearer ${await hub.token('alice')}` });

  it('answers a JSON body past 8 MiB with a 413 Problem and serves the next request on the same connection', async () => {
    const big = Buffer.alloc(9 * 1024 * 1024, 0x20);
    const r = await raw(agent, api(`${P}/sql`), { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
    assertProblem(r, 413);
    assert.notEqual(r.headers['connection'], 'close');
    const next = await raw(agent, api(`${P}/branches`));
    assert.equal(next.status, 200);
    assert.equal(next.localPort, r.localPort, 'same connection');
    // A body too large to drain is refused at once and the connection is closed, with a Problem.
    const huge = await raw(agent, api(`${P}/sql`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(200 * 1024 * 1024) },
      body: Buffer.alloc(0),
    });
    assertProblem(huge, 413);
    assert.equal(huge.headers['connection'], 'close');
    assert.equal((await raw(agent, api(`${P}/branches`))).status, 200);
  });

  it('answers a long URL with 414 and large headers with 431, as Problems on a usable connection', async () => {
    const q = encodeURIComponent(`SELECT '${'x'.repeat(40 * 1024)}'`);
    const long = await raw(agent, api(`${P}/sql?ref=main&q=${q}`));
    assertProblem(long, 414);
    assert.match(long.body.detail, /POST \/sql/);
    assert.ok(long.body.instance.length <= 1001);
    const headers = await raw(agent, api(`${P}/branches`), { headers: { 'x-filler': 'y'.repeat(40 * 1024) } });
    assertProblem(headers, 431);
    const next = await raw(agent, api(`${P}/branches`));
    assert.equal(next.status, 200);
    assert.equal(next.localPort, long.localPort, 'same connection');
    // A 16 KiB URL, which Node refused by default, is served.
    const mid = await raw(agent, api(`${P}/sql?ref=main&q=${encodeURIComponent(`SELECT length('${'z'.repeat(16 * 1024)}')`)}`));
    assert.equal(mid.status, 200);
    assert.deepEqual(mid.body.data.rows, [[String(16 * 1024)]]);
  });

  it('answers a request head past what the parser takes with a 431 Problem before closing', async () => {
    const text = await new Promise<string>((resolve, reject) => {
      const s = connect(Number(new URL(hub.url).port), '127.0.0.1');
      let got = '';
      s.on('data', (d) => (got += d.toString()));
      s.on('end', () => resolve(got));
      s.on('error', reject);
      s.write(`GET /api/v2${P}/branches HTTP/1.1\r\nHost: x\r\nX-Filler: ${'y'.repeat(300 * 1024)}\r\n\r\n`);
    });
    assert.match(text, /^HTTP\/1\.1 431 /);
    assert.match(text, /Connection: close/);
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
    assert.equal(body.status, 431);
    assert.match(body.detail, /larger than 262144 bytes/);
  });

  it('never echoes unbounded input in detail', async () => {
    const ref = 'r'.repeat(5_000_000);
    const r = await hub.fetch(`${P}/sql`, { json: { ref, q: 'SELECT 1' } });
    assert.equal(r.status, 404);
    assert.ok(r.text.length < 1000, `${r.text.length} bytes`);
    assert.match(r.body.detail, /\(5000000 characters\)/);
    const field = await hub.fetch(`${P}/sql`, { json: { ref: 'main', q: 'SELECT 1', ['k'.repeat(100000)]: 1 } });
    assert.equal(field.status, 400);
    assert.ok(field.text.length < 1000);
  });

  it('builds hrefs from --public-url, never from Host or X-Forwarded-*', async () => {
    const r = await raw(agent, api(`${P}/forks`), {
      method: 'POST',
      headers: {
        ...(await auth()),
        'content-type': 'application/json',
        host: 'evil.example:666',
        'x-forwarded-host': 'evil2.example',
        'x-forwarded-proto': 'https',
      },
      body: Buffer.from(JSON.stringify({ owner: 'acme' })),
    });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal(
      r.body.data.href,
      `https://hub.example.com/base/api/v2/operations/${r.body.data.id.split('/').map(encodeURIComponent).join('/')}`,
    );
  });

  it('checks own properties only: "__proto__" and "constructor" are unknown fields', async () => {
    for (const text of ['{"__proto__":{"x":1}}', '{"constructor":"x"}', '{"toString":"x"}']) {
      const r = await hub.fetch(`${P}/pulls/1`, {
        method: 'PATCH',
        user: 'alice',
        headers: { 'content-type': 'application/json' },
        body: text,
      });
      assert.equal(r.status, 400, text);
      assert.match(r.body.detail, /Unknown field "(__proto__|constructor|toString)"/);
    }
    assert.equal((await hub.fetch(`${P}/pulls/1`, { method: 'PATCH', user: 'alice', json: {} })).status, 400);
    // A database under an owner named like an Object.prototype member is refused, not a 500.
    const c = await hub.fetch('/databases', { user: 'alice', json: { owner: 'constructor', name: 'x', visibility: 'public' } });
    assert.equal(c.status, 403, c.text);
  });

  describe('upload parts', () => {
    const session = async (contentLength: number, parts = 1): Promise<{ id: string; urls: string[] }> => {
      const s = await hub.fetch('/databases/alice/prices/imports/uploads', {
        user: 'alice',
        json: { content_length: contentLength, num_parts: parts, file_type: 'csv' },
      });
      assert.equal(s.status, 201, s.text);
      const published: string[] = s.body.data.parts.map((p: any) => p.url);
      // Part URLs are on --public-url too; the test stands in for the proxy that forwards it here.
      for (const u of published) assert.ok(u.startsWith(`${PUBLIC}/storage/parts/`), u);
      const urls = published.map((u) => hub.url + u.slice(PUBLIC.length));
      return { id: /\/parts\/([0-9a-f]+)\//.exec(urls[0] as string)![1] as string, urls };
    };
    const partFiles = (id: string): string[] => {
      const dir = join(hub.dataDir, 'uploads', id);
      return existsSync(dir) ? readdirSync(dir) : [];
    };

    it('refuses a part past what the session allows with a 413 Problem, keeps nothing of it, and keeps the connection', async () => {
      const { id, urls } = await session(1000, 2);
      const first = await raw(agent, urls[0] as string, { method: 'PUT', body: Buffer.alloc(600, 0x61) });
      assert.equal(first.status, 200);
      // 400 bytes are left for part 2.
      const over = await raw(agent, urls[1] as string, { method: 'PUT', body: Buffer.alloc(401, 0x62) });
      assertProblem(over, 413);
      assert.match(over.body.detail, /larger than 400 bytes/);
      assert.deepEqual(partFiles(id), ['part-1']);
      const fits = await raw(agent, urls[1] as string, { method: 'PUT', body: Buffer.alloc(400, 0x62) });
      assert.equal(fits.status, 200);
      assert.equal(fits.localPort, over.localPort, 'same connection');
      // Streamed without a length, the part is cut off as soon as it passes 400 bytes; the
      // connection closes (the rest cannot be skipped without reading it) and part 2 is untouched.
      const streamed = await raw(agent, urls[1] as string, {
        method: 'PUT',
        headers: { 'transfer-encoding': 'chunked' },
        body: zeros(5000),
      });
      assertProblem(streamed, 413);
      assert.equal(streamed.headers['connection'], 'close');
      assert.deepEqual(partFiles(id).sort(), ['part-1', 'part-2']);
      assert.equal(readFileSync(join(hub.dataDir, 'uploads', id, 'part-2')).toString(), 'b'.repeat(400));
    });

    it('holds a session to its content_length across parts sent at the same time', async () => {
      const size = 1024 * 1024;
      const { id, urls } = await session(size, 10);
      // Ten parts of the whole session's size at once, each on its own connection: five declare
      // their length, five stream it chunked.
      const answers = await Promise.all(
        urls.map((u, i) => {
          const own = new Agent({ keepAlive: false });
          const headers: Record<string, string> = i % 2 === 0 ? { 'content-length': String(size) } : { 'transfer-encoding': 'chunked' };
          return raw(own, u, { method: 'PUT', headers, body: zeros(size) }).finally(() => own.destroy());
        }),
      );
      const ok = answers.filter((r) => r.status === 200);
      for (const r of answers) if (r.status !== 200) assertProblem(r, 413);
      assert.ok(ok.length <= 1, `${ok.length} parts of the whole session's size were taken`);
      const dir = join(hub.dataDir, 'uploads', id);
      const onDisk = partFiles(id).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
      assert.ok(onDisk <= size, `${onDisk} bytes on disk for a session of ${size}`);
      // What is left stays usable: nothing is held for the refused parts.
      const state = JSON.parse(readFileSync(join(hub.dataDir, 'hub.json'), 'utf8'));
      const stored = Object.values(state.uploads[id].parts).reduce((sum: number, p: any) => sum + p.size, 0);
      const rest = await raw(agent, urls[9] as string, { method: 'PUT', body: Buffer.alloc(size - stored, 0x61) });
      assert.equal(rest.status, 200, JSON.stringify(rest.body));
    });

    it('streams a large part to disk without holding it in memory', async () => {
      const size = 192 * 1024 * 1024;
      const { id, urls } = await session(size);
      const before = rssOf(hub);
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, rssOf(hub))), 20);
      const r = await raw(agent, urls[0] as string, { method: 'PUT', headers: { 'content-length': String(size) }, body: zeros(size) });
      clearInterval(sampler);
      assert.equal(r.status, 200, `${JSON.stringify(r.body)}\n${hub.output().slice(-2000)}`);
      assert.equal(readdirSync(join(hub.dataDir, 'uploads', id)).length, 1);
      const grown = peak - before;
      assert.ok(grown < 96 * 1024 * 1024, `the hub grew by ${Math.round(grown / 1048576)} MB for a ${size / 1048576} MB part`);
    });

    it('sweeps expired sessions while the hub runs', async () => {
      const { id, urls } = await session(10);
      assert.equal((await raw(agent, urls[0] as string, { method: 'PUT', body: Buffer.from('id\n1\n2\n3\n') })).status, 200);
      assert.ok(existsSync(join(hub.dataDir, 'uploads', id)));
      const pid = hub.process.pid;
      const state = (): any => JSON.parse(readFileSync(join(hub.dataDir, 'hub.json'), 'utf8'));
      await waitFor('the sweep of the expired session', () => !existsSync(join(hub.dataDir, 'uploads', id)) && !state().uploads[id], {
        timeoutMs: 30_000,
        intervalMs: 100,
      });
      assert.equal(existsSync(join(hub.dataDir, 'uploads', id)), false, 'the parts are gone');
      assert.equal(state().uploads[id], undefined, 'the session record is gone');
      assert.equal(hub.process.pid, pid);
      assert.equal(hub.process.exitCode, null, 'without a restart');
    });
  });
});
