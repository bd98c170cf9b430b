// Streamed export of a whole query result (Load All Rows → Export) from the local hub, against a
// direct DoltLite dump of the same rows. Issue #14: "Export of the 1M rows: time against a direct
// DoltLite dump of the same rows, extension RSS ≤ +100 MB".
//
//   npm run bench -- export                 # under the shared lock: flock /tmp/heavy.lock npm run bench -- export
//   npm run bench -- export --rows=200000   # a smaller table
//
// Setup: a hub (`dist/hub.js serve`, its default --max-rows of 10,000) with a 10-column,
// 1,000,000-row table `big`, committed on main (built with DoltLite straight into the hub's file,
// then the hub restarted; an import through the API takes minutes and is measured by bench/hub.mjs).
//
// - extension path, in a child process standing in for the extension host: what the notebook
//   does after Load All Rows → Export: runs `SELECT * FROM big` with a row limit of 60,000 (the
//   hub stops it at 10,000), pins main's commit, pages the query with the real page source
//   (src/core/paging/querySource.ts: `SELECT * FROM (…) AS q LIMIT … OFFSET …` over HTTP with
//   the real HubClient), and writes CSV with the real writer into a pending file renamed into
//   place (src/core/export/). Its RSS is sampled every 20 ms: growth = peak − RSS after the
//   modules were loaded.
// - baseline, in its own child: DoltLite loads the same file, steps the same SELECT once and
//   writes the rows with the same CSV writer into the same kind of pending file.
// - the hub's memory while it serves the export: its RSS sampled every 100 ms, peak during the
//   export minus its RSS just before.
// The two CSV files must be byte-identical (checked by SHA-256). Prints figures and ratios; never
// fails on time.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const HUB = join(ROOT, 'dist', 'hub.js');
const self = fileURLToPath(import.meta.url);
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const COLUMNS = 'id bigint PRIMARY KEY, name varchar(64), category varchar(16), qty int, price double, ratio double, created datetime, flag tinyint, note text, code varchar(8)';
const QUERY = 'SELECT * FROM big';

if (process.argv[2] === '--build') await build(process.argv[3], Number(process.argv[4]));
else if (process.argv[2] === '--direct') await directDump(process.argv[3], process.argv[4]);
else if (process.argv[2] === '--extension') await extensionExport(process.argv[3], process.argv[4], process.argv[5]);
else await main(Number(arg('rows') ?? 1_000_000));

// ------------------------------------------------------------------ the run

