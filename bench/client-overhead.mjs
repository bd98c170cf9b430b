// Per-request overhead of HubClient against a raw undici request on loopback.
// Run: node --import tsx bench/client-overhead.mjs [requestsPerRound=1000] [rounds=7]
// Both sides use the same keep-alive undici Agent, send the same headers and parse the same JSON;
// the client additionally escapes paths, resolves the token, checks size limits, unwraps the
// envelope and logs (to a no-op logger). Prints medians and the ratio; never fails on time.
import { Agent, request } from 'undici';
import { HubClient } from '../src/api/index.ts';
import { median, startBenchServer } from './client-common.mjs';

const perRound = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 7);
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

async function timeSequential(fn, n) {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn();
  return (performance.now() - t0) / n;
}
async function timeConcurrent(fn, n, width) {
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => { while (next++ < n) await fn(); }));
  return (performance.now() - t0) / n;
}

try {
  await timeSequential(raw, 300);
  await timeSequential(viaClient, 300);
  const seq = { raw: [], client: [] };
  const par = { raw: [], client: [] };
  for (let r = 0; r < rounds; r++) {
    // Alternate the order each round so drift on a shared machine hits both sides alike.
    const order = r % 2 ? [['client', viaClient], ['raw', raw]] : [['raw', raw], ['client', viaClient]];
    for (const [name, fn] of order) seq[name].push(await timeSequential(fn, perRound));
    for (const [name, fn] of order) par[name].push(await timeConcurrent(fn, perRound, 16));
  }
  const fmt = (ms) => `${(ms * 1000).toFixed(1)} µs`;
  const s = { raw: median(seq.raw), client: median(seq.client) };
  const p = { raw: median(par.raw), client: median(par.client) };
  console.log(`client-overhead: ${rounds} rounds × ${perRound} GET /databases/o/n on loopback (median per request)`);
  console.log(`  sequential      raw undici ${fmt(s.raw)}   HubClient ${fmt(s.client)}   ratio ${(s.client / s.raw).toFixed(3)}×`);
  console.log(`  16 concurrent   raw undici ${fmt(p.raw)}   HubClient ${fmt(p.client)}   ratio ${(p.client / p.raw).toFixed(3)}×`);
} finally {
  await agent.close();
  server.stop();
}
