// Result grid benchmark in Chromium: time to first paint and scroll frame cost of the
// virtualized grid (src/renderer/resultGrid.ts) against a plain full-DOM <table> built in the
// same page from the same data, and memory against the JSON size. Prints ratios; never
// passes or fails on time.
//
//   node bench/grid.mjs                    # 1,000 x 10 and 100,000 x 20
//   node bench/grid.mjs --quick            # 1,000 x 10 only
//   node bench/grid.mjs --large            # 100,000 x 20 only
//   node bench/grid.mjs --before=<git ref> # also the grid as of that commit, same run, alternating
//   node bench/grid.mjs --runs=3           # each grid 3 times per size (medians)
//   node bench/grid.mjs --no-table         # skip the full-DOM table (2+ minutes at 100,000 x 20)
//
// The page receives the result as JSON text ("the data arrives"), parses it, and the clock
// runs from just after the parse to the second animation frame after the grid is built
// (the first frame that shows it). Heap figures (JS heap + ArrayBuffer backing stores after a
// forced GC, through CDP Runtime.getHeapUsage, minus the empty page, over the JSON's length): while the text and the parsed result are both alive (the
// floor of the peak during JSON.parse); the parsed result alone; the grid's peak (parsed rows
// and its compact store both alive, just before it lets the rows go); and the steady state
// once the page keeps no reference to the parsed result (what a displayed result costs).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { launchChromium } from './browser.mjs';

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = process.argv.includes('--quick');
const withTable = !process.argv.includes('--no-table');
const RUNS = Number(arg('runs') ?? 1);
const beforeRef = arg('before');
const SIZES = quick
  ? [[1000, 10]]
  : process.argv.includes('--large')
    ? [[100000, 20]]
    : [
        [1000, 10],
        [100000, 20],
      ];
const SCROLL_FRAMES = 120;
// A wheel notch is about 100-120 px: each frame scrolls that far, as a person scrolling does.
const SCROLL_STEP_PX = 120;
const TABLE_TIMEOUT_MS = 120000;

const TYPES = ['bigint', 'varchar(255)', 'decimal(10,2)', 'datetime(6)', 'text', 'tinyint(1)', 'blob', 'double'];

