// A CSV imported into the local hub through the extension's own path (src/commands/importFile.ts:
// local preview and checks, HubClient.uploadImport, createImport, polling), against a raw loopback
// copy of the same bytes (one streamed HTTP PUT to a sink that writes them to disk).
// Run: node --import tsx bench/import.mjs [sizeMB=200]
//
// The hub and the sink each run in their own process. The extension's path runs in a fresh child
// process (standing in for the extension host) whose RSS is sampled every 20 ms: "peak above idle"
// is the highest sample minus the RSS after the modules were loaded, before the import started.
// Prints times, ratios and memory; never fails on time.
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);

// ------------------------------------------------------------------------------------------------
// Child: the extension's path.
if (process.argv[2] === '--child') {
  const [, , , hubUrl, token, file, owner, name] = process.argv;
  const { HubClient } = await import('../src/api/index.ts');
  const { importFile } = await import('../src/commands/importFile.ts');
  const { runOperation } = await import('../src/commands/operationsRunner.ts');
  const { ImportScriptedUi } = await import('../test/integration/importScriptedUi.ts');
  const { silentLogger } = await import('../src/core/logger.ts');
  globalThis.gc?.();
  const idleRss = process.memoryUsage().rss;
  let peakRss = idleRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  const db = { owner, name };
  const client = new HubClient({ baseUrl: hubUrl, token, logger: silentLogger, timeoutMs: 120_000 });
  const marks = { start: performance.now() };
  const ui = new ImportScriptedUi({
    'Import bench.csv: file type': 'csv',
    'Import: branch': '$(git-branch) main',
    'Import: table': '$(add) bench',
    'Import: operation': 'create',
    'Import: primary key': ['id'],
    'Import: column map': '$(check) Continue',
    'Commit message': '',
    'Import: where should': '$(git-pull-request) Open a pull request',
    'Import: pull request branch': '',
  });
  ui.onProgress = (m) => {
    if (/^0 B of/.test(m) && marks.uploadStart === undefined) marks.uploadStart = performance.now();
  };
  const deps = {
    ui,
    log: silentLogger,
    clients: {
      hosts: () => [{ id: 'hub', label: 'hub', siteUrl: hubUrl }],
      host: () => ({ id: 'hub' }),
      labelOf: () => 'hub',
      clientFor: () => client,
    },
    accounts: { activeAccount: () => ({ id: 'hub#alice', hostId: 'hub', username: 'alice', kind: 'token', signedInAt: '' }) },
    databases: { list: () => [db], hostIds: () => ['hub'] },
    tree: { refreshDatabase: () => undefined },
    operations: {
      run: (o) =>
        runOperation({
          start: async (signal) => {
            marks.uploadEnd = performance.now();
            return o.start(signal);
          },
          waiter: o.client,
          signal: new AbortController().signal,
        }),
      showFailure: async (_w, e) => console.error(`import failed: ${e.title} ${e.detail ?? ''}`),
    },
    signIn: async () => undefined,
    pickFile: async () => undefined,
    showPreview: async () => undefined,
    openPull: async () => undefined,
  };
  const result = await importFile(deps, { filePath: file });
  marks.end = performance.now();
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  if (result.kind !== 'imported') throw new Error(`import ended ${result.kind}: ${ui.messages.join(' | ')}`);
  console.log(
    JSON.stringify({
      previewMs: marks.uploadStart - marks.start,
      uploadMs: marks.uploadEnd - marks.uploadStart,
      importMs: marks.end - marks.uploadEnd,
      totalMs: marks.end - marks.start,
      idleRss,
      peakRss,
      pullNumber: result.pullNumber,
    }),
  );
  process.exit(0);
}

// ------------------------------------------------------------------------------------------------
// Sink: a loopback HTTP server that writes what it receives to a file.
if (process.argv[2] === '--sink') {
  const out = process.argv[3];
  const server = createServer((req, res) => {
    const w = createWriteStream(out);
    req.pipe(w);
    w.on('finish', () => res.end('ok'));
  });
  server.listen(0, '127.0.0.1', () => console.log(`PORT ${server.address().port}`));
}

