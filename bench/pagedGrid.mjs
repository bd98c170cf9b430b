// Paged grid benchmark in Chromium (the webview side of issue #14's table browser): a
// 1,000,000-row × 10-column source served a page at a time by an in-page host that answers each
// request on the next task (no network: what is measured is the grid). Baseline, same run and
// same browser: the whole-response grid holding 10,000 × 10 rows (one response at the hub's
// default cap). Prints figures and ratios; never passes or fails on time.
//
//   node bench/pagedGrid.mjs            # under the shared lock: flock /tmp/heavy.lock node bench/pagedGrid.mjs
//   node bench/pagedGrid.mjs --runs=3   # medians of 3 runs
//
// Measured, per grid:
// - first rows: from handing the grid its first page (paged) or its rows (whole) to the second
//   animation frame after (the first frame that shows them);
// - scroll: 240 frames of one 120 px wheel step each, wall time per step (p50/p95) and main-thread
//   CPU per frame (CDP Performance ThreadTime), pages arriving meanwhile;
// - jump to the last row: from setting scrollTop to the end until the last row is drawn;
// - heap (JS heap + ArrayBuffer backing stores after a forced GC, minus the empty page): after the
//   first rows, and after visiting 200 positions spread over the whole source (paged only: it must
//   stay flat, since only pages near the viewport are kept).
import * as esbuild from 'esbuild';
import { join } from 'node:path';
import { ROWS_DRAWN_JS, launchChromium } from './browser.mjs';

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const RUNS = Number(arg('runs') ?? 1);
const TOTAL = 1_000_000;
const COLS = 10;
const PAGE = 500;
const WHOLE = 10_000;
const SCROLL_FRAMES = 240;
const STEP_PX = 120;

const bundle = await esbuild.build({
  entryPoints: [join(process.cwd(), 'src/renderer/resultGrid.ts')],
  bundle: true,
  write: false,
  format: 'iife',
  globalName: 'VdbGrid',
  platform: 'browser',
  target: 'es2022',
  minify: true,
});
const gridJs = bundle.outputFiles[0].text;

// Rows made on demand from their index, in the page, so the host itself holds nothing.
const PAGE_JS = `
const TYPES = ['bigint', 'varchar(255)', 'decimal(10,2)', 'datetime(6)', 'text', 'tinyint(1)', 'blob', 'double', 'varchar(64)', 'int'];
globalThis.columns = TYPES.map((t, c) => ({ name: c === 0 ? 'id' : 'col_' + c, type: t, is_primary_key: c === 0, source_table: 't' }));
globalThis.row = (r) => {
  const out = new Array(${COLS});
  for (let c = 0; c < ${COLS}; c++) {
    const t = TYPES[c];
    if (c > 0 && (r + c) % 17 === 0) out[c] = null;
    else if (t === 'bigint' || t === 'int') out[c] = String(r * 7 + c);
    else if (t === 'decimal(10,2)') out[c] = ((r * 31 + c) % 100000 / 100).toFixed(2);
    else if (t === 'datetime(6)') out[c] = '2026-0' + (1 + (r % 9)) + '-1' + (r % 10) + ' 12:00:00.000000';
    else if (t === 'tinyint(1)') out[c] = String(r % 2);
    else if (t === 'blob') out[c] = '<binary>';
    else if (t === 'double') out[c] = String((r * 1.37 + c) / 3);
    else out[c] = 'name ' + r + ' ' + c;
  }
  return out;
};
globalThis.raf = () => new Promise((r) => requestAnimationFrame(() => r()));
globalThis.firstRows = undefined;
globalThis.mountPaged = () => {
  let first = true;
  const host = {
    copy() {}, export() {},
    post(m) {
      if (m.type !== 'page.request') return;
      setTimeout(() => {
        const rows = [];
        for (let r = m.start; r < m.end; r++) rows.push(globalThis.row(r));
        const msg = { type: 'page.result', sourceId: 's', requestId: m.requestId, start: m.start, rows };
        if (first) {
          first = false;
          const t0 = performance.now();
          globalThis.grid.receive(msg);
          globalThis.raf().then(globalThis.raf).then(() => { globalThis.firstRows = performance.now() - t0; });
        } else globalThis.grid.receive(msg);
      }, 0);
    },
  };
  globalThis.grid = new VdbGrid.ResultGrid({ v: 1, kind: 'paged', sourceId: 's', columns: globalThis.columns, target: { hostId: 'h', owner: 'o', name: 'db', ref: 'main' },
    commit: 'c'.repeat(32), title: 't @ main', pageSize: ${PAGE}, totalRows: ${TOTAL}, serverSort: true, serverFilter: true }, host, document.getElementById('host'), { maxHeight: 600 });
  globalThis.scroller = document.querySelector('.vdb-grid');
};
globalThis.mountWhole = async () => {
  const rows = [];
  for (let r = 0; r < ${WHOLE}; r++) rows.push(globalThis.row(r));
  const t0 = performance.now();
  globalThis.grid = new VdbGrid.ResultGrid({ v: 1, result: { status: 'success', columns: globalThis.columns, rows }, sql: 's', target: { hostId: 'h', owner: 'o', name: 'db', ref: 'main' }, ranAt: '', elapsedMs: 0, limit: 0 },
    { copy() {}, export() {} }, document.getElementById('host'), { maxHeight: 600 });
  await globalThis.raf(); await globalThis.raf();
  globalThis.firstRows = performance.now() - t0;
  globalThis.scroller = document.querySelector('.vdb-grid');
  await globalThis.grid.compacted;
};
${ROWS_DRAWN_JS}
// Settled: the rows on screen drawn, on the canvas of a leap or as row elements.
globalThis.settled = () => globalThis.rowsDrawn();
globalThis.scrollSteps = async (frames, step) => {
  const times = [];
  for (let i = 0; i < frames; i++) {
    const t = performance.now();
    globalThis.scroller.scrollTop += step;
    await globalThis.raf();
    times.push(performance.now() - t);
  }
  return times;
};`;

