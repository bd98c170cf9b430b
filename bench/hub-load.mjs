// The local hub under load, on loopback only: N clients send short requests (branch, tag and pull
// listings, short SQL as alice, bob and carol) for D seconds, first alone (the baseline), then
// while K anonymous clients keep a query that never ends running (timeout_ms 60000, sent again
// as soon as it ends or after a 429's Retry-After). Prints short-request throughput and latency
// percentiles of both phases and their ratios, then three hostile phases (issue 26): callers that
// send a translation-heavy query (20,000 HASHOF) and leave after 300 ms, waves of 100 anonymous
// 7.5 MB bodies (sent by a child process of their own), anonymous short SQL beside one long
// anonymous query from another address, and two anonymous callers (from other addresses) sorting
// 40 × 15 MB values over and over (refused past --max-query-memory-mb).
// Each phase reports the short requests' p99 and the hub's peak RSS (idle RSS first). Never fails
// on time.
// Run (under the shared lock): npm run build && flock /tmp/heavy.lock node bench/hub-load.mjs
//   env LOAD_CLIENTS (50), LOAD_LONG (3), LOAD_SECONDS (15), LOAD_HUB_ARGS (extra serve flags),
//   LOAD_HUB (a hub.js to measure instead of dist/hub.js)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** LOAD_HUB: another build of the hub to compare (e.g. one built from an older commit). */
const HUB = process.env.LOAD_HUB ?? join(ROOT, 'dist', 'hub.js');
const env = (k, d) => Number(process.env[k] ?? d);
const CLIENTS = env('LOAD_CLIENTS', 50);
const LONG = env('LOAD_LONG', 3);
const SECONDS = env('LOAD_SECONDS', 15);
const EXTRA = (process.env.LOAD_HUB_ARGS ?? '').split(' ').filter(Boolean);
const ENDLESS = 'WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r';

if (process.argv[2] === '--bodies') await sendBodies(process.argv[3]);

/**
 * The large-body client, in a process of its own as another program would be (in the bench's
 * process it took the short clients' event loop: each wave is 750 MB to send): waves of 100
 * anonymous 7.5 MB `POST /sql` bodies, encoded once, until SIGTERM; then its statuses on stdout.
 */