// ------------------------------------------------------------------------------------------------
// Driver.
else {
  const sizeMB = Number(process.argv[2] ?? 200);
  const file = join(tmpdir(), `vdb-bench-import-${sizeMB}MB`, 'bench.csv');
  ensureCsv(file, sizeMB * 1000 * 1000);
  const size = statSync(file).size;
  const rows = countRows(file);

  // Raw loopback copy: median of 3.
  const sinkFile = join(tmpdir(), `vdb-bench-sink-${process.pid}.bin`);
  const sink = spawn(process.execPath, [self, '--sink', sinkFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve) => {
    let buf = '';
    sink.stdout.on('data', (d) => {
      buf += d;
      const m = /PORT (\d+)/.exec(buf);
      if (m) resolve(Number(m[1]));
    });
  });
  const raw = [];
  for (let i = 0; i < 3; i++) raw.push(await rawCopy(file, port));
  sink.kill();
  spawnSync('rm', ['-f', sinkFile]);
  const rawMs = raw.sort((a, b) => a - b)[1];

  // The extension's path into a real hub.
  const { startHub } = await import('../test/helpers/hub.ts');
  const hub = await startHub({ users: ['alice'] });
  let child;
  try {
    const token = await hub.token('alice');
    const name = `bench_${Date.now().toString(36)}`;
    const res = await hub.fetch('/databases', { user: 'alice', json: { owner: 'alice', name, visibility: 'public' } });
    if (res.status !== 201) throw new Error(`create database: ${res.status} ${res.text}`);
    const out = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, '--child', hub.url, token, file, 'alice', name], {
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    if (out.status !== 0) throw new Error(`extension path failed: ${out.stderr}`);
    child = JSON.parse(out.stdout.trim().split('\n').at(-1));
  } finally {
    await hub.stop();
  }

  const MB = 1000 * 1000;
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`import: ${(size / MB).toFixed(0)} MB CSV, ${rows.toLocaleString('en-US')} rows, create + pull request, hub on loopback`);
  console.log(`  raw loopback copy (1 streamed PUT, median of 3)  ${s(rawMs)}  ${((size / MB / rawMs) * 1000).toFixed(0)} MB/s`);
  console.log(`  extension path: preview + checks                  ${s(child.previewMs)}`);
  console.log(
    `  extension path: upload (5 MiB parts x 4)          ${s(child.uploadMs)}  ${((size / MB / child.uploadMs) * 1000).toFixed(0)} MB/s`,
  );
  console.log(
    `  extension path: import operation (hub)            ${s(child.importMs)}  ${Math.round(rows / (child.importMs / 1000)).toLocaleString('en-US')} rows/s`,
  );
  console.log(`  extension path: total                             ${s(child.totalMs)}`);
  console.log(`  upload / raw copy ${(child.uploadMs / rawMs).toFixed(2)}x   total / raw copy ${(child.totalMs / rawMs).toFixed(2)}x`);
  console.log(
    `  extension-side peak RSS above idle: +${((child.peakRss - child.idleRss) / (1024 * 1024)).toFixed(0)} MiB (idle ${(child.idleRss / (1024 * 1024)).toFixed(0)} MiB)`,
  );
}

function ensureCsv(file, bytes) {
  if (existsSync(file) && statSync(file).size >= bytes) return;
  spawnSync('mkdir', ['-p', join(file, '..')]);
  // Deterministic rows: id, a name, a decimal, a date, a sentence.
  const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
  const chunks = ['id,name,amount,day,note\n'];
  let written = chunks[0].length;
  let id = 0;
  const parts = [];
  while (written < bytes) {
    id++;
    const w = words[id % 10];
    const line = `${id},${w}_${id % 9973},${(id % 100000) / 100},2024-${String((id % 12) + 1).padStart(2, '0')}-${String((id % 28) + 1).padStart(2, '0')},"${w} ${words[(id * 7) % 10]} ${words[(id * 3) % 10]} number ${id}"\n`;
    parts.push(line);
    written += line.length;
    if (parts.length === 50_000) {
      chunks.push(parts.join(''));
      parts.length = 0;
    }
  }
  chunks.push(parts.join(''));
  writeFileSync(file, chunks.join(''));
}

function countRows(file) {
  const out = spawnSync('wc', ['-l', file], { encoding: 'utf8' });
  return Number(out.stdout.trim().split(/\s+/)[0]) - 1;
}

function rawCopy(file, port) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(
      { host: '127.0.0.1', port, method: 'PUT', path: '/', headers: { 'content-length': statSync(file).size } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(performance.now() - t0));
      },
    );
    req.on('error', reject);
    createReadStream(file).pipe(req);
  });
}
