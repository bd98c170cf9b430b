// The local hub against DoltLite used directly, on the same data:
//   sql     a read query at a branch over HTTP vs the same query on the same file in-process
//   import  a CSV (default 1,000,000 rows) uploaded + imported vs inserting the rows directly
//   merge   merging a pull whose branch changed every one of N rows (default 100,000) vs dolt_merge
//   diff    Dolt's DOLT_DIFF('main', 'changed', 'items') over HTTP, 10% of N rows (default 100,000)
//           changed on the branch, vs DoltLite's own dolt_diff_items('main', 'changed') in-process
// Run: npm run build && node bench/hub.mjs [sql|import|merge|diff|all]
//   env BENCH_SQL_ROWS (100000), BENCH_SQL_RUNS (20), BENCH_IMPORT_ROWS (1000000), BENCH_MERGE_ROWS (100000),
//   BENCH_DIFF_ROWS (100000), BENCH_DIFF_RUNS (10)
// Prints times, ratios and peak memory (hub process VmHWM; direct: the child's max RSS).
// Never fails on time. Direct runs happen in a child process so their memory is measured alone.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  fsyncSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const HUB = join(ROOT, 'dist', 'hub.js');
const PART = 5 * 1024 * 1024;

if (process.argv[2] === '--direct') {
  await direct(process.argv[3], process.argv.slice(4));
  process.exit(0);
}

const which = process.argv[2] ?? 'all';
const env = (k, d) => Number(process.env[k] ?? d);
const results = [];
if (which === 'sql' || which === 'all') results.push(await benchSql(env('BENCH_SQL_ROWS', 100000), env('BENCH_SQL_RUNS', 20)));
if (which === 'import' || which === 'all') results.push(await benchImport(env('BENCH_IMPORT_ROWS', 1000000)));
if (which === 'merge' || which === 'all') results.push(await benchMerge(env('BENCH_MERGE_ROWS', 100000)));
if (which === 'diff' || which === 'all') results.push(await benchDiff(env('BENCH_DIFF_ROWS', 100000), env('BENCH_DIFF_RUNS', 10)));
console.log('\n| scenario | hub | direct | ratio (hub / direct) | hub peak RSS | direct peak RSS |');
console.log('|---|---|---|---|---|---|');
for (const r of results) {
  console.log(
    `| ${r.name} | ${fmtMs(r.hubMs)} | ${fmtMs(r.directMs)} | ${(r.hubMs / r.directMs).toFixed(2)}x | ${r.hubRssMB.toFixed(0)} MB | ${r.directRssMB.toFixed(0)} MB |`,
  );
}

// ------------------------------------------------------------------ scenarios

async function benchSql(rows, runs) {
  const hub = await startHub();
  try {
    await setupTable(hub, rows);
    const q = 'SELECT category, count(*) AS n, avg(price) AS avg_price, max(name) AS last FROM items GROUP BY category ORDER BY category';
    // Hub and direct runs alternate, so both see the same machine load.
    const d = startDirectServer([join(hub.dataDir, 'databases', 'bench', 'b.db'), q]);
    await hubSql(hub, q); // warm: each engine worker loads the file once
    await hubSql(hub, q);
    await d.run();
    const hubTimes = [];
    const directTimes = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const r = await hubSql(hub, q);
      hubTimes.push(performance.now() - t0);
      if (r.status !== 'success') throw new Error(JSON.stringify(r));
      directTimes.push(await d.run());
    }
    const directRssMB = await d.stop();
    const res = {
      name: `SQL read at a branch (${rows.toLocaleString('en')} rows, GROUP BY, median of ${runs}, alternating)`,
      hubMs: median(hubTimes),
      directMs: median(directTimes),
      hubRssMB: hub.peakMB(),
      directRssMB,
    };
    console.log(res);
    return res;
  } finally {
    await hub.stop();
  }
}