async function sendBodies(sqlUrl) {
  const body = Buffer.from(JSON.stringify({ ref: 'main', q: `SELECT 1 /* ${'x'.repeat(7.5 * 1024 * 1024)} */` }));
  const statuses = {};
  let stop = false;
  process.on('SIGTERM', () => (stop = true));
  while (!stop) {
    await Promise.all(
      Array.from({ length: 100 }, async () => {
        try {
          const r = await fetch(sqlUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
          statuses[r.status] = (statuses[r.status] ?? 0) + 1;
          await r.arrayBuffer();
        } catch {
          statuses.cut = (statuses.cut ?? 0) + 1;
        }
      }),
    );
  }
  process.stdout.write(JSON.stringify(statuses));
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'vdb-load-'));
const seeded = spawnSync(process.execPath, [HUB, 'seed', '--data', dir], { encoding: 'utf8' });
if (seeded.status !== 0) throw new Error(seeded.stderr);
const tokens = {};
for (const u of ['alice', 'bob', 'carol']) {
  tokens[u] = spawnSync(process.execPath, [HUB, 'token', 'create', '--user', u, '--data', dir], { encoding: 'utf8' }).stdout.trim();
}
const hub = spawn(process.execPath, [HUB, 'serve', '--data', dir, '--host', '127.0.0.1', '--port', '0', ...EXTRA], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((resolve, reject) => {
  let out = '';
  hub.stdout.on('data', (d) => {
    out += d;
    const m = /Hub listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
    if (m) resolve(m[1]);
  });
  hub.on('exit', (c) => reject(new Error(`hub exited ${c}`)));
});
const API = `${url}/api/v2/databases/alice/prices`;

/** The hub's resident memory now, in bytes. */
const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${hub.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
const HEAVY = `SELECT ${Array.from({ length: 20_000 }, () => "HASHOF('main~3')").join(', ')}`;

const BIG_SORT =
  'WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 40) SELECT length(b) FROM (SELECT randomblob(15000000) AS b FROM r ORDER BY b)';

/**
 * An anonymous query from another loopback address (its own anonymous share); by default one that
 * never ends. Resolves with the HTTP status, and the result's status after it (`200 error`).
 */
function longFrom(localAddress, q = ENDLESS, timeoutMs = 60000) {
  return new Promise((resolve) => {
    const body = JSON.stringify({ ref: 'main', q, timeout_ms: timeoutMs });
    const req = request(`${API}/sql`, { method: 'POST', localAddress, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        let status = '';
        try {
          status = JSON.parse(text).data?.status ?? '';
        } catch {
          // not JSON: the HTTP status says it
        }
        resolve(`${res.statusCode}${status ? ` ${status}` : ''}`);
      });
    });
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

/** Hostile callers running beside a phase until `stopped()`; each returns its answers' statuses. */
const DISTURBANCES = {
  departed: async (stopped, statuses) => {
    while (!stopped()) {
      const gone = new AbortController();
      const t = setTimeout(() => gone.abort(), 300);
      try {
        const r = await fetch(`${API}/sql`, {
          method: 'POST',
          signal: gone.signal,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ref: 'main', q: HEAVY, timeout_ms: 60000 }),
        });
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        await r.arrayBuffer();
      } catch {
        statuses.left = (statuses.left ?? 0) + 1;
      }
      clearTimeout(t);
    }
  },
  bodies: (stopped, statuses) =>
    new Promise((resolve) => {
      const sender = spawn(process.execPath, [fileURLToPath(import.meta.url), '--bodies', `${API}/sql`], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      sender.stdout.on('data', (d) => (out += d));
      const watch = setInterval(() => stopped() && (clearInterval(watch), sender.kill('SIGTERM')), 100);
      sender.on('exit', () => {
        clearInterval(watch);
        Object.assign(statuses, JSON.parse(out || '{}'));
        resolve();
      });
    }),
  longElsewhere: async (stopped, statuses) => {
    while (!stopped()) {
      const s = await longFrom('127.0.0.2');
      statuses[s] = (statuses[s] ?? 0) + 1;
    }
  },
  bigSorts: (stopped, statuses) =>
    Promise.all(
      ['127.0.0.3', '127.0.0.4'].map(async (address) => {
        while (!stopped()) {
          const s = await longFrom(address, BIG_SORT, 4000);
          statuses[s] = (statuses[s] ?? 0) + 1;
        }
      }),
    ),
};

/** A short anonymous POST /sql from `localAddress` (a caller of its own), read whole, as fetch's Response would be used here. */
function sqlFrom(localAddress, body) {
  return new Promise((resolve) => {
    const req = request(`${API}/sql`, { method: 'POST', localAddress, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, arrayBuffer: async () => undefined }));
    });
    req.on('error', () => resolve({ status: 0, arrayBuffer: async () => undefined }));
    req.end(body);
  });
}

/**
 * One short request of the mix, chosen by the client's number and its step. `anonymousSql`: the
 * SQL goes without a token (true: all from one address, one caller; 'addresses': from ten loopback
 * addresses, ten anonymous callers of five clients each).
 */
function shortRequest(client, step, anonymousSql = false) {
  const user = ['alice', 'bob', 'carol'][client % 3];
  const headers = anonymousSql
    ? { 'content-type': 'application/json' }
    : { authorization: `Bearer ${tokens[user]}`, 'content-type': 'application/json' };
  switch ((client + step) % 5) {
    case 0:
      return fetch(`${API}/branches`);
    case 1:
      return fetch(`${API}/tags`, { headers });
    case 2:
      return fetch(`${API}/pulls`);
    default: {
      const body = JSON.stringify({ ref: 'main', q: `SELECT count(*), ${step} FROM products` });
      if (anonymousSql === 'addresses') return sqlFrom(`127.0.0.${10 + (client % 10)}`, body);
      return fetch(`${API}/sql`, { method: 'POST', headers, body });
    }
  }
}