async function main(rows) {
  const dir = mkdtempSync(join(tmpdir(), 'vdb-export-bench-'));
  let hub = await startHub(join(dir, 'hub'));
  try {
    await api(hub, 'POST', '/databases', { owner: 'bench', name: 'b', visibility: 'public' });
    const dbFile = join(hub.dataDir, 'databases', 'bench', 'b.db');
    console.log(`building ${rows.toLocaleString('en')} rows × 10 columns in ${dbFile} …`);
    const built = child(['--build', dbFile, String(rows)]);
    console.log(`built in ${fmtMs((await built).ms)}`);
    // Written behind the hub's back: restart it, so its caches (branch heads) start from the file.
    await hub.stop();
    hub = await startHub(hub.dataDir, hub.token);
    const count = await api(hub, 'POST', '/databases/bench/b/sql', { ref: 'main', q: 'SELECT COUNT(*) FROM big' });
    if (count.rows?.[0]?.[0] !== String(rows)) throw new Error(`the hub does not see the table: ${JSON.stringify(count)}`);
    // Warm the hub's workers (each loads the file once), as a user's first query would.
    await api(hub, 'POST', '/databases/bench/b/sql', { ref: 'main', q: 'SELECT * FROM big LIMIT 1' });

    const directOut = join(dir, 'direct.csv');
    const direct = await child(['--direct', dbFile, directOut]);
    console.log('direct', direct);

    const extOut = join(dir, 'extension.csv');
    const hubBefore = hub.rssMB();
    hub.resetPeak();
    const ext = await child(['--extension', hub.url, hub.token, extOut], ['--import', 'tsx', '--expose-gc']);
    const hubPeak = hub.peakMB();
    console.log('extension', ext);

    const [a, b] = await Promise.all([sha256(directOut), sha256(extOut)]);
    if (a !== b) throw new Error(`the two exports differ: ${directOut} ${extOut}`);
    const mb = (statSync(extOut).size / 1024 / 1024).toFixed(0);
    console.log(`\nBoth files: ${ext.rows.toLocaleString('en')} rows, ${mb} MiB, identical (sha256 ${a.slice(0, 12)}…)`);
    console.log('\n| path | time | ratio | memory |');
    console.log('|---|---|---|---|');
    console.log(`| direct DoltLite dump (baseline) | ${fmtMs(direct.ms)} | 1.00× | peak RSS ${direct.maxRssMB.toFixed(0)} MB |`);
    console.log(
      `| extension: Load All Rows pages (${ext.pages} × ${ext.pageSize.toLocaleString('en')} rows) → CSV | ${fmtMs(ext.ms)} | ${(ext.ms / direct.ms).toFixed(2)}× | RSS +${ext.growthMB.toFixed(0)} MB over idle (${ext.idleMB.toFixed(0)} → ${ext.peakMB.toFixed(0)} MB) |`,
    );
    console.log(`| hub serving it | | | RSS ${hubBefore.toFixed(0)} MB before, peak ${hubPeak.toFixed(0)} MB during (+${(hubPeak - hubBefore).toFixed(0)} MB) |`);
  } finally {
    await hub.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------ children

/** Loads the hub's file, adds the table and its rows, commits, writes it back atomically. */
async function build(file, rows) {
  const t0 = performance.now();
  const { sqlite3, load, save } = await engine();
  load(file, '/b.db');
  const db = new sqlite3.oo1.DB('/b.db', 'c');
  db.exec(`CREATE TABLE big (${COLUMNS})`);
  db.exec('BEGIN');
  const st = db.prepare('INSERT INTO big VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const cats = ['fruit', 'vegetable', 'dairy', 'bakery', 'meat'];
  for (let i = 1; i <= rows; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    st.bind([i, `item ${i}`, cats[i % 5], i % 1000, (i % 99991) / 7, i / 3, `2026-0${1 + (i % 9)}-${day} 12:${String(i % 60).padStart(2, '0')}:00`, i % 2, i % 13 === 0 ? null : `note, "quoted" ${i}`, `C${i % 4096}`]).step();
    st.reset();
  }
  st.finalize();
  db.exec('COMMIT');
  db.exec("SELECT dolt_commit('-A', '-m', 'export bench table')");
  save(db, file);
  db.close();
  reply({ ms: performance.now() - t0 });
}

/** The baseline: one SELECT over the file, rows in pages into the same CSV writer. */
async function directDump(dbFile, out) {
  const { sqlite3, load } = await engine();
  const { createExportWriter } = await import('../src/core/export/exportWriters.ts');
  const { createPendingFile, runExport } = await import('../src/core/export/exportRun.ts');
  load(dbFile, '/b.db');
  const t0 = performance.now();
  const db = new sqlite3.oo1.DB('/b.db@main', 'r');
  const stmt = db.prepare(QUERY);
  const n = stmt.columnCount;
  const columns = Array.from({ length: n }, (_, i) => ({ name: stmt.getColumnName(i), type: '' }));
  const { capi } = sqlite3;
  async function* pages() {
    let page = [];
    while (stmt.step()) {
      const row = new Array(n);
      for (let i = 0; i < n; i++) {
        const t = capi.sqlite3_column_type(stmt.pointer, i);
        row[i] = t === 5 ? null : t === 4 ? '<binary>' : capi.sqlite3_column_text(stmt.pointer, i);
      }
      page.push(row);
      if (page.length === 10_000) {
        yield page;
        page = [];
      }
    }
    if (page.length) yield page;
  }
  const file = await createPendingFile(out);
  const rows = await runExport({ pages: pages(), writer: createExportWriter('csv', columns, file), file });
  stmt.finalize();
  db.close();
  reply({ ms: performance.now() - t0, rows, maxRssMB: process.resourceUsage().maxRSS / 1024 });
}

/** The extension's path after Load All Rows → Export, without the save dialog and progress UI. */
async function extensionExport(url, token, out) {
  const { HubClient } = await import('../src/api/index.ts');
  const { silentLogger } = await import('../src/core/logger.ts');
  const { QueryPageSource, loadAllPlan } = await import('../src/core/paging/querySource.ts');
  const { pagesOf } = await import('../src/core/paging/pagesOf.ts');
  const { createExportWriter } = await import('../src/core/export/exportWriters.ts');
  const { createPendingFile, runExport } = await import('../src/core/export/exportRun.ts');
  const { normalizeResult } = await import('../src/notebook/queryRunner.ts');
  globalThis.gc?.();
  const idle = process.memoryUsage().rss;
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const client = new HubClient({ baseUrl: url, token, logger: silentLogger, timeoutMs: 120_000 });
  const db = { owner: 'bench', name: 'b' };
  const t0 = performance.now();
  const main = (await client.listBranches(db)).items.find((b) => b.name === 'main');
  const first = normalizeResult(await client.runSql(db, { ref: 'main', q: QUERY, limit: 60_000, timeoutMs: 30_000 }));
  const plan = loadAllPlan({ sql: QUERY, status: first.status, columns: first.columns, commit: main.head_commit_sha });
  if (!plan.ok) throw new Error(plan.reason);
  // As LoadAllSession.exportAll: pages as large as the first response, at most 10,000 rows.
  const pageSize = Math.max(500, Math.min(first.rows.length, 10_000));
  let pages = 0;
  const source = new QueryPageSource({
    query: plan.query,
    columnCount: first.columns.length,
    run: async (q, limit, signal) => {
      pages++;
      return normalizeResult(await client.runSql(db, { ref: plan.commit, q, limit, timeoutMs: 60_000 }, { signal }));
    },
  });
  const signal = new AbortController().signal;
  const file = await createPendingFile(out);
  const rows = await runExport({ pages: pagesOf(source, { sort: [], filters: [] }, pageSize, signal), writer: createExportWriter('csv', first.columns, file), file, signal });
  const ms = performance.now() - t0;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const MB = 1024 * 1024;
  reply({ ms, rows, pages, pageSize, idleMB: idle / MB, peakMB: peak / MB, growthMB: (peak - idle) / MB });
}

// ------------------------------------------------------------------ helpers

async function engine() {
  const { default: init } = await import('@dolthub/doltlite-wasm/sqlite3-node.mjs');
  const { closeSync, fsyncSync, openSync, renameSync, writeSync } = await import('node:fs');
  const sqlite3 = await init({ print: () => {}, printErr: () => {} });
  sqlite3.config.warn = () => {};
  const load = (path, mem) => {
    const b = readFileSync(path);
    sqlite3.capi.sqlite3_js_posix_create_file(mem, new Uint8Array(b.buffer, b.byteOffset, b.length));
  };
  const save = (db, path) => {
    const bytes = sqlite3.capi.sqlite3_js_db_export(db.pointer);
    const fd = openSync(path + '.tmp', 'w');
    writeSync(fd, bytes);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(path + '.tmp', path);
  };
  return { sqlite3, load, save };
}

function reply(o) {
  process.stdout.write(JSON.stringify(o) + '\n');
}

function child(args, nodeArgs = ['--import', 'tsx']) {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [...nodeArgs, self, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    c.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${args[0]} exited ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()));
    });
  });
}