async function benchDiff(rows, runs) {
  const hub = await startHub();
  try {
    await setupTable(hub, rows);
    await api(hub, 'POST', '/databases/bench/b/branches', { name: 'changed', from: { branch: 'main' } });
    // Every tenth row gets a new price on the branch: 10% of the rows changed.
    const changed = ['id,name,price,category'];
    const cats = ['fruit', 'vegetable', 'dairy', 'bakery', 'meat'];
    for (let i = 10; i <= rows; i += 10) changed.push(`${i},item-${i},${((i % 997) + 1000.5).toFixed(2)},${cats[i % 5]}`);
    const op = await importCsv(hub, Buffer.from(changed.join('\n') + '\n'), 'items', 'update', 'changed', ['id']);
    if (op.status !== 'succeeded') throw new Error(JSON.stringify(op));
    const expected = rows / 10;
    const hubQ = "SELECT * FROM DOLT_DIFF('main', 'changed', 'items')";
    const directQ = "SELECT * FROM dolt_diff_items('main', 'changed')";
    const d = startDirectServer([join(hub.dataDir, 'databases', 'bench', 'b.db'), directQ]);
    const hubRun = async () => {
      const r = await api(hub, 'POST', '/databases/bench/b/sql', { ref: 'main', q: hubQ, limit: expected + 1 });
      if (r.status !== 'success' || r.rows.length !== expected)
        throw new Error(`hub diff: ${r.status} ${r.message ?? ''} ${r.rows.length} rows`);
    };
    await hubRun(); // warm: each engine worker loads the file once
    await hubRun();
    await d.run();
    const hubTimes = [];
    const directTimes = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await hubRun();
      hubTimes.push(performance.now() - t0);
      directTimes.push(await d.run());
    }
    const directRssMB = await d.stop();
    const res = {
      name: `DOLT_DIFF of ${rows.toLocaleString('en')} rows, ${expected.toLocaleString('en')} changed (median of ${runs}, alternating)`,
      hubMs: median(hubTimes),
      directMs: median(directTimes),
      hubRssMB: hub.peakMB(),
      directRssMB,
    };
    console.log(res);
    return res;
  } finally {
    await hub.stop();
  }
}

/** A child that loads the file once, then runs the query once per "run" line, answering its time. */
function startDirectServer(args) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--direct', 'sql-server', ...args], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let buf = '';
  const waiters = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      waiters.shift()?.(JSON.parse(line));
    }
  });
  const ask = (cmd) =>
    new Promise((res) => {
      waiters.push(res);
      child.stdin.write(cmd + '\n');
    });
  return {
    run: async () => (await ask('run')).ms,
    stop: async () => {
      const r = await ask('stop');
      child.stdin.end();
      return r.maxRssMB;
    },
  };
}

async function benchImport(rows) {
  const hub = await startHub();
  try {
    await createDb(hub);
    const csv = makeCsv(rows, 0);
    const t0 = performance.now();
    const op = await importCsv(hub, csv, 'items', 'create', 'main', ['id']);
    const hubMs = performance.now() - t0;
    if (op.status !== 'succeeded') throw new Error(JSON.stringify(op));
    const file = join(hub.dataDir, 'bench.csv');
    writeFileSync(file, csv);
    const d = runDirect('insert', [file, join(hub.dataDir, 'direct.db')]);
    const res = {
      name: `Import a ${rows.toLocaleString('en')}-row CSV (${(csv.length / 1048576).toFixed(1)} MiB; upload + parse + insert + commit)`,
      hubMs,
      directMs: d.ms,
      hubRssMB: hub.peakMB(),
      directRssMB: d.maxRssMB,
    };
    console.log(res);
    return res;
  } finally {
    await hub.stop();
  }
}

async function benchMerge(rows) {
  const hub = await startHub();
  try {
    await setupTable(hub, rows);
    await api(hub, 'POST', '/databases/bench/b/branches', { name: 'changes', from: { branch: 'main' } });
    let op = await importCsv(hub, makeCsv(rows, 1), 'items', 'update', 'changes', []);
    if (op.status !== 'succeeded') throw new Error(JSON.stringify(op));
    // main moves too (another column of every row), so the merge is a real cell-wise three-way merge.
    op = await importCsv(hub, makeNames(rows), 'items', 'update', 'main', []);
    if (op.status !== 'succeeded') throw new Error(JSON.stringify(op));
    const dbFile = join(hub.dataDir, 'databases', 'bench', 'b.db');
    const before = join(hub.dataDir, 'before-merge.db');
    copyFileSync(dbFile, before);
    const pull = await api(hub, 'POST', '/databases/bench/b/pulls', {
      title: 'All prices change',
      from_branch: { database: { owner: 'bench', name: 'b' }, branch_name: 'changes' },
      to_branch: { database: { owner: 'bench', name: 'b' }, branch_name: 'main' },
    });
    const t0 = performance.now();
    const ref = await api(hub, 'POST', `/databases/bench/b/pulls/${pull.pull_number}/merge`, {});
    op = await poll(hub, ref.id);
    const hubMs = performance.now() - t0;
    if (op.status !== 'succeeded') throw new Error(JSON.stringify(op));
    const d = runDirect('merge', [before, 'changes']);
    const res = {
      name: `Three-way merge: ${rows.toLocaleString('en')} rows changed on each side (different columns)`,
      hubMs,
      directMs: d.ms,
      hubRssMB: hub.peakMB(),
      directRssMB: d.maxRssMB,
    };
    console.log(res);
    return res;
  } finally {
    await hub.stop();
  }
}

