// Table editing benchmark (issue #23): a change set of 10,000 edited rows over a 1,000,000-row
// table. The host side (the change set model, src/core/changes/changeSet.ts, and the JSON the
// store writes) in this Node process; the grid (src/renderer/resultGrid.ts with its edit overlay)
// in Chromium, over a paged source whose pages the page makes from row numbers, joined by the same
// `edit.overlay` message the panel carries. Baseline, same run and browser: the same grid with no
// change set. Prints figures and ratios; never passes or fails on time.
//
//   flock /tmp/vdb-heavy.lock node --expose-gc bench/tableEditing.mjs   (npm run bench -- table-editing)
//   options: --edits=10000 (rows edited), --runs=1
//
// Measured:
// - host: this process's JS heap + external + array buffers after a forced GC, with the change set
//   and its stored JSON held, minus before (what the extension host keeps for it);
// - webview: the page's JS heap + backing stores after a forced GC once the overlay arrived, minus
//   the same grid before it (aim, host + webview: ≤ 100 MB);
// - applying the overlay (receive → drawn) and, per request, one cell edit's host apply (p50);
// - scroll: 240 frames of one 120 px step from a third of the way down, wall time per step
//   (p50/p95) and main-thread CPU per frame, with and without the overlay (aim ≤ 16 ms a frame).
import * as esbuild from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROWS_DRAWN_JS, launchChromium } from './browser.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, d) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? d);
const EDITS = arg('edits', 10_000);
const RUNS = arg('runs', 1);
const TOTAL = 1_000_000;
const COLS = 10;
const PAGE = 500;
const FRAMES = 240;
const STEP_PX = 120;
const log = (...a) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${a.join(' ')}\n`);
if (typeof globalThis.gc !== 'function') log('warning: run with node --expose-gc for host memory after GC');

const build = async (contents, platform) =>
  (
    await esbuild.build({
      stdin: { contents, resolveDir: ROOT, loader: 'ts' },
      bundle: true,
      write: false,
      format: platform === 'node' ? 'esm' : 'iife',
      platform,
      target: platform === 'node' ? 'node20' : 'es2022',
      minify: platform !== 'node',
    })
  ).outputFiles[0].text;
const hostJs = await build("export { ChangeSet } from './src/core/changes/changeSet';", 'node');
const gridJs = await build("import { ResultGrid } from './src/renderer/resultGrid'; globalThis.VdbGrid = { ResultGrid };", 'browser');
const { ChangeSet } = await import(`data:text/javascript;base64,${Buffer.from(hostJs).toString('base64')}`);

const TYPES = ['bigint', 'varchar(255)', 'decimal(10,2)', 'datetime(6)', 'text', 'tinyint(1)', 'int', 'double', 'varchar(64)', 'int'];
const columns = TYPES.map((t, c) => ({ name: c === 0 ? 'id' : `col_${c}`, type: t, is_primary_key: c === 0, source_table: 't' }));
// The same rows in Node and in the page: made from the row number.
const ROW_JS = `(r) => {
  const T = ${JSON.stringify(TYPES)};
  const out = new Array(${COLS});
  for (let c = 0; c < ${COLS}; c++) {
    const t = T[c];
    if (c === 0) out[c] = String(r + 1);
    else if (c > 0 && (r + c) % 17 === 0) out[c] = null;
    else if (t === 'int' || t === 'bigint') out[c] = String(r * 7 + c);
    else if (t === 'decimal(10,2)') out[c] = ((r * 31 + c) % 100000 / 100).toFixed(2);
    else if (t === 'datetime(6)') out[c] = '2026-0' + (1 + (r % 9)) + '-1' + (r % 10) + ' 12:00:00.000000';
    else if (t === 'tinyint(1)') out[c] = String(r % 2);
    else if (t === 'double') out[c] = String((r * 1.37 + c) / 3);
    else out[c] = 'name ' + r + ' ' + c;
  }
  return out;
}`;
const row = eval(ROW_JS);

function hostHeap() {
  globalThis.gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.external + m.arrayBuffers;
}

/** The change set: every (TOTAL / EDITS)-th row gets two changed cells, one request per row (as typed). */
function makeChangeSet() {
  const cs = new ChangeSet({
    scope: { hostId: 'h', owner: 'o', name: 'db', branch: 'main', table: 't', baseCommit: 'c'.repeat(32) },
    columns,
    keyColumns: [0],
  });
  const applyTimes = [];
  const stride = Math.floor(TOTAL / EDITS);
  for (let i = 0; i < EDITS; i++) {
    const cells = row(i * stride);
    const ref = { key: [cells[0]], row: cells };
    const t = performance.now();
    cs.apply({
      kind: 'set',
      edits: [
        { row: ref, column: 1, value: `edited ${i}` },
        { row: ref, column: 4, value: `note ${i}` },
      ],
    });
    applyTimes.push(performance.now() - t);
  }
  return { cs, applyTimes, stride };
}

const PAGE_JS = `
globalThis.row = ${ROW_JS};
globalThis.raf = () => new Promise((r) => requestAnimationFrame(() => r()));
globalThis.mount = (editable) => {
  const host = { copy() {}, export() {}, post(m) {
    if (m.type !== 'page.request') return;
    setTimeout(() => {
      const rows = [];
      for (let r = m.start; r < m.end; r++) rows.push(globalThis.row(r));
      globalThis.grid.receive({ type: 'page.result', sourceId: 's', requestId: m.requestId, start: m.start, rows });
    }, 0);
  } };
  const edit = editable ? { keyColumns: [0], locked: ${JSON.stringify(columns.map(() => null))}, nullable: ${JSON.stringify(columns.map((_, i) => i > 0))} } : undefined;
  globalThis.grid = new VdbGrid.ResultGrid({ v: 1, kind: 'paged', sourceId: 's', columns: ${JSON.stringify(columns)}, target: { hostId: 'h', owner: 'o', name: 'db', ref: 'main' },
    commit: 'c'.repeat(32), title: 't @ main', pageSize: ${PAGE}, totalRows: ${TOTAL}, serverSort: true, serverFilter: true, frozenColumns: 1,
    ...(edit ? { edit, rowsOf: { table: 't', keyColumns: [0] } } : {}) }, host, document.getElementById('host'), { maxHeight: 600 });
  globalThis.scroller = document.querySelector('.vdb-grid');
};
${ROWS_DRAWN_JS}
// Settled: the rows on screen drawn, on the canvas of a leap or as row elements.
globalThis.settled = () => globalThis.rowsDrawn();
globalThis.editedSeen = new Set();
globalThis.scrollSteps = async (frames, step) => {
  const times = [];
  for (let i = 0; i < frames; i++) {
    const t = performance.now();
    globalThis.scroller.scrollTop += step;
    await globalThis.raf();
    times.push(performance.now() - t);
    // Outside the timed step: which edited rows were drawn as such.
    for (const r of document.querySelectorAll('.vdb-row[data-kind="modified"] .vdb-rownum')) globalThis.editedSeen.add(r.textContent);
  }
  return times;
};`;

const pct = (values, p) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const browser = await launchChromium();

async function webview(overlay) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const cpu = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')?.value ?? 0;
  const heap = async () => {
    await page.evaluate(() => globalThis.gc?.());
    const u = await cdp.send('Runtime.getHeapUsage');
    return u.usedSize + (u.backingStorageSize ?? 0);
  };
  await page.setContent('<!doctype html><html><body style="margin:0"><div id="host"></div></body></html>');
  await page.addScriptTag({ content: gridJs });
  await page.addScriptTag({ content: PAGE_JS });
  await page.evaluate((e) => globalThis.mount(e), !!overlay);
  await page.waitForFunction(() => globalThis.settled() && document.querySelector('.vdb-cell[data-r="0"][data-c="1"]'));
  const before = await heap();
  let applyMs;
  if (overlay) {
    // The message as the panel carries it: serialized JSON, parsed in the page.
    const json = JSON.stringify({ type: 'edit.overlay', sourceId: 's', ...overlay });
    applyMs = await page.evaluate(async (text) => {
      const m = JSON.parse(text);
      const t = performance.now();
      globalThis.grid.receive(m);
      await globalThis.raf();
      return performance.now() - t;
    }, json);
  }
  const after = await heap();
  await page.evaluate(() => {
    globalThis.scroller.scrollTop = globalThis.scroller.scrollHeight / 3;
  });
  await page.waitForFunction(() => globalThis.settled());
  const c0 = await cpu();
  const steps = await page.evaluate(({ f, s }) => globalThis.scrollSteps(f, s), { f: FRAMES, s: STEP_PX });
  const cpuPerFrame = (((await cpu()) - c0) * 1000) / FRAMES;
  await page.waitForFunction(() => globalThis.settled());
  const edited = await page.evaluate(() => globalThis.editedSeen.size);
  await page.close();
  return { heap: after - before, applyMs, p50: pct(steps, 50), p95: pct(steps, 95), cpuPerFrame, edited };
}

const mb = (b) => `${(b / 1048576).toFixed(1)} MB`;
for (let run = 0; run < RUNS; run++) {
  const idle = hostHeap();
  const { cs, applyTimes, stride } = makeChangeSet();
  const stored = JSON.stringify(cs.toJSON());
  const overlay = cs.overlay();
  const host = hostHeap() - idle;
  log('host', mb(host), 'stored JSON', mb(stored.length), 'overlay message', mb(JSON.stringify(overlay).length));
  const base = await webview(undefined);
  const withEdits = await webview(overlay);
  log('webview', mb(withEdits.heap), 'edited rows drawn as edited while scrolling', withEdits.edited);
  console.log(
    `\nrun ${run + 1}: ${EDITS.toLocaleString('en-US')} edited rows (every ${stride}th of ${TOTAL.toLocaleString('en-US')}), 2 cells each`,
  );
  console.log(`| | no change set | ${EDITS.toLocaleString('en-US')} edited rows | ratio |`);
  console.log('|---|---|---|---|');
  console.log(`| host memory over idle (change set + stored JSON) | — | ${mb(host)} | |`);
  console.log(`| webview memory over the same grid | — | ${mb(withEdits.heap)} | |`);
  console.log(`| host + webview | — | ${mb(host + withEdits.heap)} | aim ≤ 100 MB |`);
  console.log(`| stored JSON / overlay message | — | ${mb(stored.length)} / ${mb(JSON.stringify(overlay).length)} | |`);
  console.log(
    `| one edit applied on the host, p50 / p95 | — | ${pct(applyTimes, 50).toFixed(3)} / ${pct(applyTimes, 95).toFixed(3)} ms | |`,
  );
  console.log(`| whole overlay received → drawn | — | ${withEdits.applyMs.toFixed(1)} ms | |`);
  console.log(`| edited rows drawn as edited during the scroll | ${base.edited} | ${withEdits.edited} | |`);
  console.log(
    `| scroll step p50 | ${base.p50.toFixed(1)} ms | ${withEdits.p50.toFixed(1)} ms | ${(withEdits.p50 / base.p50).toFixed(2)}× |`,
  );
  console.log(
    `| scroll step p95 | ${base.p95.toFixed(1)} ms | ${withEdits.p95.toFixed(1)} ms | ${(withEdits.p95 / base.p95).toFixed(2)}× |`,
  );
  console.log(
    `| main-thread CPU per frame | ${base.cpuPerFrame.toFixed(2)} ms | ${withEdits.cpuPerFrame.toFixed(2)} ms | ${(withEdits.cpuPerFrame / base.cpuPerFrame).toFixed(2)}× |`,
  );
}
await browser.close();
