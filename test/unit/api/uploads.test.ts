import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { filePartsMd5, HubClient, UploadError, type UploadProgress } from '../../../src/api/index';
import { readBody, sendJson, startLoopback } from '../../helpers/loopback';
import { FakeTiming, RecordingLogger } from './fakes';

const TOKEN = 'pat_upload_SECRET_42';
const db = { owner: 'acme', name: 'inv' };

interface StoredPart {
  partNumber: number;
  bytes: number;
  md5Hex: string;
  headers: IncomingMessage['headers'];
  rawHeaders: string[];
}

type StorageBehaviour = (partNumber: number, attempt: number, req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * A hub that opens upload sessions and a separate storage server that takes parts as S3 does:
 * ETag = quoted hex MD5 of the part. `behave` may answer instead (return true) to inject faults.
 */
async function setup(opts: { sessionHeaders?: Record<string, string[]>; behave?: StorageBehaviour; delayMs?: number } = {}) {
  const stored = new Map<number, StoredPart>();
  const attempts = new Map<number, number>();
  let inFlight = 0;
  let maxInFlight = 0;
  const storage = await startLoopback(async (req, res) => {
    const m = /^\/bucket\/part-(\d+)\?/.exec(req.url ?? '');
    if (!m || req.method !== 'PUT') return sendJson(res, 404, {});
    const n = Number(m[1]);
    const attempt = (attempts.get(n) ?? 0) + 1;
    attempts.set(n, attempt);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      if (opts.behave?.(n, attempt, req, res)) return;
      // Hash while streaming: the server keeps nothing, so the test measures only the client.
      const hash = createHash('md5');
      let bytes = 0;
      for await (const chunk of req) {
        hash.update(chunk as Buffer);
        bytes += (chunk as Buffer).length;
      }
      if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
      const md5Hex = hash.digest('hex');
      stored.set(n, { partNumber: n, bytes, md5Hex, headers: req.headers, rawHeaders: req.rawHeaders });
      res.writeHead(200, { etag: `"${md5Hex}"` });
      res.end();
    } finally {
      inFlight--;
    }
  });
  const sessions: unknown[] = [];
  const hub = await startLoopback(async (req, res) => {
    if (req.method === 'POST' && req.url === '/api/v2/databases/acme/inv/imports/uploads') {
      const body = JSON.parse((await readBody(req)).toString()) as { num_parts: number };
      sessions.push(body);
      const parts = Array.from({ length: body.num_parts }, (_, i) => ({
        part_number: i + 1,
        url: `${storage.origin}/bucket/part-${i + 1}?X-Amz-Signature=sig${i}&X-Amz-Credential=cred`,
      }));
      return sendJson(res, 201, {
        data: { token: 'upl-token', contents_key: 'uploads/k1', parts, http_method: 'PUT', headers: opts.sessionHeaders ?? {} },
      });
    }
    sendJson(res, 404, { title: 'nf', status: 404, code: 'NOT_FOUND', request_id: 'r' });
  });
  return {
    hub,
    storage,
    stored,
    attempts,
    sessions,
    get maxInFlight() {
      return maxInFlight;
    },
    close: async () => {
      await hub.close();
      await storage.close();
    },
  };
}

/** The service's value computed another way: from the hex MD5s storage saw, via Buffer, not via the client's helpers. */
function independentFilePartsMd5(hexes: string[]): string {
  const joined = hexes.map((h) => Buffer.from(h, 'hex').toString('base64')).join('');
  return createHash('md5').update(Buffer.from(joined, 'latin1')).digest('base64');
}