// ------------------------------------------------------------------ direct DoltLite (child)

async function direct(kind, args) {
  const { default: init } = await import('@dolthub/doltlite-wasm/sqlite3-node.mjs');
  const sqlite3 = await init({ print: () => {}, printErr: () => {} });
  sqlite3.config.warn = () => {};
  const load = (path, mem) => {
    const b = readFileSync(path);
    sqlite3.capi.sqlite3_js_posix_create_file(mem, new Uint8Array(b.buffer, b.byteOffset, b.length));
  };
  // The same durability steps the hub takes after a write: temp file, fsync, rename.
  const save = (db, path) => {
    const bytes = sqlite3.capi.sqlite3_js_db_export(db.pointer);
    const fd = openSync(path + '.tmp', 'w');
    writeSync(fd, bytes);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(path + '.tmp', path);
  };
  let ms;
  if (kind === 'sql-server') {
    const [file, q] = args;
    load(file, '/b.db');
    const { createInterface } = await import('node:readline');
    for await (const line of createInterface({ input: process.stdin })) {
      if (line === 'stop') {
        process.stdout.write(JSON.stringify({ maxRssMB: process.resourceUsage().maxRSS / 1024 }) + '\n');
        return;
      }
      const t0 = performance.now();
      const db = new sqlite3.oo1.DB('/b.db@main', 'r');
      const rows = db.selectArrays(q);
      db.close();
      if (!rows.length) throw new Error('no rows');
      process.stdout.write(JSON.stringify({ ms: performance.now() - t0 }) + '\n');
    }
    return;
  }
  if (kind === 'insert') {
    const [csvFile, out] = args;
    const t0 = performance.now();
    const lines = readFileSync(csvFile, 'utf8').split('\n');
    const db = new sqlite3.oo1.DB('/d.db', 'c');
    db.exec('CREATE TABLE items (id int NOT NULL, name varchar(16383), price decimal(7,2), category varchar(16383), PRIMARY KEY (id))');
    db.exec('BEGIN');
    if (process.env.BENCH_DIRECT_PER_ROW) {
      // The older floor: one bind per cell from JavaScript.
      const st = db.prepare('INSERT INTO items VALUES (?, ?, ?, ?)');
      for (let i = 1; i < lines.length; i++) {
        if (!lines[i]) continue;
        st.bind(lines[i].split(',')).step();
        st.reset();
      }
      st.finalize();
    } else {
      // The floor: rows in batches of 2,000 as one JSON text each, spread by the engine's json_each
      // (what the hub does too; binding cell by cell costs 1.7x as much).
      const st = db.prepare('INSERT INTO items SELECT value->>0, value->>1, value->>2, value->>3 FROM json_each(?)');
      const rows = [];
      const flush = () => {
        st.bind([JSON.stringify(rows)]).step();
        st.reset();
        rows.length = 0;
      };
      for (let i = 1; i < lines.length; i++) {
        if (!lines[i]) continue;
        rows.push(lines[i].split(','));
        if (rows.length === 2000) flush();
      }
      if (rows.length) flush();
      st.finalize();
    }
    db.exec('COMMIT');
    db.exec("SELECT dolt_commit('-A', '-m', 'direct import')");
    save(db, out);
    db.close();
    ms = performance.now() - t0;
  } else if (kind === 'merge') {
    const [file, branch] = args;
    load(file, '/m.db');
    const t0 = performance.now();
    const db = new sqlite3.oo1.DB('/m.db', 'c');
    db.exec('BEGIN');
    db.selectValue(`SELECT dolt_merge('${branch}', '--no-ff', '-m', 'merge')`);
    if (sqlite3.capi.sqlite3_get_autocommit(db.pointer) === 0) db.exec('COMMIT');
    save(db, file + '.merged');
    db.close();
    ms = performance.now() - t0;
  }
  process.stdout.write(JSON.stringify({ ms, maxRssMB: process.resourceUsage().maxRSS / 1024 }) + '\n');
}