function sha256(file) {
  return new Promise((resolve, reject) => {
    const h = createHash('sha256');
    createReadStream(file)
      .on('data', (d) => h.update(d))
      .on('end', () => resolve(h.digest('hex')))
      .on('error', reject);
  });
}

async function startHub(dataDir, existingToken) {
  const cli = (args) => {
    const r = spawnSync(process.execPath, [HUB, ...args, '--data', dataDir], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    return r.stdout.trim();
  };
  if (!existingToken) cli(['user', 'add', 'bench']);
  const token = existingToken ?? cli(['token', 'create', '--user', 'bench']);
  // The hub's own default cap (--max-rows 10,000): what a user meets.
  const proc = spawn(process.execPath, [HUB, 'serve', '--data', dataDir, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((res, rej) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /Hub listening on (\S+)/.exec(out);
      if (m) res(m[1]);
    });
    proc.on('exit', (c) => rej(new Error(`hub exited ${c}`)));
  });
  const rss = () => {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  };
  let peak = 0;
  const sample = setInterval(() => {
    try {
      peak = Math.max(peak, rss());
    } catch {
      /* gone */
    }
  }, 100);
  return {
    url,
    token,
    dataDir,
    rssMB: rss,
    resetPeak: () => (peak = rss()),
    peakMB: () => Math.max(peak, rss()),
    async stop() {
      clearInterval(sample);
      const gone = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await gone;
    },
  };
}

async function api(hub, method, path, body) {
  const res = await fetch(`${hub.url}/api/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${hub.token}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const j = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(j)}`);
  return j.data;
}

function fmtMs(ms) {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}
