// Streamed export of a 1M-row table from the local hub, two ways the extension does it, against a
// direct DoltLite dump of the same rows. Issue #14: "Export of the 1M rows: time against a direct
// DoltLite dump of the same rows, extension RSS ≤ +100 MB".
//
//   npm run bench -- export                 # under the shared lock: flock /tmp/heavy.lock npm run bench -- export
//   npm run bench -- export --rows=200000   # a smaller table
//   npm run bench -- export --paths=table   # one extension path only (table, load-all; default both)
//
// Setup: a hub (`dist/hub.js serve`, its default --max-rows of 10,000) with a 10-column,
// 1,000,000-row table `big`, committed on main (built with DoltLite straight into the hub's file,
// then the hub restarted; an import through the API takes minutes and is measured by bench/hub.mjs).
//
// - table browser path, in a child process standing in for the extension host: what Export… in
//   the table browser of `big @ main` does, minus the dialogs: the table opened as Open Table
//   opens it (catalog at main's commit, `openTableAt`), its source's export copy
//   (`TableSource.withPageSize(EXPORT_PAGE_SIZE)`: keyset pages `WHERE id > last ORDER BY id
//   LIMIT 2000` at the commit, over HTTP with the real HubClient), the row count for the
//   progress, then the same writer into a pending file renamed into place. RSS as below.
// - Load All Rows path, in a child process standing in for the extension host: what the notebook
//   does after Load All Rows → Export: runs `SELECT * FROM big` with a row limit of 60,000 (the
//   hub stops it at 10,000), pins main's commit, pages the query with the real page source
//   (src/core/paging/querySource.ts: `SELECT * FROM (…) AS q LIMIT … OFFSET …` over HTTP with
//   the real HubClient; `SELECT * FROM big` is a keyed table, so after the first page each reads
//   `WHERE id > last ORDER BY id`), and writes CSV with the real writer into a pending file renamed into
//   place (src/core/export/). Its RSS is sampled every 20 ms: growth = peak − RSS after the
//   modules were loaded.
// - baseline, in its own child: DoltLite loads the same file, steps the same SELECT once and
//   writes the rows with the same CSV writer into the same kind of pending file.
// - the hub's memory while it serves the export: its RSS sampled every 100 ms, peak during the
//   export minus its RSS just before.
// Every extension path's CSV file must be byte-identical to the dump (checked by SHA-256). Prints
// figures and ratios; never fails on time.
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_DB, benchHub, hubApi, jsonChild, loadAverage, startHub, steppedPages } from './client-common.mjs';

const self = fileURLToPath(import.meta.url);
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const COLUMNS =
  'id bigint PRIMARY KEY, name varchar(64), category varchar(16), qty int, price double, ratio double, created datetime, flag tinyint, note text, code varchar(8)';
const QUERY = 'SELECT * FROM big';

if (process.argv[2] === '--build') await build(process.argv[3], Number(process.argv[4]));
else if (process.argv[2] === '--direct') await directDump(process.argv[3], process.argv[4]);
else if (process.argv[2] === '--extension') await extensionExport(process.argv[3], process.argv[4], process.argv[5]);
else if (process.argv[2] === '--table-export') await tableExport(process.argv[3], process.argv[4], process.argv[5]);
else await main(Number(arg('rows') ?? 1_000_000), (arg('paths') ?? 'table,load-all').split(','));

// ------------------------------------------------------------------ the run

