// The Changes view's exports of a 100,000-row pull diff (issue #28): the row diff as CSV and the
// table's SQL patch, each through the view's own code (bundled from src/ as the extension ships it,
// as is the baseline's writer) against the real hub (dist/hub.js), and each against a direct DoltLite read of the same rows written to a file in the same run. Prints figures
// and ratios; never passes or fails on time. (A file of its own: bench/pullDiff.mjs and
// bench/export.mjs are near the 400-line limit; the data is pullDiff's.)
//
//   npm run build && flock /tmp/vdb-heavy.lock node --import=tsx bench/changesExport.mjs
//   BENCH_DIFF_ROWS=10000 … for a quicker look
//
// Setup (as bench/pullDiff.mjs): `items` of N rows on main, every row repriced on `changed`, a pull
// changed → main, pinned by the view's code (merge base → head). Then the hub is stopped.
// - Baseline, in a child process while the hub is stopped: DoltLite loads the hub's file and,
//   untimed, pays the same warm-up as the view's path (below): `SELECT COUNT(*) FROM items` at main,
//   then the pair's `dolt_diff_summary` and `dolt_diff_stat`, which the view runs when the table is
//   opened (loadTableChanges) and which read both commits' trees. Then, timed: the diff
//   (`dolt_diff_items(from, to)`, what the hub reads for DOLT_DIFF) with the export's columns,
//   written with the same CSV writer into the same kind of pending file; then the patch
//   (`dolt_patch(from, to, 'items')` in statement order, turned into MySQL text as the hub does),
//   written one statement per line.
// - The view's paths, on the hub started again (no diff copies, like the baseline), warmed by the
//   same `COUNT(*)`, then the table opened as the view opens it (DOLT_DIFF_SUMMARY and DOLT_DIFF_STAT
//   of the pair, the columns at both commits), untimed; each side pays what the other pays (the
//   view's queries go to the first free query worker, here always the same one). Then: the CSV export (`DiffPageSource.exportSource` paged by `pagesOf`, `PATCH_EXPORT_PAGE` rows a
//   page, written by `runExport`: what `exportDiffRows` does minus the dialogs), then the patch
//   export (`writePatchFile`, what `exportPatch` does minus the dialogs), in the same order as the
//   baseline, with the real HubClient.
// - Memory: this process's RSS sampled every 20 ms during each export, peak minus before; the
//   hub's RSS likewise; the baseline's peak RSS.
// - Content: the CSV files hold the same lines (the header first; rows compared sorted, the dump's
//   order not being defined); the patch files are byte-identical.
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BENCH_DB,
  benchHub,
  hostBundle,
  hubApi,
  importItems,
  itemsCsv,
  jsonChild,
  loadAverage,
  startHub,
  steppedPages,
} from './client-common.mjs';

