// Shared by the benchmarks: the loopback server of the client benchmarks and a median; and a
// local hub (dist/hub.js) started on a data folder, its API, and a CSV import to seed it.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export async function startBenchServer() {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./client-server.mjs', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const m = /PORT (\d+)/.exec(buf);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { origin: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

/** The 1, 5 and 15 minute load averages, as each benchmark prints them beside its figures. */
export function loadAverage() {
  return loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
}

/**
 * Runs `node …args` in the repository's root with stdout piped and stderr shown; resolves with the
 * last line it printed, parsed as JSON (how the benchmarks' child processes report).
 */
export function jsonChild(args) {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    c.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${args.join(' ').slice(0, 80)} exited ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()));
    });
  });
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// ------------------------------------------------------------------ the local hub

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HUB = fileURLToPath(new URL('../dist/hub.js', import.meta.url));
/** Where a seeded database lives (owner/name) in the benchmarks' hubs. */
export const BENCH_DB = { owner: 'bench', name: 'b' };

/**
 * Starts `dist/hub.js serve` on a free loopback port. Without `dataDir`, in a fresh temporary
 * folder with a user `bench` and a token (the folder goes on stop); with it, on that folder as it
 * is, signing in with `token` when given (a restart) or a new user and token otherwise. The hub's
 * RSS is sampled every 100 ms: `peakMB()` is the highest since start or `resetPeak()`.
 */
