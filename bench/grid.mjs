// Result grid benchmark in Chromium: time to first paint and scroll frame cost of the
// virtualized grid (src/renderer/resultGrid.ts) against a plain full-DOM <table> built in the
// same page from the same data, and memory against the JSON size. Prints ratios; never
// passes or fails on time.
//
//   node bench/grid.mjs            # 1,000 x 10 and 100,000 x 20
//   node bench/grid.mjs --quick    # 1,000 x 10 only
//
// The page receives the result as JSON text ("the data arrives"), parses it, and the clock
// runs from just after the parse to the second animation frame after the grid is built
// (the first frame that shows it).
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';

const quick = process.argv.includes('--quick');
const SIZES = quick ? [[1000, 10]] : [[1000, 10], [100000, 20]];
const SCROLL_FRAMES = 120;
// A wheel notch is about 100-120 px: each frame scrolls that far, as a person scrolling does.
const SCROLL_STEP_PX = 120;
const TABLE_TIMEOUT_MS = 120000;

const TYPES = ['bigint', 'varchar(255)', 'decimal(10,2)', 'datetime(6)', 'text', 'tinyint(1)', 'blob', 'double'];

function makeResult(rows, cols) {
  const columns = [];
  for (let c = 0; c < cols; c++) {
    columns.push({ name: c === 0 ? 'id' : `col_${c}`, type: c === 0 ? 'bigint' : TYPES[c % TYPES.length], is_primary_key: c === 0, source_table: 't' });
  }
  const data = new Array(rows);
  for (let r = 0; r < rows; r++) {
    const row = new Array(cols);
    for (let c = 0; c < cols; c++) {
      const t = columns[c].type;
      if (c > 0 && (r + c) % 17 === 0) row[c] = null;
      else if (t === 'bigint') row[c] = String(r * 7 + c);
      else if (t === 'decimal(10,2)') row[c] = ((r * 31 + c) % 100000 / 100).toFixed(2);
      else if (t === 'datetime(6)') row[c] = `2026-0${1 + (r % 9)}-1${r % 10} 12:${String(r % 60).padStart(2, '0')}:00.000000`;
      else if (t === 'tinyint(1)') row[c] = String(r % 2);
      else if (t === 'blob') row[c] = '<binary>';
      else if (t === 'double') row[c] = String((r * 1.37 + c) / 3);
      else if (t === 'text') row[c] = r % 50 === 0 ? 'long text '.repeat(30) : `note ${r}`;
      else row[c] = `name ${r} ${c}`;
    }
    data[r] = row;
  }
  return { columns, rows: data, status: 'success' };
}

const bundle = await esbuild.build({
  entryPoints: ['src/renderer/resultGrid.ts'],
  bundle: true,
  write: false,
  format: 'iife',
  globalName: 'VdbGrid',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  define: { 'process.env.NODE_ENV': '"production"' },
});
const gridJs = bundle.outputFiles[0].text;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--enable-precise-memory-info', '--js-flags=--expose-gc',
  ],
});

function pct(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** Main-thread CPU seconds of the page's renderer (steady under a loaded machine, unlike wall time). */
async function threadTime(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'ThreadTime')?.value ?? 0;
}

async function runOne(kind, json) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  await page.setContent('<!doctype html><html><body style="margin:0"><div id="host"></div></body></html>');
  await page.addScriptTag({ content: gridJs });
  await page.evaluate(() => globalThis.gc?.());
  const heapBefore = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? 0);
  // "The data arrives": parsed once, outside the measured part.
  await page.evaluate((text) => { globalThis.__result = JSON.parse(text); }, json);
  await page.evaluate(() => globalThis.gc?.());
  const heapParsed = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? 0);
  const cpu0 = await threadTime(cdp);
  const build = await page.evaluate(
    async ({ kind, timeoutMs }) => {
      const raf = () => new Promise((r) => requestAnimationFrame(() => r()));
      const host = document.getElementById('host');
      const result = globalThis.__result;
      const t0 = performance.now();
      if (kind === 'grid') {
        const output = { v: 1, result, sql: 'select', target: { hostId: 'h', owner: 'o', name: 'db', ref: 'main' }, ranAt: '', elapsedMs: 0, limit: 0 };
        new VdbGrid.ResultGrid(output, { copy() {}, export() {} }, host, { maxHeight: 600 });
        globalThis.__scroller = host.querySelector('.vdb-grid');
      } else {
        const wrap = document.createElement('div');
        wrap.style.cssText = 'height:600px;overflow:auto';
        const table = document.createElement('table');
        const thead = document.createElement('thead');
        const hr = document.createElement('tr');
        for (const c of result.columns) {
          const th = document.createElement('th');
          th.textContent = c.name;
          th.style.cssText = 'position:sticky;top:0';
          hr.appendChild(th);
        }
        thead.appendChild(hr);
        table.appendChild(thead);
        const tbody = document.createElement('tbody');
        const deadline = t0 + timeoutMs;
        for (let r = 0; r < result.rows.length; r++) {
          const tr = document.createElement('tr');
          const row = result.rows[r];
          for (let c = 0; c < row.length; c++) {
            const td = document.createElement('td');
            td.textContent = row[c] === null ? 'NULL' : row[c];
            tr.appendChild(td);
          }
          tbody.appendChild(tr);
          if ((r & 1023) === 0 && performance.now() > deadline) return { timedOut: true };
        }
        table.appendChild(tbody);
        wrap.appendChild(table);
        host.appendChild(wrap);
        globalThis.__scroller = wrap;
      }
      await raf();
      await raf();
      return { firstPaint: performance.now() - t0, domNodes: document.getElementsByTagName('*').length };
    },
    { kind, timeoutMs: TABLE_TIMEOUT_MS },
  );
  if (build.timedOut) {
    await page.close();
    return { kind, timedOut: true };
  }
  const cpu1 = await threadTime(cdp);
  // Scroll: one step per frame (and a horizontal step every 10th); the work of each step is
  // timed in the page (wall), the main thread's CPU over all steps through CDP.
  const scroll = await page.evaluate(async ({ frames, stepPx }) => {
    const raf = () => new Promise((r) => requestAnimationFrame(() => r()));
    const scroller = globalThis.__scroller;
    const work = [];
    const intervals = [];
    const step = stepPx;
    let last = performance.now();
    for (let i = 0; i < frames; i++) {
      await raf();
      const now = performance.now();
      intervals.push(now - last);
      const s = performance.now();
      scroller.scrollTop += step;
      if (i % 10 === 0) scroller.scrollLeft += 150;
      scroller.dispatchEvent(new Event('scroll'));
      await Promise.resolve();
      void scroller.offsetHeight;
      void document.body.getBoundingClientRect();
      work.push(performance.now() - s);
      last = performance.now();
    }
    return { work, intervals };
  }, { frames: SCROLL_FRAMES, stepPx: SCROLL_STEP_PX });
  const cpu2 = await threadTime(cdp);
  await page.evaluate(() => globalThis.gc?.());
  const heapAfterGc = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? 0);
  await page.close();
  return {
    kind,
    firstPaint: build.firstPaint,
    firstPaintCpu: (cpu1 - cpu0) * 1000,
    workP95: pct(scroll.work, 95),
    workMax: Math.max(...scroll.work),
    frameP95: pct(scroll.intervals.slice(1), 95),
    scrollCpuPerFrame: ((cpu2 - cpu1) * 1000) / SCROLL_FRAMES,
    domNodes: build.domNodes,
    heapGrowth: heapAfterGc - heapBefore,
    heapData: heapParsed - heapBefore,
    jsonBytes: json.length,
  };
}