const ROWS = Number(process.env.BENCH_DIFF_ROWS ?? 100_000);
const self = fileURLToPath(import.meta.url);
/** How long each query of the view took, for the per-page figures. */
const queryTimes = [];
let modules;
/** The src/ modules both sides use, bundled as the extension ships them (client-common's hostBundle). */
const src = () =>
  (modules ??= hostBundle(`export { doltHashToHex } from './src/hub/doltHash';
export { pinChanges, loadDiffTableSpec, loadTableChanges } from './src/core/review/changesPin';
export { HubClient } from './src/api/hubClient';
export { DiffPageSource } from './src/core/review/diffSource';
export { pagesOf } from './src/core/paging/pagesOf';
export { createExportWriter } from './src/core/export/exportWriters';
export { createPendingFile, runExport } from './src/core/export/exportRun';
export { PATCH_EXPORT_PAGE, writePatchFile } from './src/core/review/patchPages';
export { sqliteToMysqlText } from './src/hub/doltSql/mysqlText';`));
const log = (...a) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${a.join(' ')}\n`);
const fmt = (ms) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);

if (process.argv[2] === '--direct') await direct(JSON.parse(process.argv[3]));
else await main();

async function main() {
  const started = await benchHub('vdb-changes-export-');
  const { dir, dataDir, dbFile } = started;
  let { hub } = started;
  try {
    const pair = await setup(hub);
    const columns = await exportColumns(hub, pair);
    await hub.stop();
    const { doltHashToHex } = await src();
    const baseline = await child({
      dbFile,
      fromHex: doltHashToHex(pair.from),
      toHex: doltHashToHex(pair.to),
      columns,
      csv: join(dir, 'direct.csv'),
      patch: join(dir, 'direct.sql'),
    });
    log('baseline', JSON.stringify(baseline));
    hub = await startHub({ dataDir, token: hub.token });
    await hubApi(hub, 'POST', '/databases/bench/b/sql', { ref: 'main', q: 'SELECT COUNT(*) FROM items' });
    const view = await viewExports(hub, pair, dir);
    checkSame(join(dir, 'direct.csv'), join(dir, 'view.csv'), join(dir, 'direct.sql'), join(dir, 'view.sql'));
    report(baseline, view, dir);
  } finally {
    await hub.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The data and the pull; returns the pinned pair (merge base → head) as the view pins it. */
async function setup(hub) {
  log(`setup: ${ROWS.toLocaleString('en-US')} rows on main, every one repriced on "changed"`);
  await hubApi(hub, 'POST', '/databases', { ...BENCH_DB, visibility: 'public' });
  await importItems(hub, itemsCsv(ROWS, 0), 'create', 'main');
  await hubApi(hub, 'POST', '/databases/bench/b/branches', { name: 'changed', from: { branch: 'main' } });
  await importItems(hub, itemsCsv(ROWS, 1), 'update', 'changed');
  await hubApi(hub, 'POST', '/databases/bench/b/pulls', {
    title: 'Reprice everything',
    from_branch: { database: BENCH_DB, branch_name: 'changed' },
    to_branch: { database: BENCH_DB, branch_name: 'main' },
  });
  const { pinChanges } = await src();
  return (await pinChanges({ kind: 'pull', toBranch: 'main', fromBranch: 'changed' }, runner(hub))).pair;
}

/** "first / second / median of the rest" of the queries made since `from`. */
function pageTimes(from) {
  const t = queryTimes.slice(from);
  const rest = t.slice(2).sort((a, b) => a - b);
  return `${t.length} queries: ${fmt(t[0] ?? 0)} / ${fmt(t[1] ?? 0)} / median ${fmt(rest[Math.floor(rest.length / 2)] ?? 0)}`;
}

/** The view's runner, as the extension builds it: the real API client. */
function runner(hub) {
  let client;
  return async (query, opts) => {
    const { HubClient } = await src();
    client ??= new HubClient({ baseUrl: hub.url, token: hub.token });
    const t0 = performance.now();
    const r = await client.runSql(
      BENCH_DB,
      { ref: query.at, q: query.sql, limit: opts.limit },
      opts.signal ? { signal: opts.signal } : undefined,
    );
    queryTimes.push(performance.now() - t0);
    return r;
  };
}

/** The view's source for `items`, as the Changes view builds it when the table is selected. */
async function diffSource(hub, pair) {
  const { loadDiffTableSpec, loadTableChanges } = await src();
  const { DiffPageSource } = await src();
  const run = runner(hub);
  const change = (await loadTableChanges(pair, run)).tables.find((t) => t.table === 'items');
  if (change?.rows?.modified !== ROWS) throw new Error(`expected ${ROWS} modified rows, got ${JSON.stringify(change?.rows)}`);
  const spec = await loadDiffTableSpec(pair, change, run);
  return new DiffPageSource({ pair, spec, run, knownTotal: ROWS });
}

/** The export's column names (diff_type, from_/to_ of each column), read before the hub stops. */
async function exportColumns(hub, pair) {
  const source = await diffSource(hub, pair);
  return source.exportSource().columns.map((c) => c.name);
}

async function viewExports(hub, pair, dir) {
  const { pagesOf } = await src();
  const { createExportWriter } = await src();
  const { createPendingFile, runExport } = await src();
  const { PATCH_EXPORT_PAGE, writePatchFile } = await src();
  const source = await diffSource(hub, pair);
  const signal = new AbortController().signal;
  const csv = await sampled(hub, async () => {
    const { columns, source: rows } = source.exportSource();
    const file = await createPendingFile(join(dir, 'view.csv'));
    const view = { sort: [], filters: [] };
    const writer = createExportWriter('csv', columns, file);
    return runExport({ pages: pagesOf(rows, view, PATCH_EXPORT_PAGE, signal), writer, file, signal });
  });
  log('view csv', JSON.stringify(csv));
  const patch = await sampled(hub, async () => {
    const file = await createPendingFile(join(dir, 'view.sql'));
    return writePatchFile({ pair, table: 'items', run: runner(hub), file, signal });
  });
  log('view patch', JSON.stringify(patch));
  return { csv, patch };
}

/** Times `f`, sampling this process's and the hub's RSS every 20 ms. */
async function sampled(hub, f) {
  const before = process.memoryUsage().rss;
  const hubBefore = hub.rssMB();
  hub.resetPeak();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  const q0 = queryTimes.length;
  const n = await f();
  const ms = performance.now() - t0;
  log(`queries: ${pageTimes(q0)}`);
  clearInterval(timer);
  return { ms, n, growthMB: (peak - before) / 1048576, hubBeforeMB: hubBefore, hubPeakMB: hub.peakMB() };
}

function checkSame(directCsv, viewCsv, directSql, viewSql) {
  const lines = (f) => readFileSync(f, 'utf8').split('\r\n');
  const [a, b] = [lines(directCsv), lines(viewCsv)];
  if (a[0] !== b[0]) throw new Error(`CSV headers differ: ${a[0]} / ${b[0]}`);
  const [sa, sb] = [a.slice(1).sort(), b.slice(1).sort()];
  if (sa.length !== sb.length) throw new Error(`CSV row counts differ: ${sa.length} / ${sb.length}`);
  const at = sa.findIndex((l, i) => l !== sb[i]);
  if (at >= 0) throw new Error(`CSV rows differ: ${sa[at]} / ${sb[at]}`);
  if (readFileSync(directSql, 'utf8') !== readFileSync(viewSql, 'utf8')) throw new Error(`patch files differ: ${directSql} ${viewSql}`);
  log(`content: CSV ${sa.length - 1} rows the same (sorted), patch byte-identical`);
}

function report(baseline, view, dir) {
  const mib = (f) => `${(statSync(join(dir, f)).size / 1048576).toFixed(1)} MiB`;
  console.log(`\n${new Date().toISOString()}, ${ROWS.toLocaleString('en-US')} changed rows, load average at the end ${loadAverage()}\n`);
  console.log("| export | direct DoltLite read → file | the view's path | ratio | view process RSS | hub RSS |");
  console.log('|---|---|---|---|---|---|');
  for (const [name, file, b, v] of [
    ['CSV of the row diff', 'view.csv', baseline.csvMs, view.csv],
    ['SQL patch', 'view.sql', baseline.patchMs, view.patch],
  ]) {
    console.log(
      `| ${name} (${v.n.toLocaleString('en-US')} rows, ${mib(file)}) | ${fmt(b)} | ${fmt(v.ms)} | **${(v.ms / b).toFixed(2)}×** | +${v.growthMB.toFixed(0)} MB | ${v.hubBeforeMB.toFixed(0)} → ${v.hubPeakMB.toFixed(0)} MB |`,
    );
  }
  console.log(`\nbaseline child peak RSS ${baseline.maxRssMB.toFixed(0)} MB`);
}

// ------------------------------------------------------------------ the baseline child

async function direct({ dbFile, fromHex, toHex, columns, csv, patch }) {
  const { default: init } = await import('@dolthub/doltlite-wasm/sqlite3-node.mjs');
  const { createExportWriter } = await src();
  const { createPendingFile, runExport } = await src();
  const { sqliteToMysqlText } = await src();
  const sqlite3 = await init({ print: () => {}, printErr: () => {} });
  sqlite3.config.warn = () => {};
  const bytes = readFileSync(dbFile);
  sqlite3.capi.sqlite3_js_posix_create_file('/b.db', new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
  const db = new sqlite3.oo1.DB('/b.db@main', 'r');
  const lit = (s) => `'${s}'`;
  // The view's warm-up (see the header): not timed.
  db.exec('SELECT COUNT(*) FROM items');
  db.exec(`SELECT * FROM dolt_diff_summary(${lit(fromHex)}, ${lit(toHex)})`);
  db.exec(`SELECT * FROM dolt_diff_stat(${lit(fromHex)}, ${lit(toHex)})`);
  const q = (c) => `"${c}"`;
  let t0 = performance.now();
  const diffSql = `SELECT ${columns.map(q).join(', ')} FROM dolt_diff_items(${lit(fromHex)}, ${lit(toHex)})`;
  const file = await createPendingFile(csv);
  const writer = createExportWriter(
    'csv',
    columns.map((name) => ({ name, type: '' })),
    file,
  );
  await runExport({ pages: steppedRows(sqlite3, db, diffSql), writer, file });
  const csvMs = performance.now() - t0;
  t0 = performance.now();
  const patchSql = `SELECT statement FROM dolt_patch(${lit(fromHex)}, ${lit(toHex)}, 'items') ORDER BY statement_order`;
  const text = await createPendingFile(patch);
  for await (const page of steppedRows(sqlite3, db, patchSql))
    await text.write(page.map(([s]) => `${sqliteToMysqlText(s).trimEnd().replace(/;?$/, ';')}\n`).join(''));
  await text.commit();
  const patchMs = performance.now() - t0;
  db.close();
  process.stdout.write(`${JSON.stringify({ csvMs, patchMs, maxRssMB: process.resourceUsage().maxRSS / 1024 })}\n`);
}

/** The query's rows as text, 2,000 at a time. */
async function* steppedRows(sqlite3, db, sql) {
  const stmt = db.prepare(sql);
  try {
    yield* steppedPages(sqlite3, stmt, 2000);
  } finally {
    stmt.finalize();
  }
}

function child(args) {
  return jsonChild(['--import', 'tsx', self, '--direct', JSON.stringify(args)]);
}