describe('uploadImport', () => {
  let env: Awaited<ReturnType<typeof setup>> | undefined;
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vdb-upload-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it('file_parts_md5 matches a fixed vector computed with openssl', () => {
    // printf 'hello' | openssl md5 -binary | base64, likewise ' worl' and 'd', then the same over the joined strings.
    assert.equal(
      filePartsMd5(['XUFAKrxLKna5cZ2REBfFkg==', 'uBoC2TPaqCTJsG3jc7d9cA==', 'gnfgkQ11AZW0SHl2FuCRrQ==']),
      '9Rvzc05x09kB6r8JJTN7+Q==',
    );
  });

  it('uploads bytes in parts: right sizes, ETags collected, MD5 as the service computes it, progress in bytes', async () => {
    env = await setup();
    const bytes = Buffer.from(Array.from({ length: 2500 }, (_, i) => (i * 7) % 256));
    const client = new HubClient({ baseUrl: env.hub.origin, token: TOKEN });
    const progress: UploadProgress[] = [];
    const r = await client.uploadImport({ db, file: bytes, fileType: 'csv', partSize: 1000, onProgress: (p) => progress.push(p) });
    assert.deepEqual(env.sessions, [{ content_length: 2500, num_parts: 3, file_type: 'csv' }]);
    assert.deepEqual(
      [...env.stored.values()].sort((a, b) => a.partNumber - b.partNumber).map((p) => p.bytes),
      [1000, 1000, 500],
    );
    const hexes = [1, 2, 3].map((n) => env!.stored.get(n)!.md5Hex);
    assert.deepEqual(
      r.completed_parts,
      hexes.map((h, i) => ({ part_number: i + 1, etag: `"${h}"` })),
    );
    assert.equal(r.file_parts_md5, independentFilePartsMd5(hexes));
    assert.equal(r.token, 'upl-token');
    assert.equal(r.contents_key, 'uploads/k1');
    assert.equal(r.file_size, 2500);
    assert.equal(r.file_type, 'csv');
    assert.deepEqual(progress[0], { bytesSent: 0, totalBytes: 2500, partsDone: 0, totalParts: 3 });
    assert.deepEqual(progress.at(-1), { bytesSent: 2500, totalBytes: 2500, partsDone: 3, totalParts: 3 });
    for (let i = 1; i < progress.length; i++) {
      const [prev, cur] = [progress[i - 1]!, progress[i]!];
      assert.ok(cur.bytesSent >= prev.bytesSent && cur.partsDone >= prev.partsDone);
      assert.ok(cur.bytesSent > prev.bytesSent || cur.partsDone > prev.partsDone, 'no duplicate reports');
    }
  });

  it('reports progress inside a part, and never backwards when a part is retried', async () => {
    env = await setup({
      behave: (_n, attempt, req, res) => {
        if (attempt > 1) return false;
        // Take half the body, then fail: the retry starts that part's bytes again.
        let got = 0;
        req.on('data', (c: Buffer) => {
          got += c.length;
          if (got > 1024 * 1024 && !res.headersSent) res.writeHead(503).end();
        });
        return true;
      },
    });
    const progress: UploadProgress[] = [];
    const client = new HubClient({ baseUrl: env.hub.origin, timing: new FakeTiming() });
    const size = 3 * 1024 * 1024;
    await client.uploadImport({ db, file: Buffer.alloc(size, 9), fileType: 'csv', partSize: size, onProgress: (p) => progress.push(p) });
    const inside = progress.filter((p) => p.partsDone === 0 && p.bytesSent > 0 && p.bytesSent < size);
    assert.ok(inside.length >= 4, `expected several reports within the part, got ${inside.length}`);
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i]!.bytesSent >= progress[i - 1]!.bytesSent);
    assert.deepEqual(progress.at(-1), { bytesSent: size, totalBytes: size, partsDone: 1, totalParts: 1 });
    assert.equal(env.attempts.get(1), 2);
  });

  it('sends every session header value on every part, and never Authorization or cookies', async () => {
    env = await setup({ sessionHeaders: { 'x-amz-meta-tag': ['one', 'two'], 'X-Checksum-Mode': ['enabled'] } });
    const client = new HubClient({ baseUrl: env.hub.origin, token: TOKEN });
    await client.uploadImport({ db, file: Buffer.alloc(3000, 1), fileType: 'json', partSize: 1024 });
    assert.equal(env.hub.requests[0]!.headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(env.stored.size, 3);
    for (const part of env.stored.values()) {
      assert.equal(part.headers.authorization, undefined);
      assert.equal(part.headers.cookie, undefined);
      const values = (name: string) => part.rawHeaders.filter((_, i) => i % 2 === 1 && part.rawHeaders[i - 1]!.toLowerCase() === name);
      assert.deepEqual(values('x-amz-meta-tag'), ['one', 'two']);
      assert.deepEqual(values('x-checksum-mode'), ['enabled']);
    }
  });

  it('streams from a file path; the result equals uploading the same bytes', async () => {
    env = await setup();
    const bytes = Buffer.from('id,name\n' + Array.from({ length: 500 }, (_, i) => `${i},row ${i}`).join('\n'));
    const file = join(dir, 'rows.csv');
    await writeFile(file, bytes);
    const client = new HubClient({ baseUrl: env.hub.origin });
    const fromFile = await client.uploadImport({ db, file, fileType: 'csv', partSize: 2048 });
    const fromBytes = await client.uploadImport({ db, file: bytes, fileType: 'csv', partSize: 2048 });
    assert.equal(fromFile.file_parts_md5, fromBytes.file_parts_md5);
    assert.deepEqual(fromFile.completed_parts, fromBytes.completed_parts);
    assert.equal(fromFile.file_size, bytes.length);
  });

  it('retries a part after 503 and a reset connection (1 s, then 2 s) and succeeds', async () => {
    env = await setup({
      behave: (n, attempt, _req, res) => {
        if (n !== 2) return false;
        if (attempt === 1) {
          res.writeHead(503).end();
          return true;
        }
        if (attempt === 2) {
          res.socket?.destroy();
          return true;
        }
        return false;
      },
    });
    const timing = new FakeTiming();
    const client = new HubClient({ baseUrl: env.hub.origin, timing });
    const r = await client.uploadImport({ db, file: Buffer.alloc(2048, 3), fileType: 'csv', partSize: 1024 });
    assert.equal(env.attempts.get(2), 3);
    assert.deepEqual(timing.sleeps, [1000, 2000]);
    assert.equal(r.completed_parts.length, 2);
  });

  it('honours Retry-After from storage on a 429 before retrying the part', async () => {
    env = await setup({
      behave: (n, attempt, _req, res) => {
        if (n !== 1 || attempt > 1) return false;
        res.writeHead(429, { 'retry-after': '3' }).end();
        return true;
      },
    });
    const timing = new FakeTiming();
    const client = new HubClient({ baseUrl: env.hub.origin, timing });
    await client.uploadImport({ db, file: Buffer.alloc(10, 1), fileType: 'csv' });
    assert.deepEqual(timing.sleeps, [3000]);
    assert.equal(env.attempts.get(1), 2);
  });

  it('logs each part with origin and path only: no signature, no token', async () => {
    env = await setup();
    const logger = new RecordingLogger();
    const client = new HubClient({ baseUrl: env.hub.origin, token: TOKEN, logger });
    await client.uploadImport({ db, file: Buffer.alloc(2048, 1), fileType: 'csv', partSize: 1024 });
    const partLines = logger.lines.filter((l) => l.includes('/bucket/'));
    assert.equal(partLines.length, 2);
    assert.match(partLines[0]!, new RegExp(`^debug PUT ${env.storage.origin}/bucket/part-\\d part \\d/2 200 \\d+ms$`));
    assert.ok(!logger.text.includes('sig0') && !logger.text.includes('X-Amz') && !logger.text.includes(TOKEN), logger.text);
  });

  it('gives up on a part after 4 attempts (waits 1 s, 2 s, 4 s)', async () => {
    env = await setup({
      behave: (n, _a, _req, res) => {
        if (n !== 1) return false;
        res.writeHead(500).end('<Error><Code>InternalError</Code></Error>');
        return true;
      },
    });
    const timing = new FakeTiming();
    const client = new HubClient({ baseUrl: env.hub.origin, timing });
    await assert.rejects(client.uploadImport({ db, file: Buffer.alloc(100, 1), fileType: 'csv' }), (e: unknown) => {
      assert.ok(e instanceof UploadError);
      assert.equal(e.reason, 'failed');
      assert.equal(e.partNumber, 1);
      assert.match(e.message, /InternalError/);
      assert.ok(!e.message.includes('sig0'), 'the pre-signed URL stays out of messages');
      return true;
    });
    assert.equal(env.attempts.get(1), 4);
    assert.deepEqual(timing.sleeps, [1000, 2000, 4000]);
  });

  it('storage 403 (or 400) means the upload expired: a clear error, no retry, other parts stop', async () => {
    for (const status of [403, 400]) {
      env = await setup({
        behave: (n, _a, _req, res) => {
          if (n !== 1) return false;
          res
            .writeHead(status, { 'content-type': 'application/xml' })
            .end('<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>');
          return true;
        },
        delayMs: 30,
      });
      const client = new HubClient({ baseUrl: env.hub.origin, timing: new FakeTiming() });
      await assert.rejects(
        client.uploadImport({ db, file: Buffer.alloc(40 * 1024, 1), fileType: 'csv', partSize: 1024, concurrency: 2 }),
        (e: unknown) => {
          assert.ok(e instanceof UploadError);
          assert.equal(e.reason, 'expired');
          assert.equal(e.status, status);
          assert.match(e.message, /expired.*start the import again/);
          return true;
        },
      );
      assert.equal(env.attempts.get(1), 1);
      assert.ok(env.stored.size < 10, `other workers stopped early, stored ${env.stored.size}`);
      await env.close();
      env = undefined;
    }
  });

  it('does not follow a storage redirect', async () => {
    const elsewhere = await startLoopback((_req, res) => {
      res.writeHead(200, { etag: '"x"' }).end();
    });
    try {
      env = await setup({
        behave: (_n, _a, _req, res) => {
          res.writeHead(307, { location: `${elsewhere.origin}/steal` }).end();
          return true;
        },
      });
      const client = new HubClient({ baseUrl: env.hub.origin, token: TOKEN, timing: new FakeTiming() });
      await assert.rejects(
        client.uploadImport({ db, file: Buffer.alloc(10), fileType: 'csv' }),
        (e: unknown) => e instanceof UploadError && /redirect/.test(e.message),
      );
      assert.equal(elsewhere.requests.length, 0);
    } finally {
      await elsewhere.close();
    }
  });

  it('a stored part without an ETag is an error (the import could not be completed)', async () => {
    env = await setup({
      behave: (_n, _a, _req, res) => {
        res.writeHead(200).end();
        return true;
      },
    });
    const client = new HubClient({ baseUrl: env.hub.origin });
    await assert.rejects(client.uploadImport({ db, file: Buffer.alloc(10), fileType: 'csv' }), /no ETag/);
  });

  it('runs at most 4 parts at once by default, and does reach 4', async () => {
    env = await setup({ delayMs: 40 });
    const client = new HubClient({ baseUrl: env.hub.origin });
    await client.uploadImport({ db, file: Buffer.alloc(12 * 1024, 5), fileType: 'csv', partSize: 1024 });
    assert.equal(env.stored.size, 12);
    assert.equal(env.maxInFlight, 4);
  });

  it('abort stops the upload: AbortError, and no part starts afterwards', async () => {
    env = await setup({ delayMs: 50 });
    const ac = new AbortController();
    // Parts are counted as the client sends them. Storage's own count is no measure: a part sent
    // just before the abort can reach storage after the upload has rejected (on a busy machine
    // the test once saw 4 such requests arrive during a fixed 150 ms wait).
    const sent: { part: number; afterAbort: boolean }[] = [];
    const agent = new Agent();
    const counting = agent.compose((dispatch) => (opts, handler) => {
      const m = /\/part-(\d+)\?/.exec(String(opts.path));
      if (m) sent.push({ part: Number(m[1]), afterAbort: ac.signal.aborted });
      return dispatch(opts, handler);
    });
    try {
      const client = new HubClient({ baseUrl: env.hub.origin, dispatcher: counting });
      const p = client.uploadImport({
        db,
        file: Buffer.alloc(40 * 1024, 1),
        fileType: 'csv',
        partSize: 1024,
        signal: ac.signal,
        onProgress: (pr) => {
          if (pr.partsDone === 2) ac.abort();
        },
      });
      await assert.rejects(p, (e: unknown) => (e as Error).name === 'AbortError');
      assert.ok(ac.signal.aborted);
      assert.deepEqual(
        sent.filter((s) => s.afterAbort),
        [],
        'no part is sent after the abort',
      );
      // Two parts done, and at most the other three workers' parts under way when it came.
      assert.ok(sent.length >= 2 && sent.length <= 5, `${sent.length} parts sent`);
      assert.ok(env.storage.requests.length <= sent.length, 'storage got nothing the client did not send');
    } finally {
      await agent.close();
    }
  });

  it('refuses an empty file and a session whose parts do not match, with nothing half-sent', async () => {
    env = await setup();
    const client = new HubClient({ baseUrl: env.hub.origin });
    await assert.rejects(
      client.uploadImport({ db, file: Buffer.alloc(0), fileType: 'csv' }),
      (e: unknown) => e instanceof UploadError && e.reason === 'invalid',
    );
    assert.equal(env.hub.requests.length, 0);
    await assert.rejects(
      client.uploadImport({ db, file: join(dir, 'missing.csv'), fileType: 'csv' }),
      (e: unknown) => e instanceof UploadError && /Cannot read/.test(e.message),
    );
    await assert.rejects(client.uploadImport({ db, file: Buffer.alloc(10), fileType: 'csv', partSize: 0 }), RangeError);
    await assert.rejects(
      client.uploadImport({ db, file: Buffer.alloc(3 * 1024 * 1024), fileType: 'csv', maxFileBytes: 2 * 1024 * 1024 }),
      (e: unknown) => e instanceof UploadError && e.reason === 'invalid' && /3\.0 MiB; imports take files up to 2\.0 MiB/.test(e.message),
    );
    assert.equal(env.hub.requests.length, 0);
    const bad = await startLoopback((_req, res) =>
      sendJson(res, 201, {
        data: { token: 't', contents_key: 'k', parts: [{ part_number: 1, url: 'https://s.test/1' }], http_method: 'PUT', headers: {} },
      }),
    );
    try {
      const c2 = new HubClient({ baseUrl: bad.origin });
      await assert.rejects(
        c2.uploadImport({ db, file: Buffer.alloc(10), fileType: 'csv', partSize: 4 }),
        /1 part URLs for a file of 3 parts/,
      );
    } finally {
      await bad.close();
    }
    assert.equal(env.storage.requests.length, 0);
  });

  it('keeps memory bounded on a large file: 256 MiB uploaded with well under 100 MB extra resident memory', async function () {
    this.timeout(120_000);
    env = await setup();
    const file = join(dir, 'large.bin');
    const size = 256 * 1024 * 1024;
    const block = createHash('sha512');
    const chunk = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < chunk.length; i += 64) block.copy().update(String(i)).digest().copy(chunk, i);
    const fh = await open(file, 'w');
    for (let off = 0; off < size; off += chunk.length) {
      chunk.writeUInt32LE(off, 0);
      await fh.write(chunk, 0, chunk.length, off);
    }
    await fh.close();
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    try {
      const client = new HubClient({ baseUrl: env.hub.origin });
      const r = await client.uploadImport({ db, file, fileType: 'csv' });
      assert.equal(r.completed_parts.length, 52);
      assert.equal(r.file_size, size);
      const hexes = Array.from({ length: 52 }, (_, i) => env!.stored.get(i + 1)!.md5Hex);
      assert.equal(r.file_parts_md5, independentFilePartsMd5(hexes));
    } finally {
      clearInterval(sampler);
    }
    const extraMb = (peak - baseline) / 1024 / 1024;
    assert.ok(extraMb < 100, `peak resident memory grew by ${extraMb.toFixed(1)} MB while uploading 256 MiB`);
  });
});