const browser = await launchChromium();

const pct = (values, p) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const median = (v) => pct(v, 50);

const log = (...a) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${a.join(' ')}\n`);

async function runOne(kind) {
  log(kind, 'start');
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
  await heap();
  const empty = await heap();
  if (kind === 'paged') {
    await page.evaluate(() => globalThis.mountPaged());
    await page.waitForFunction(() => globalThis.firstRows !== undefined);
  } else {
    await page.evaluate(() => globalThis.mountWhole());
  }
  const firstRows = await page.evaluate(() => globalThis.firstRows);
  log(kind, 'first rows', firstRows.toFixed(0), 'ms');
  const heapFirst = (await heap()) - empty;
  // Scroll from a third of the way down, so the paged grid meets pages it has not loaded.
  await page.evaluate(() => {
    globalThis.scroller.scrollTop = globalThis.scroller.scrollHeight / 3;
  });
  await page.waitForFunction(() => globalThis.settled());
  const c0 = await cpu();
  const steps = await page.evaluate(({ f, s }) => globalThis.scrollSteps(f, s), { f: SCROLL_FRAMES, s: STEP_PX });
  const cpuPerFrame = (((await cpu()) - c0) * 1000) / SCROLL_FRAMES;
  await page.waitForFunction(() => globalThis.settled());
  log(kind, 'scrolled');
  const jump = await page.evaluate(async () => {
    const t0 = performance.now();
    globalThis.scroller.scrollTop = globalThis.scroller.scrollHeight;
    for (;;) {
      await globalThis.raf();
      const last = document.querySelector('.vdb-grid').getAttribute('aria-rowcount') - 2;
      if (globalThis.rowsDrawn(last)) return performance.now() - t0;
    }
  });
  let heapSweep;
  if (kind === 'paged') {
    for (let i = 0; i < 200; i++) {
      await page.evaluate(
        (f) => {
          globalThis.scroller.scrollTop = globalThis.scroller.scrollHeight * f;
        },
        (i * 0.618) % 1,
      );
      await page.waitForFunction(() => globalThis.settled());
    }
    heapSweep = (await heap()) - empty;
    log(kind, 'swept');
  }
  const resident = kind === 'paged' ? await page.evaluate(() => globalThis.grid.source.residentRows) : WHOLE;
  await page.close();
  return { firstRows, heapFirst, heapSweep, p50: pct(steps, 50), p95: pct(steps, 95), cpuPerFrame, jump, resident };
}

const results = { whole: [], paged: [] };
for (let r = 0; r < RUNS; r++) {
  // Alternating, so both see the same machine load.
  results.whole.push(await runOne('whole'));
  results.paged.push(await runOne('paged'));
}
await browser.close();

const mb = (b) => `${(b / 1048576).toFixed(1)} MB`;
const summary = (list) => {
  const m = (k) => median(list.map((x) => x[k]));
  return {
    firstRows: m('firstRows'),
    p50: m('p50'),
    p95: m('p95'),
    cpuPerFrame: m('cpuPerFrame'),
    jump: m('jump'),
    heapFirst: m('heapFirst'),
    heapSweep: list[0].heapSweep === undefined ? undefined : m('heapSweep'),
    resident: m('resident'),
  };
};
const w = summary(results.whole);
const p = summary(results.paged);
console.log(`paged grid benchmark, ${new Date().toISOString()}, medians of ${RUNS} run(s)`);
console.log(
  '| grid | rows | first rows drawn | scroll step p50 / p95 (wall) | scroll CPU per frame | jump to last row | heap after first rows | heap after 200 far positions | rows held |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
console.log(
  `| whole response (baseline) | ${WHOLE.toLocaleString('en-US')} | ${w.firstRows.toFixed(0)} ms | ${w.p50.toFixed(1)} / ${w.p95.toFixed(1)} ms | ${w.cpuPerFrame.toFixed(1)} ms | ${w.jump.toFixed(0)} ms | ${mb(w.heapFirst)} | — | ${w.resident.toLocaleString('en-US')} |`,
);
console.log(
  `| paged | ${TOTAL.toLocaleString('en-US')} | ${p.firstRows.toFixed(0)} ms | ${p.p50.toFixed(1)} / ${p.p95.toFixed(1)} ms | ${p.cpuPerFrame.toFixed(1)} ms | ${p.jump.toFixed(0)} ms | ${mb(p.heapFirst)} | ${mb(p.heapSweep)} | ${p.resident.toLocaleString('en-US')} |`,
);
console.log(
  `ratios paged ÷ whole: first rows ${(p.firstRows / w.firstRows).toFixed(2)}×, scroll CPU per frame ${(p.cpuPerFrame / w.cpuPerFrame).toFixed(2)}×, ` +
    `heap after first rows ${(p.heapFirst / w.heapFirst).toFixed(2)}×; paged heap after the sweep ÷ after first rows ${(p.heapSweep / p.heapFirst).toFixed(2)}×`,
);