async function phase(name, longClients, disturbance, anonymousSql = false) {
  let stop = false;
  let peak = rss();
  const sampler = setInterval(() => (peak = Math.max(peak, rss())), 50);
  const disturbed = {};
  const disturbers = disturbance
    ? Array.from({ length: disturbance === 'bodies' || disturbance === 'bigSorts' ? 1 : 3 }, () =>
        DISTURBANCES[disturbance](() => stop, disturbed),
      )
    : [];
  const latencies = [];
  const statuses = {};
  const longStatuses = {};
  const longs = Array.from({ length: longClients }, async () => {
    while (!stop) {
      const r = await fetch(`${API}/sql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ref: 'main', q: ENDLESS, timeout_ms: 60000 }),
      });
      await r.text();
      longStatuses[r.status] = (longStatuses[r.status] ?? 0) + 1;
      if (r.status === 429 && !stop) await new Promise((res) => setTimeout(res, 1000 * Number(r.headers.get('retry-after') ?? 1)));
    }
  });
  // Let the long queries take their workers before measuring.
  if (longClients > 0 || disturbance) await new Promise((r) => setTimeout(r, 1000));
  const started = performance.now();
  const end = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let step = 0; performance.now() < end; step++) {
        const t0 = performance.now();
        const r = await shortRequest(client, step, anonymousSql);
        await r.arrayBuffer();
        latencies.push(performance.now() - t0);
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  stop = true;
  // The long clients' last queries end at their timeout; do not wait for them.
  void Promise.allSettled(longs);
  await Promise.allSettled(disturbers);
  clearInterval(sampler);
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  const res = {
    name,
    requests: latencies.length,
    rps: latencies.length / elapsed,
    p50: pct(50),
    p99: pct(99),
    max: latencies[latencies.length - 1],
    statuses,
    longStatuses: disturbance ? disturbed : longStatuses,
    peakRss: peak,
  };
  console.log(res);
  return res;
}

try {
  const idle = rss();
  const base = await phase(`${CLIENTS} clients, short requests only`, 0);
  const loaded = await phase(`${CLIENTS} clients + ${LONG} long anonymous queries`, LONG);
  const hostile = [
    await phase(`${CLIENTS} clients + 3 callers leaving translation-heavy queries after 300 ms`, 0, 'departed'),
    await phase(`${CLIENTS} clients + waves of 100 anonymous 7.5 MB bodies`, 0, 'bodies'),
    await phase(`${CLIENTS} clients (SQL anonymous) + a long anonymous query from another address`, 0, 'longElsewhere', true),
    await phase(
      `${CLIENTS} clients (SQL anonymous from 10 addresses) + a long anonymous query from another address`,
      0,
      'longElsewhere',
      'addresses',
    ),
    await phase(`${CLIENTS} clients + 2 anonymous callers sorting 40 × 15 MB values`, 0, 'bigSorts'),
  ];
  const ms = (v) => `${v.toFixed(0)} ms`;
  const mb = (v) => `${(v / 1048576).toFixed(0)} MB`;
  console.log(`\nidle RSS ${mb(idle)}`);
  console.log("\n| phase | short requests/s | p50 | p99 | max | peak RSS | short statuses | other callers' answers |");
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of [base, loaded, ...hostile]) {
    console.log(
      `| ${r.name} | ${r.rps.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.max)} | ${mb(r.peakRss)} | ${JSON.stringify(r.statuses)} | ${JSON.stringify(r.longStatuses)} |`,
    );
  }
  console.log(
    `| ratio (loaded / baseline) | ${(loaded.rps / base.rps).toFixed(2)}x | ${(loaded.p50 / base.p50).toFixed(2)}x | ${(loaded.p99 / base.p99).toFixed(2)}x | | | |`,
  );
} finally {
  hub.kill('SIGTERM');
  await new Promise((r) => hub.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