export async function startHub({ dataDir, token, serveArgs = [] } = {}) {
  const owned = !dataDir;
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'vdb-bench-hub-'));
  const cli = (args) => {
    const r = spawnSync(process.execPath, [HUB, ...args, '--data', dir], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`hub ${args.join(' ')}: ${r.stderr}`);
    return r.stdout.trim();
  };
  if (!token) {
    cli(['user', 'add', 'bench']);
    token = cli(['token', 'create', '--user', 'bench']);
  }
  const prof = process.env.BENCH_HUB_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_HUB_PROF] : [];
  const proc = spawn(process.execPath, [...prof, HUB, 'serve', '--data', dir, '--port', '0', ...serveArgs], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((res, rej) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /Hub listening on (\S+)/.exec(out);
      if (m) res(m[1]);
    });
    proc.on('exit', (c) => rej(new Error(`hub exited ${c}`)));
  });
  const rssMB = () => {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  };
  let peak = 0;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rssMB());
    } catch {
      /* gone */
    }
  }, 100);
  return {
    url,
    token,
    dataDir: dir,
    rssMB,
    resetPeak: () => (peak = rssMB()),
    peakMB: () => Math.max(peak, rssMB()),
    async stop() {
      clearInterval(sampler);
      if (proc.exitCode === null && proc.signalCode === null) {
        const gone = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await gone;
      }
      if (owned) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One call of the hub's API v2 with plain fetch; the envelope's `data`, or an error. */
/**
 * A temporary folder (`dir`, the caller removes it) with a hub started on its `hub` subfolder, and
 * the file the seeded database `BENCH_DB` will live in; prints the load average at the start.
 */
export async function benchHub(prefix, serveArgs = []) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const dataDir = join(dir, 'hub');
  mkdirSync(dataDir);
  const hub = await startHub({ dataDir, serveArgs });
  console.log(`load average ${loadAverage()}`);
  return { dir, dataDir, hub, dbFile: join(dataDir, 'databases', BENCH_DB.owner, `${BENCH_DB.name}.db`) };
}

export async function hubApi(hub, method, path, body, signal) {
  const res = await fetch(`${hub.url}/api/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${hub.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** Polls an operation until it ends; resolves with it whether it succeeded or failed. */
export async function waitForOperation(hub, id) {
  for (let wait = 20; ; wait = Math.min(wait * 2, 1000)) {
    const op = await hubApi(hub, 'GET', `/operations/${encodeURIComponent(id)}`);
    if (op.status === 'succeeded' || op.status === 'failed') return op;
    await new Promise((r) => setTimeout(r, wait));
  }
}

const PART = 5 * 1024 * 1024;

/**
 * Imports CSV bytes into a table of BENCH_DB through the API (upload in 5 MiB parts, then the
 * import operation) and resolves with the ended operation.
 */
export async function importCsv(hub, data, { table, operation = 'create', branch = 'main', primaryKeys = ['id'] }) {
  const base = `/databases/${BENCH_DB.owner}/${BENCH_DB.name}`;
  const parts = Math.max(1, Math.ceil(data.length / PART));
  const s = await hubApi(hub, 'POST', `${base}/imports/uploads`, { content_length: data.length, num_parts: parts, file_type: 'csv' });
  const md5s = [];
  const completed = [];
  for (const p of s.parts) {
    const chunk = data.subarray((p.part_number - 1) * PART, Math.min(data.length, p.part_number * PART));
    md5s[p.part_number - 1] = createHash('md5').update(chunk).digest('base64');
    const res = await fetch(p.url, { method: 'PUT', body: chunk });
    if (!res.ok) throw new Error(`part ${p.part_number}: ${res.status}`);
    completed.push({ part_number: p.part_number, etag: res.headers.get('etag') });
  }
  const ref = await hubApi(hub, 'POST', `${base}/imports`, {
    branch_name: branch,
    table_name: table,
    file_name: `${table}.csv`,
    file_size: data.length,
    file_type: 'csv',
    import_operation: operation,
    token: s.token,
    contents_key: s.contents_key,
    completed_parts: completed,
    file_parts_md5: createHash('md5').update(md5s.join('')).digest('base64'),
    primary_keys: primaryKeys,
  });
  return waitForOperation(hub, ref.id);
}

/** `items` (id, name, price, category) of `rows` rows as CSV, prices shifted by `priceShift` (bench/pullDiff.mjs, changesExport.mjs). */
export function itemsCsv(rows, priceShift) {
  const cats = ['fruit', 'vegetable', 'dairy', 'bakery', 'meat'];
  const out = ['id,name,price,category'];
  for (let i = 1; i <= rows; i++) out.push(`${i},item-${i},${((i % 997) + priceShift + 0.25).toFixed(2)},${cats[i % 5]}`);
  return Buffer.from(`${out.join('\n')}\n`);
}

/** Imports `items` through the API; throws when the import fails. */
export async function importItems(hub, data, operation, branch) {
  const op = await importCsv(hub, data, { table: 'items', operation, branch });
  if (op.status !== 'succeeded') throw new Error(`import into ${branch}: ${JSON.stringify(op.error)}`);
}

/** A prepared DoltLite statement's rows as text (NULL as null, a blob as `<binary>`), `size` at a time: a direct dump's reader. */
export async function* steppedPages(sqlite3, stmt, size) {
  const { capi } = sqlite3;
  const n = stmt.columnCount;
  let page = [];
  while (stmt.step()) {
    const row = new Array(n);
    for (let i = 0; i < n; i++) {
      const t = capi.sqlite3_column_type(stmt.pointer, i);
      row[i] = t === 5 ? null : t === 4 ? '<binary>' : capi.sqlite3_column_text(stmt.pointer, i);
    }
    page.push(row);
    if (page.length === size) {
      yield page;
      page = [];
    }
  }
  if (page.length) yield page;
}

/**
 * Host-side modules of src/ bundled as the extension ships them (esbuild, one file), imported:
 * what a bench measures of the host is then the bundle's cost, not tsx's per-import getters.
 * `exports` is the entry's source, e.g. "export { HubClient } from './src/api/hubClient';".
 */
export async function hostBundle(exports) {
  const { build } = await import('esbuild');
  const dir = mkdtempSync(join(tmpdir(), 'vdb-hostbundle-'));
  const outfile = join(dir, 'host.mjs');
  await build({
    stdin: { contents: exports, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // undici (in the API client) requires Node built-ins: give the ESM bundle a require.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    outfile,
  });
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
