// Per-request overhead of HubClient against a raw undici request on loopback.
// Run: node --import tsx bench/client-overhead.mjs [requestsPerRound=500] [rounds=15]
// Both sides use the same keep-alive undici Agent, send the same headers and parse the same JSON;
// the client additionally escapes paths, resolves the token, checks size limits, unwraps the
// envelope and logs (to a no-op logger). Prints medians of wall time and of this process's CPU
// time per request (the server is another process, so CPU is the client's own cost and is less
// disturbed by other load on a shared machine) and their ratios; never fails on time.
import { Agent, request } from 'undici';
import { HubClient } from '../src/api/index.ts';
import { median, startBenchServer } from './client-common.mjs';

const perRound = Number(process.argv[2] ?? 500);
const rounds = Number(process.argv[3] ?? 15);
const server = await startBenchServer();
const agent = new Agent({ connections: 32 });
const token = 'bench-token';
const client = new HubClient({ baseUrl: server.origin, token, dispatcher: agent });
const db = { owner: 'o', name: 'n' };

async function raw() {
  const { statusCode, body } = await request(`${server.origin}/api/v2/databases/o/n`, {
    dispatcher: agent,
    headers: { accept: 'application/json', authorization: `Bearer ${token}`, 'user-agent': 'bench' },
  });
  const json = await body.json();
  if (statusCode !== 200 || !json.data) throw new Error('bad answer');
  return json.data;
}
const viaClient = () => client.getDatabase(db);

/** Wall and CPU milliseconds per request. */
async function measure(run, n) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await run();
  const c = process.cpuUsage(c0);
  return { wall: (performance.now() - t0) / n, cpu: (c.user + c.system) / 1000 / n };
}
const timeSequential = (fn, n) =>
  measure(async () => {
    for (let i = 0; i < n; i++) await fn();
  }, n);
const timeConcurrent = (fn, n, width) =>
  measure(async () => {
    let next = 0;
    await Promise.all(
      Array.from({ length: width }, async () => {
        while (next++ < n) await fn();
      }),
    );
  }, n);

try {
  await timeSequential(raw, 300);
  await timeSequential(viaClient, 300);
  const seq = { raw: [], client: [] };
  const par = { raw: [], client: [] };
  for (let r = 0; r < rounds; r++) {
    // Alternate the order each round so drift on a shared machine hits both sides alike.
    const order =
      r % 2
        ? [
            ['client', viaClient],
            ['raw', raw],
          ]
        : [
            ['raw', raw],
            ['client', viaClient],
          ];
    for (const [name, fn] of order) seq[name].push(await timeSequential(fn, perRound));
    for (const [name, fn] of order) par[name].push(await timeConcurrent(fn, perRound, 16));
  }
  const fmt = (ms) => `${(ms * 1000).toFixed(1)} µs`;
  console.log(`client-overhead: ${rounds} rounds × ${perRound} GET /databases/o/n on loopback (median per request)`);
  for (const [label, runs] of [
    ['sequential', seq],
    ['16 concurrent', par],
  ]) {
    for (const k of ['wall', 'cpu']) {
      const raw = median(runs.raw.map((x) => x[k]));
      const cl = median(runs.client.map((x) => x[k]));
      console.log(`  ${label.padEnd(14)} ${k.padEnd(4)}  raw undici ${fmt(raw)}   HubClient ${fmt(cl)}   ratio ${(cl / raw).toFixed(3)}×`);
    }
  }
} finally {
  await agent.close();
  server.stop();
}