async function main(rows, paths) {
  for (const p of paths) if (p !== 'table' && p !== 'load-all') throw new Error(`--paths: unknown path ${p} (table, load-all)`);
  const setup = await benchHub('vdb-export-bench-');
  const { dir, dataDir, dbFile } = setup;
  let { hub } = setup;
  try {
    await hubApi(hub, 'POST', '/databases', { ...BENCH_DB, visibility: 'public' });
    console.log(`building ${rows.toLocaleString('en')} rows × 10 columns in ${dbFile} …`);
    const built = child(['--build', dbFile, String(rows)]);
    console.log(`built in ${fmtMs((await built).ms)}`);
    // Written behind the hub's back: restart it, so its caches (branch heads) start from the file.
    await hub.stop();
    hub = await startHub({ dataDir, token: hub.token });
    const count = await hubApi(hub, 'POST', '/databases/bench/b/sql', { ref: 'main', q: 'SELECT COUNT(*) FROM big' });
    if (count.rows?.[0]?.[0] !== String(rows)) throw new Error(`the hub does not see the table: ${JSON.stringify(count)}`);
    // Warm the hub's workers (each loads the file once), as a user's first query would.
    await hubApi(hub, 'POST', '/databases/bench/b/sql', { ref: 'main', q: 'SELECT * FROM big LIMIT 1' });

    const directOut = join(dir, 'direct.csv');
    const direct = await child(['--direct', dbFile, directOut]);
    console.log('direct', direct);
    const expected = await sha256(directOut);

    // Each extension path in its own child; its file must equal the dump byte for byte.
    const measured = [];
    for (const path of paths) {
      const out = join(dir, `${path}.csv`);
      const hubBefore = hub.rssMB();
      hub.resetPeak();
      const r = await child(
        [path === 'table' ? '--table-export' : '--extension', hub.url, hub.token, out],
        ['--import', 'tsx', '--expose-gc'],
      );
      const hubPeak = hub.peakMB();
      console.log(path, r);
      const got = await sha256(out);
      if (got !== expected) throw new Error(`the ${path} export differs from the dump: ${directOut} ${out}`);
      const mib = (statSync(out).size / 1024 / 1024).toFixed(0);
      console.log(`${path}: ${r.rows.toLocaleString('en')} rows, ${mib} MiB, identical to the dump (sha256 ${got.slice(0, 12)}…)`);
      rmSync(out, { force: true });
      measured.push({ path, r, mib, hubBefore, hubPeak });
    }

    console.log(`\n${new Date().toISOString()}, load average at the end ${loadAverage()}`);
    console.log('| path | time | ratio | memory |');
    console.log('|---|---|---|---|');
    console.log(`| direct DoltLite dump (baseline) | ${fmtMs(direct.ms)} | 1.00× | peak RSS ${direct.maxRssMB.toFixed(0)} MB |`);
    for (const { path, r, mib } of measured) {
      const what =
        path === 'table'
          ? `table browser: keyset pages (${r.pages} × ${r.pageSize.toLocaleString('en')} rows: ${Object.entries(r.reads)
              .map(([k, n]) => `${n} ${k}`)
              .join(
                ', ',
              )}; median per page, first / last tenth: ${fmtMs(r.firstTenthMs)} / ${fmtMs(r.lastTenthMs)}) + count → CSV, ${mib} MiB`
          : `Load All Rows: pages (${r.pages} × ${r.pageSize.toLocaleString('en')} rows) → CSV, ${mib} MiB`;
      console.log(
        `| ${what} | ${fmtMs(r.ms)} | ${(r.ms / direct.ms).toFixed(2)}× | RSS +${r.growthMB.toFixed(0)} MB over idle (${r.idleMB.toFixed(0)} → ${r.peakMB.toFixed(0)} MB) |`,
      );
    }
    for (const { path, hubBefore, hubPeak } of measured) {
      console.log(
        `| hub serving the ${path} export | | | RSS ${hubBefore.toFixed(0)} MB before, peak ${hubPeak.toFixed(0)} MB during (+${(hubPeak - hubBefore).toFixed(0)} MB) |`,
      );
    }
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
    st.bind([
      i,
      `item ${i}`,
      cats[i % 5],
      i % 1000,
      (i % 99991) / 7,
      i / 3,
      `2026-0${1 + (i % 9)}-${day} 12:${String(i % 60).padStart(2, '0')}:00`,
      i % 2,
      i % 13 === 0 ? null : `note, "quoted" ${i}`,
      `C${i % 4096}`,
    ]).step();
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
  const file = await createPendingFile(out);
  const rows = await runExport({ pages: steppedPages(sqlite3, stmt, 10_000), writer: createExportWriter('csv', columns, file), file });
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
    columns: first.columns,
    // The SQL port bound to the pinned commit, as the notebook's Load All Rows session runs it.
    run: async (q, { limit, signal }) => {
      pages++;
      return normalizeResult(await client.runSql(db, { ref: plan.commit, q, limit, timeoutMs: 60_000 }, signal ? { signal } : {}));
    },
  });
  const signal = new AbortController().signal;
  const file = await createPendingFile(out);
  const rows = await runExport({
    pages: pagesOf(source, { sort: [], filters: [] }, pageSize, signal),
    writer: createExportWriter('csv', first.columns, file),
    file,
    signal,
  });
  const ms = performance.now() - t0;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const MB = 1024 * 1024;
  reply({ ms, rows, pages, pageSize, idleMB: idle / MB, peakMB: peak / MB, growthMB: (peak - idle) / MB });
}

