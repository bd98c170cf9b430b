// Upload throughput and peak memory of HubClient.uploadImport against raw parallel PUTs.
// Run: node --import tsx bench/upload.mjs [sizeMiB=512] [rounds=3]
// A 512 MiB file is generated once in the temp directory; the storage server runs in its own
// process; each measured upload runs in a fresh child process so peak RSS (getrusage maxRSS)
// belongs to that upload alone. Baselines: 4 workers × 5 MiB parts read with positional reads
// and PUT with undici, once without and once with the per-part MD5 the import needs.
// Prints medians and ratios; never fails on time.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { open, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { median, startBenchServer } from './client-common.mjs';

const PART = 5 * 1024 * 1024;
const WORKERS = 4;

if (process.argv[2] === '--child') {
  const [, , , variant, origin, file] = process.argv;
  const size = (await stat(file)).size;
  // Loaded (and transpiled) before the baseline, so only the upload itself is measured.
  const { HubClient } = await import('../src/api/index.ts');
  const baselineRss = process.memoryUsage().rss;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  if (variant === 'client') {
    const client = new HubClient({ baseUrl: origin, token: 'bench' });
    const r = await client.uploadImport({ db: { owner: 'o', name: 'n' }, file, fileType: 'csv' });
    if (r.completed_parts.length !== Math.ceil(size / PART)) throw new Error('parts missing');
  } else {
    await rawUpload(origin, file, size, variant === 'raw-md5');
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const peakRss = process.resourceUsage().maxRSS * 1024;
  console.log(JSON.stringify({ ms, cpuMs, baselineRss, peakRss, size }));
  process.exit(0);
}

async function rawUpload(origin, file, size, withMd5) {
  const numParts = Math.ceil(size / PART);
  const { body } = await request(`${origin}/api/v2/databases/o/n/imports/uploads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
    body: JSON.stringify({ content_length: size, num_parts: numParts, file_type: 'csv' }),
  });
  const session = (await body.json()).data;
  const fh = await open(file, 'r');
  const etags = new Array(numParts);
  let next = 0;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      for (let i = next++; i < numParts; i = next++) {
        const len = Math.min(PART, size - i * PART);
        const buf = Buffer.allocUnsafeSlow(len);
        await fh.read(buf, 0, len, i * PART);
        if (withMd5) createHash('md5').update(buf).digest('base64');
        const u = new URL(session.parts[i].url);
        const res = await request(u, { method: 'PUT', body: buf });
        await res.body.dump();
        etags[i] = res.headers.etag;
      }
    }),
  );
  await fh.close();
}

async function ensureFile(sizeMiB) {
  const file = join(tmpdir(), `vdb-bench-upload-${sizeMiB}.bin`);
  const want = sizeMiB * 1024 * 1024;
  try {
    if ((await stat(file)).size === want) return file;
  } catch {
    // generate below
  }
  const fh = await open(file, 'w');
  const block = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < block.length; i += 64) createHash('sha512').update(String(i)).digest().copy(block, i);
  for (let off = 0; off < want; off += block.length) {
    block.writeUInt32LE(off >>> 0, 0);
    await fh.write(block, 0, block.length, off);
  }
  await fh.close();
  return file;
}

const sizeMiB = Number(process.argv[2] ?? 512);
const rounds = Number(process.argv[3] ?? 3);
const file = await ensureFile(sizeMiB);
const server = await startBenchServer();
const self = fileURLToPath(import.meta.url);
const results = { raw: [], 'raw-md5': [], client: [] };
try {
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? ['client', 'raw-md5', 'raw'] : ['raw', 'raw-md5', 'client'];
    for (const variant of order) {
      const out = spawnSync(process.execPath, ['--import', 'tsx', self, '--child', variant, server.origin, file], { encoding: 'utf8' });
      if (out.status !== 0) throw new Error(`${variant} failed: ${out.stderr}`);
      results[variant].push(JSON.parse(out.stdout.trim().split('\n').at(-1)));
    }
  }
} finally {
  server.stop();
}

const MB = 1024 * 1024;
const summary = Object.fromEntries(
  Object.entries(results).map(([k, runs]) => [
    k,
    {
      ms: median(runs.map((x) => x.ms)),
      cpuMs: median(runs.map((x) => x.cpuMs)),
      extraMb: median(runs.map((x) => (x.peakRss - x.baselineRss) / MB)),
    },
  ]),
);
const line = (name, s) =>
  `  ${name.padEnd(34)} ${(s.ms / 1000).toFixed(2)} s  ${((sizeMiB / s.ms) * 1000).toFixed(0).padStart(4)} MiB/s  CPU ${(s.cpuMs / 1000).toFixed(2)} s  peak RSS +${s.extraMb.toFixed(0)} MB`;
console.log(`upload: ${sizeMiB} MiB file, 5 MiB parts, 4 workers, loopback storage, median of ${rounds}`);
console.log(line('raw parallel PUTs', summary.raw));
console.log(line('raw parallel PUTs + part MD5', summary['raw-md5']));
console.log(line('HubClient.uploadImport', summary.client));
console.log(
  `  time ratio vs raw+MD5 ${(summary.client.ms / summary['raw-md5'].ms).toFixed(3)}×   vs raw ${(summary.client.ms / summary.raw.ms).toFixed(3)}×`,
);
console.log(
  `  CPU ratio vs raw+MD5 ${(summary.client.cpuMs / summary['raw-md5'].cpuMs).toFixed(3)}×   vs raw ${(summary.client.cpuMs / summary.raw.cpuMs).toFixed(3)}×`,
);
console.log(`  peak memory above baseline: client +${summary.client.extraMb.toFixed(0)} MB, raw +${summary.raw.extraMb.toFixed(0)} MB`);