function makeResult(rows, cols) {
  const columns = [];
  for (let c = 0; c < cols; c++) {
    columns.push({
      name: c === 0 ? 'id' : `col_${c}`,
      type: c === 0 ? 'bigint' : TYPES[c % TYPES.length],
      is_primary_key: c === 0,
      source_table: 't',
    });
  }
  const data = new Array(rows);
  for (let r = 0; r < rows; r++) {
    const row = new Array(cols);
    for (let c = 0; c < cols; c++) {
      const t = columns[c].type;
      if (c > 0 && (r + c) % 17 === 0) row[c] = null;
      else if (t === 'bigint') row[c] = String(r * 7 + c);
      else if (t === 'decimal(10,2)') row[c] = (((r * 31 + c) % 100000) / 100).toFixed(2);
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

async function bundleGrid(root) {
  const bundle = await esbuild.build({
    entryPoints: [join(root, 'src/renderer/resultGrid.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'VdbGrid',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  return bundle.outputFiles[0].text;
}

/** The grid's sources as of a commit (renderer + shared, which is all it imports, and the base tsconfig), bundled. */
async function bundleAt(ref) {
  const dir = mkdtempSync(join(tmpdir(), 'grid-before-'));
  try {
    const tar = execFileSync('git', ['archive', ref, 'tsconfig.json', 'src/renderer', 'src/shared'], { maxBuffer: 64 << 20 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    // Resolve the bundle's packages from this checkout.
    execFileSync('ln', ['-s', join(process.cwd(), 'node_modules'), join(dir, 'node_modules')]);
    return await bundleGrid(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const grids = [{ kind: 'grid', label: beforeRef ? 'grid (after)' : 'grid', js: await bundleGrid(process.cwd()) }];
if (beforeRef)
  grids.unshift({
    kind: 'grid',
    label: `grid (before, ${execFileSync('git', ['rev-parse', '--short', beforeRef]).toString().trim()})`,
    js: await bundleAt(beforeRef),
  });

const browser = await launchChromium(['--enable-precise-memory-info']);

function pct(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** Main-thread CPU seconds of the page's renderer (steady under a loaded machine, unlike wall time). */
async function threadTime(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'ThreadTime')?.value ?? 0;
}

async function runOne(kind, json, gridJs = '') {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  // The page fetches the JSON over (routed) HTTP, as a webview receives bytes: passing it as an
  // evaluate() argument would embed it in a script source that DevTools keeps alive for the
  // page's lifetime (~2 bytes per character in the heap, which the heap figures would count).
  await page.route('http://grid.bench/**', (route) =>
    route.request().url().endsWith('/result.json')
      ? route.fulfill({ body: json, contentType: 'application/json' })
      : route.request().url().endsWith('/warmup.json')
        ? route.fulfill({ body: '{"rows":[["a",null]]}', contentType: 'application/json' })
        : route.fulfill({
            body: '<!doctype html><html><body style="margin:0"><div id="host"></div></body></html>',
            contentType: 'text/html',
          }),
  );
  await page.goto('http://grid.bench/');
  if (gridJs) await page.addScriptTag({ content: gridJs });
  // JS heap plus ArrayBuffer backing stores (typed arrays live outside the JS heap proper, and
  // the compact store keeps its offsets in them), after a full GC.
  const heap = async () => {
    await page.evaluate(() => globalThis.gc?.());
    const u = await cdp.send('Runtime.getHeapUsage');
    return u.usedSize + (u.backingStorageSize ?? 0);
  };
  // Warm up fetch and JSON.parse, so the baseline already holds their code and caches.
  await page.evaluate(async () => {
    JSON.parse(await (await fetch('/warmup.json')).text());
  });
  await heap();
  const heapBefore = await heap();
  // "The data arrives": parsed once, outside the measured part.
  await page.evaluate(async () => {
    globalThis.__text = await (await fetch('/result.json')).text();
    globalThis.__result = JSON.parse(globalThis.__text);
  });
  const heapTextAndParsed = await heap();
  await page.evaluate(() => {
    delete globalThis.__text;
  });
  const heapParsed = await heap();
  const cpu0 = await threadTime(cdp);
  const wall0 = performance.now();
  const build = await page.evaluate(
    async ({ kind, timeoutMs }) => {
      const raf = () => new Promise((r) => requestAnimationFrame(() => r()));
      const host = document.getElementById('host');
      const result = globalThis.__result;
      // Idle callbacks wait until the harness has read the first paint's CPU: otherwise the
      // grid's compaction, which starts in the idle time after the first frame, would run
      // during the harness's round trip and count as first-paint CPU.
      const held = [];
      const realIdle = globalThis.requestIdleCallback;
      globalThis.requestIdleCallback = (cb, opts) => {
        held.push([cb, opts]);
        return -held.length;
      };
      globalThis.__releaseIdle = () => {
        globalThis.requestIdleCallback = realIdle;
        for (const [cb, opts] of held.splice(0)) realIdle(cb, opts);
      };
      const t0 = performance.now();
      if (kind === 'grid') {
        const output = {
          v: 1,
          result,
          sql: 'select',
          target: { hostId: 'h', owner: 'o', name: 'db', ref: 'main' },
          ranAt: '',
          elapsedMs: 0,
          limit: 0,
        };
        globalThis.__grid = new globalThis.VdbGrid.ResultGrid(output, { copy() {}, export() {} }, host, { maxHeight: 600 });
        globalThis.__ctorMs = performance.now() - t0;
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
      return { firstPaint: performance.now() - t0, ctorMs: globalThis.__ctorMs ?? 0, domNodes: document.getElementsByTagName('*').length };
    },
    { kind, timeoutMs: TABLE_TIMEOUT_MS },
  );
  if (build.timedOut) {
    await page.close();
    return { kind, timedOut: true };
  }
  let cpu1 = await threadTime(cdp);
  const cpuWindowMs = performance.now() - wall0;
  // The grid moves the cells into its compact store in idle time after the first paint.
  const compactMs = await page.evaluate(async () => {
    const t = performance.now();
    globalThis.__releaseIdle?.();
    await globalThis.__grid?.compacted;
    return performance.now() - t;
  });
  const cpuCompact = (await threadTime(cdp)) - cpu1;
  const heapPeak = await heap();
  // The page lets go of the parsed result, as the notebook renderer does after building the grid.
  await page.evaluate(() => {
    delete globalThis.__result;
  });
  const heapSteady = await heap();
  cpu1 = await threadTime(cdp);
  // Scroll: one step per frame (and a horizontal step every 10th); the work of each step is
  // timed in the page (wall), the main thread's CPU over all steps through CDP.
  const scroll = await page.evaluate(
    async ({ frames, stepPx }) => {
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
    },
    { frames: SCROLL_FRAMES, stepPx: SCROLL_STEP_PX },
  );
  const cpu2 = await threadTime(cdp);
  const heapAfterGc = await heap();
  await page.close();
  return {
    kind,
    firstPaint: build.firstPaint,
    ctorMs: build.ctorMs,
    cpuWindowMs,
    firstPaintCpu: (cpu1 - cpu0) * 1000,
    workP95: pct(scroll.work, 95),
    workMax: Math.max(...scroll.work),
    frameP95: pct(scroll.intervals.slice(1), 95),
    scrollCpuPerFrame: ((cpu2 - cpu1) * 1000) / SCROLL_FRAMES,
    domNodes: build.domNodes,
    heapGrowth: heapAfterGc - heapBefore,
    heapData: heapParsed - heapBefore,
    heapParse: heapTextAndParsed - heapBefore,
    heapPeak: heapPeak - heapBefore,
    heapSteady: heapSteady - heapBefore,
    compactMs,
    compactCpu: cpuCompact * 1000,
    jsonBytes: json.length,
  };
}

const f = (n) => n.toFixed(1);
const r2 = (a, b) => (a / b).toFixed(2);
const median = (xs) => pct(xs, 50);
/** Medians of every numeric figure over several runs of one variant. */
function med(runs) {
  const out = { ...runs[0] };
  for (const k of Object.keys(out)) if (typeof out[k] === 'number') out[k] = median(runs.map((x) => x[k]));
  return out;
}
const lines = [];
const heapLines = [];
const load = (await import('node:os')).loadavg()[0].toFixed(1);
for (const [rowsN, colsN] of SIZES) {
  const json = JSON.stringify(makeResult(rowsN, colsN));
  const runs = grids.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    // Alternating, so a burst of load on the machine hits every variant alike.
    for (let g = 0; g < grids.length; g++) runs[g].push(await runOne('grid', json, grids[g].js));
  }
  const results = runs.map(med);
  const table = withTable ? await runOne('table', json) : undefined;
  const label = `${rowsN.toLocaleString('en-US')} × ${colsN} (${(json.length / 1e6).toFixed(1)} MB JSON)`;
  const x = (bytes, r) => `${(bytes / r.jsonBytes).toFixed(2)}×`;
  const show = (r) =>
    `first paint ${f(r.firstPaint)} ms wall / ${f(r.firstPaintCpu)} ms CPU (constructor ${f(r.ctorMs)} ms; CPU read over ${f(r.cpuWindowMs)} ms wall), scroll step p95 ${f(r.workP95)} ms wall (max ${f(r.workMax)}), ` +
    `scroll CPU ${f(r.scrollCpuPerFrame)} ms/frame, frame interval p95 ${f(r.frameP95)} ms, ${r.domNodes} DOM nodes, ` +
    `heap: text + parsed ${x(r.heapParse, r)}, parsed ${x(r.heapData, r)}, peak with the grid ${x(r.heapPeak, r)}, ` +
    `steady ${x(r.heapSteady, r)} (+${(r.heapSteady / 1e6).toFixed(1)} MB), after scrolling ${x(r.heapGrowth, r)}` +
    (r.kind === 'grid' ? `; compacted ${f(r.compactMs)} ms after first paint (${f(r.compactCpu)} ms CPU)` : '');
  console.log(`\n${label}${RUNS > 1 ? ` (medians of ${RUNS} runs per grid)` : ''}`);
  results.forEach((r, g) => console.log(`  ${grids[g].label}: ${show(r)}`));
  for (let g = 0; g < grids.length; g++) {
    const r = results[g];
    heapLines.push(
      `| ${label} | ${grids[g].label} | ${x(r.heapParse, r)} | ${x(r.heapData, r)} | ${x(r.heapPeak, r)} | **${x(r.heapSteady, r)}** | ${f(r.compactMs)} / ${f(r.compactCpu)} |`,
    );
  }
  if (!table) {
    for (let g = 0; g < grids.length; g++) {
      const r = results[g];
      lines.push(
        `| ${label} | ${grids[g].label} | ${f(r.firstPaint)} / ${f(r.firstPaintCpu)} | — | — | ${f(r.workP95)} | — | ${f(r.scrollCpuPerFrame)} | — | ${x(r.heapSteady, r)} | — |`,
      );
    }
  } else if (table.timedOut) {
    console.log(`  table: did not finish building within ${TABLE_TIMEOUT_MS / 1000} s`);
    for (let g = 0; g < grids.length; g++) {
      const r = results[g];
      lines.push(
        `| ${label} | ${grids[g].label} | ${f(r.firstPaint)} / ${f(r.firstPaintCpu)} | > ${TABLE_TIMEOUT_MS} (gave up) | — | ${f(r.workP95)} | — | ${f(r.scrollCpuPerFrame)} | — | ${x(r.heapSteady, r)} | — |`,
      );
    }
  } else {
    console.log(`  table: ${show(table)}`);
    for (let g = 0; g < grids.length; g++) {
      const r = results[g];
      lines.push(
        `| ${label} | ${grids[g].label} | ${f(r.firstPaint)} / ${f(r.firstPaintCpu)} | ${f(table.firstPaint)} / ${f(table.firstPaintCpu)} | ${r2(r.firstPaint, table.firstPaint)} / ${r2(r.firstPaintCpu, table.firstPaintCpu)} | ${f(r.workP95)} | ${f(table.workP95)} | ${f(r.scrollCpuPerFrame)} | ${f(table.scrollCpuPerFrame)} | ${x(r.heapSteady, r)} | ${x(table.heapSteady, table)} |`,
      );
    }
  }
}
console.log(`\nload average at start: ${load}`);
console.log(
  '\n| result | variant | grid first paint ms (wall / CPU) | table first paint ms (wall / CPU) | grid ÷ table | grid scroll step p95 ms (wall) | table scroll step p95 ms (wall) | grid scroll CPU ms/frame | table scroll CPU ms/frame | grid heap ÷ JSON (steady) | table heap ÷ JSON |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const l of lines) console.log(l);
console.log(
  '\n| result | variant | text + parsed (JSON.parse floor) | parsed rows | grid peak (rows + store) | grid steady | compaction ms after first paint (wall / CPU) |',
);
console.log('|---|---|---|---|---|---|---|');
for (const l of heapLines) console.log(l);
await browser.close();