const f = (n) => n.toFixed(1);
const r2 = (a, b) => (a / b).toFixed(2);
const lines = [];
const load = (await import('node:os')).loadavg()[0].toFixed(1);
for (const [rowsN, colsN] of SIZES) {
  const json = JSON.stringify(makeResult(rowsN, colsN));
  const grid = await runOne('grid', json);
  const table = await runOne('table', json);
  const label = `${rowsN.toLocaleString('en-US')} × ${colsN} (${(json.length / 1e6).toFixed(1)} MB JSON)`;
  const heapX = (x) => (x.heapGrowth / x.jsonBytes).toFixed(2);
  const show = (x) =>
    `first paint ${f(x.firstPaint)} ms wall / ${f(x.firstPaintCpu)} ms CPU, scroll step p95 ${f(x.workP95)} ms wall (max ${f(x.workMax)}), ` +
    `scroll CPU ${f(x.scrollCpuPerFrame)} ms/frame, frame interval p95 ${f(x.frameP95)} ms, ${x.domNodes} DOM nodes, heap +${(x.heapGrowth / 1e6).toFixed(1)} MB = ${heapX(x)}× JSON (the parsed result alone: ${(x.heapData / x.jsonBytes).toFixed(2)}×)`;
  console.log(`\n${label}`);
  console.log(`  grid : ${show(grid)}`);
  if (table.timedOut) {
    console.log(`  table: did not finish building within ${TABLE_TIMEOUT_MS / 1000} s`);
    lines.push(`| ${label} | ${f(grid.firstPaint)} / ${f(grid.firstPaintCpu)} | > ${TABLE_TIMEOUT_MS} (gave up) | — | ${f(grid.workP95)} | — | ${f(grid.scrollCpuPerFrame)} | — | ${heapX(grid)}× | — |`);
  } else {
    console.log(`  table: ${show(table)}`);
    console.log(`  grid/table: first paint ${r2(grid.firstPaint, table.firstPaint)} wall, ${r2(grid.firstPaintCpu, table.firstPaintCpu)} CPU; scroll CPU/frame ${r2(grid.scrollCpuPerFrame, table.scrollCpuPerFrame)}; heap ${r2(grid.heapGrowth, table.heapGrowth)}`);
    lines.push(`| ${label} | ${f(grid.firstPaint)} / ${f(grid.firstPaintCpu)} | ${f(table.firstPaint)} / ${f(table.firstPaintCpu)} | ${r2(grid.firstPaint, table.firstPaint)} / ${r2(grid.firstPaintCpu, table.firstPaintCpu)} | ${f(grid.workP95)} | ${f(table.workP95)} | ${f(grid.scrollCpuPerFrame)} | ${f(table.scrollCpuPerFrame)} | ${heapX(grid)}× | ${heapX(table)}× |`);
  }
}
console.log(`\nload average at start: ${load}`);
console.log('\n| result | grid first paint ms (wall / CPU) | table first paint ms (wall / CPU) | grid ÷ table | grid scroll step p95 ms (wall) | table scroll step p95 ms (wall) | grid scroll CPU ms/frame | table scroll CPU ms/frame | grid heap ÷ JSON | table heap ÷ JSON |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const l of lines) console.log(l);
await browser.close();