/**
 * The table browser's Export… of `big @ main` (src/views/tableBrowser.ts `export`), without the
 * save dialog and progress UI: open the table as Open Table does, then its source's export copy.
 */
async function tableExport(url, token, out) {
  const { HubClient } = await import('../src/api/index.ts');
  const { silentLogger } = await import('../src/core/logger.ts');
  const { TableCatalogCache } = await import('../src/core/sql/tableCatalog.ts');
  const { SqlPort } = await import('../src/core/sql/sqlPort.ts');
  const { openTableAt } = await import('../src/core/paging/tableOpening.ts');
  const { EXPORT_PAGE_SIZE } = await import('../src/core/paging/tableSource.ts');
  const { pagesOf } = await import('../src/core/paging/pagesOf.ts');
  const { createExportWriter } = await import('../src/core/export/exportWriters.ts');
  const { createPendingFile, runExport } = await import('../src/core/export/exportRun.ts');
  globalThis.gc?.();
  const idle = process.memoryUsage().rss;
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const client = new HubClient({ baseUrl: url, token, logger: silentLogger });
  const db = { owner: 'bench', name: 'b' };
  // Open Table: main's commit, the catalog and the table's columns at it (src/commands/tableCommands.ts).
  const commit = (await client.listBranches(db)).items.find((b) => b.name === 'main').head_commit_sha;
  // The SQL port over the real client, as the extension builds it (src/core/sql/sqlPort.ts).
  const port = new SqlPort(
    () => client,
    () => ({ timeoutMs: 30_000, rowLimit: 10_000 }),
  );
  const run = port.at({ hostId: 'hub', db, ref: commit });
  const catalog = new TableCatalogCache(port);
  const { output, source: shown } = await openTableAt(
    { target: { hostId: 'hub', owner: db.owner, name: db.name, ref: 'main' }, commit, table: 'big' },
    catalog,
    run,
  );
  // Export…: from here on is what the user waits for.
  const t0 = performance.now();
  const view = { sort: [], filters: [] };
  const source = shown.withPageSize(EXPORT_PAGE_SIZE);
  const signal = new AbortController().signal;
  const totalRows = await source.count(view, signal);
  const file = await createPendingFile(out);
  // Time per page (read + write), to see whether a page costs more the further into the table it is.
  const perPage = [];
  async function* timed(pages) {
    let at = performance.now();
    for await (const p of pages) {
      yield p;
      const now = performance.now();
      perPage.push(now - at);
      at = now;
    }
  }
  const rows = await runExport({
    pages: timed(pagesOf(source, view, EXPORT_PAGE_SIZE, signal)),
    writer: createExportWriter('csv', output.columns, file, { tableName: 'big' }),
    file,
    signal,
  });
  const ms = performance.now() - t0;
  const tenth = Math.max(1, Math.floor(perPage.length / 10));
  const med = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const firstTenthMs = med(perPage.slice(0, tenth));
  const lastTenthMs = med(perPage.slice(-tenth));
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  if (rows !== totalRows) throw new Error(`exported ${rows} rows, the count said ${totalRows}`);
  const reads = source.reads.reduce((acc, k) => ((acc[k] = (acc[k] ?? 0) + 1), acc), {});
  const MB = 1024 * 1024;
  reply({
    ms,
    rows,
    pages: source.reads.length,
    reads,
    firstTenthMs,
    lastTenthMs,
    pageSize: EXPORT_PAGE_SIZE,
    idleMB: idle / MB,
    peakMB: peak / MB,
    growthMB: (peak - idle) / MB,
  });
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
  return jsonChild([...nodeArgs, self, ...args]);
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

function fmtMs(ms) {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}