function runDirect(kind, args) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--direct', kind, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`direct ${kind} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

// ------------------------------------------------------------------ hub plumbing

async function startHub() {
  const dataDir = mkdtempSync(join(tmpdir(), 'vdb-bench-'));
  const cli = (args) => {
    const r = spawnSync(process.execPath, [HUB, ...args, '--data', dataDir], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    return r.stdout.trim();
  };
  cli(['user', 'add', 'bench']);
  const token = cli(['token', 'create', '--user', 'bench']);
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_HUB_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_HUB_PROF] : []),
      HUB,
      'serve',
      '--data',
      dataDir,
      '--port',
      '0',
      '--max-rows',
      '1000000',
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise((res, rej) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /Hub listening on (\S+)/.exec(out);
      if (m) res(m[1]);
    });
    child.on('exit', (c) => rej(new Error(`hub exited ${c}`)));
  });
  let peak = 0;
  const sample = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) peak = Math.max(peak, Number(m[1]) / 1024);
    } catch {
      /* gone */
    }
  }, 100);
  return {
    url,
    token,
    dataDir,
    peakMB: () => {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      return Math.max(peak, m ? Number(m[1]) / 1024 : 0);
    },
    async stop() {
      clearInterval(sample);
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function api(hub, method, path, body) {
  const res = await fetch(`${hub.url}/api/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${hub.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function hubSql(hub, q) {
  return api(hub, 'POST', '/databases/bench/b/sql', { ref: 'main', q, limit: 1000 });
}

async function poll(hub, id) {
  for (let wait = 20; ; wait = Math.min(wait * 2, 500)) {
    const op = await api(hub, 'GET', `/operations/${encodeURIComponent(id)}`);
    if (op.status === 'succeeded' || op.status === 'failed') return op;
    await new Promise((r) => setTimeout(r, wait));
  }
}

async function createDb(hub) {
  await api(hub, 'POST', '/databases', { owner: 'bench', name: 'b', visibility: 'public' });
}

async function setupTable(hub, rows) {
  await createDb(hub);
  const op = await importCsv(hub, makeCsv(rows, 0), 'items', 'create', 'main', ['id']);
  if (op.status !== 'succeeded') throw new Error(JSON.stringify(op));
}

async function importCsv(hub, data, table, operation, branch, pks) {
  const parts = Math.max(1, Math.ceil(data.length / PART));
  const s = await api(hub, 'POST', '/databases/bench/b/imports/uploads', {
    content_length: data.length,
    num_parts: parts,
    file_type: 'csv',
  });
  const md5s = [];
  const completed = await Promise.all(
    s.parts.map(async (p) => {
      const chunk = data.subarray((p.part_number - 1) * PART, Math.min(data.length, p.part_number * PART));
      md5s[p.part_number - 1] = createHash('md5').update(chunk).digest('base64');
      const res = await fetch(p.url, { method: 'PUT', body: chunk });
      if (!res.ok) throw new Error(`part ${p.part_number}: ${res.status}`);
      return { part_number: p.part_number, etag: res.headers.get('etag') };
    }),
  );
  const ref = await api(hub, 'POST', '/databases/bench/b/imports', {
    branch_name: branch,
    table_name: table,
    file_name: 'bench.csv',
    file_size: data.length,
    file_type: 'csv',
    import_operation: operation,
    token: s.token,
    contents_key: s.contents_key,
    completed_parts: completed,
    file_parts_md5: createHash('md5').update(md5s.join('')).digest('base64'),
    primary_keys: pks,
  });
  return poll(hub, ref.id);
}

function makeCsv(rows, variant) {
  const cats = ['fruit', 'vegetable', 'dairy', 'bakery', 'meat'];
  const out = ['id,name,price,category'];
  for (let i = 1; i <= rows; i++) out.push(`${i},item-${i},${((i % 997) + variant + 0.25).toFixed(2)},${cats[i % 5]}`);
  return Buffer.from(out.join('\n') + '\n');
}

function makeNames(rows) {
  const out = ['id,name'];
  for (let i = 1; i <= rows; i++) out.push(`${i},renamed-${i}`);
  return Buffer.from(out.join('\n') + '\n');
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function fmtMs(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}
