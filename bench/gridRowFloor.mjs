// What a screen of new rows costs Chromium (issue #28): the diff view's scroll (bench/pullDiff.mjs)
// is paced by the renderer's CPU on two shared cores; this asks how much of it our grid's code and
// row layout cost, against rows built by hand and against no elements at all. One page each, the
// grid's own CSS (src/renderer/gridStyles.ts), 100,000 rows of a diff (id, name, price old → new,
// category; the id frozen, as the diff view freezes the key); 200 jumps of 500 rows (as
// bench/pullDiff.mjs steps a page a step), each waiting for the frame that shows its rows.
// Variants, alternated in rounds in one browser:
// - our grid: src/renderer/resultGrid.ts with a paged source whose pages are answered from memory
//   in the next task (no host, no hub, no bridge);
// - rows, one sticky head: rows as gridRowPainter.ts draws them (row number and frozen cell in one
//   sticky element a row, four cells with their classes and attributes), on screen plus 8 rows each
//   side (gridView.ts's overscan), every row refilled each step;
// - rows, two sticky elements a row: the same with the row number and the frozen cell each sticky
//   in the row's flow (how the grid drew them before 2026-11-29);
// - rows, one sticky pane: the row numbers and frozen cells of all rows in one sticky pane;
// - rows, no frozen column; rows on screen only (no overscan); one text a row (the same characters
//   as one text node a row: what each element costs); canvas (the cells drawn on a canvas kept in
//   view: what no elements cost).
// Prints per step: wall time, the renderer's and GPU process's CPU (/proc), and the renderer main
// thread's script, style and layout (CDP Performance metrics). Never passes or fails.
//
//   flock /tmp/vdb-heavy.lock node bench/gridRowFloor.mjs          # 3 rounds
//   BENCH_ROUNDS=5 …; BENCH_VARIANTS='our grid;canvas' … (names as printed, ';' between)
//   BENCH_MUTATIONS=1 … also prints the DOM mutations each variant made, by kind and target
import * as esbuild from 'esbuild';
import { ROWS_DRAWN_JS, launchChromium } from './browser.mjs';
import { cpuOfTree, cpuSpent } from './procCpu.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const STEPS = 200;
const VARIANTS = {
  'our grid': { kind: 'our grid' },
  'rows, one sticky head': { kind: 'rows', layout: 'head' },
  'rows, two sticky elements a row': { kind: 'rows', layout: 'sticky cells' },
  'rows, one sticky pane': { kind: 'rows', layout: 'pane' },
  'rows, no frozen column': { kind: 'rows', layout: 'no frozen' },
  'rows on screen only': { kind: 'rows', layout: 'head', overscan: 0 },
  'one text a row': { kind: 'rows', layout: 'one text' },
  canvas: { kind: 'canvas' },
};
const chosen = process.env.BENCH_VARIANTS?.split(';') ?? Object.keys(VARIANTS);

const bundleOf = async (contents) =>
  (
    await esbuild.build({
      stdin: { contents, resolveDir: process.cwd(), loader: 'ts' },
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
    })
  ).outputFiles[0].text;
const styles = await bundleOf("import { injectStyles } from './src/renderer/gridStyles'; injectStyles(document);");
const grid = await bundleOf("import { ResultGrid } from './src/renderer/resultGrid'; globalThis.ResultGrid = ResultGrid;");

// ---- in the page (each function is sent as its source text)

const ROW = 22;
const WIDTHS = [100, 160, 180, 140];
const GUTTER = 72;

/** The cells of view row v: id, name, price old → new, category. */
function values(v) {
  const cats = ['fruit', 'vegetable', 'dairy', 'bakery', 'meat'];
  return [String(v + 1), `item-${v + 1}`, `${((v % 997) + 0.25).toFixed(2)} → ${((v % 997) + 1.25).toFixed(2)}`, cats[v % 5]];
}

/** A 1200×760 scroller of 100,000 rows with the grid's classes; returns it and its canvas. */
function scrollerOf() {
  const root = document.createElement('div');
  root.className = 'vdb-result';
  root.innerHTML = '<div class="vdb-grid" style="width:1200px;height:760px"><div class="vdb-canvas"></div></div>';
  document.body.appendChild(root);
  const scroller = root.querySelector('.vdb-grid');
  const canvas = root.querySelector('.vdb-canvas');
  canvas.style.cssText = `height:${100000 * ROW}px;width:800px`;
  return { scroller, canvas };
}

/** The rows drawn on a canvas kept in view. */
function canvasRows() {
  const { scroller, canvas } = scrollerOf();
  const c = document.createElement('canvas');
  c.width = 1200;
  c.height = 760;
  c.style.cssText = 'position:sticky;top:0;left:0;display:block';
  canvas.appendChild(c);
  const ctx = c.getContext('2d', { alpha: false });
  const cs = getComputedStyle(scroller);
  const draw = (top) => {
    const first = Math.floor(top / ROW);
    ctx.fillStyle = cs.backgroundColor === 'rgba(0, 0, 0, 0)' ? '#fff' : cs.backgroundColor;
    ctx.fillRect(0, 0, 1200, 760);
    ctx.font = cs.font;
    ctx.textBaseline = 'middle';
    for (let i = 0; i < Math.ceil(760 / ROW) + 1; i++) {
      const v = first + i;
      const y = i * ROW - (top - first * ROW);
      ctx.fillStyle = v % 2 ? '#8881' : '#0000';
      ctx.fillRect(GUTTER, y, 580, ROW);
      ctx.fillStyle = '#9ccc2c33';
      ctx.fillRect(332, y, 180, ROW);
      ctx.fillStyle = cs.color;
      ctx.textAlign = 'right';
      ctx.fillText(String(v + 1), GUTTER - 6, y + ROW / 2);
      let left = GUTTER;
      values(v).forEach((text, j) => {
        const right = j === 0 || j === 2;
        ctx.textAlign = right ? 'right' : 'left';
        ctx.fillText(text, right ? left + WIDTHS[j] - 6 : left + 6, y + ROW / 2, WIDTHS[j] - 12);
        left += WIDTHS[j];
        ctx.fillRect(left - 1, y, 1, ROW);
      });
    }
  };
  scroller.addEventListener('scroll', () => draw(scroller.scrollTop));
  draw(0);
  stepper(scroller, () => true);
}

/** One row element by hand: where its row number and frozen cell go depends on `layout`. */
function rowOf(layout, pane) {
  const row = document.createElement('div');
  row.className = 'vdb-row';
  row.setAttribute('role', 'row');
  const num = document.createElement('div');
  num.className = 'vdb-rownum';
  let head = row;
  let side;
  if (layout === 'pane') {
    side = document.createElement('div');
    side.className = 'vdb-row';
    side.style.width = `${GUTTER + WIDTHS[0]}px`;
    pane.appendChild(side);
    head = side;
  } else if (layout !== 'sticky cells') {
    head = document.createElement('div');
    head.className = 'vdb-rowhead';
    head.style.width = `${GUTTER + (layout === 'head' ? WIDTHS[0] : 0)}px`;
    row.appendChild(head);
  } else num.style.cssText = 'position:sticky;left:0;z-index:1;display:inline-block';
  head.appendChild(num);
  const cells = [];
  let left = GUTTER;
  for (const w of layout === 'one text' ? [] : WIDTHS) {
    const cell = document.createElement('div');
    cell.setAttribute('role', 'gridcell');
    const frozen = cells.length === 0 && layout !== 'no frozen';
    cell.style.left = `${left}px`;
    cell.style.width = `${w}px`;
    if (frozen && layout === 'sticky cells') cell.style.cssText += 'position:sticky;display:inline-block;vertical-align:top;z-index:1';
    (frozen && layout !== 'sticky cells' ? head : row).appendChild(cell);
    cells.push({
      cell,
      cls: frozen ? 'vdb-cell frozen num' : ['vdb-cell num', 'vdb-cell', 'vdb-cell num changed', 'vdb-cell'][cells.length],
    });
    left += w;
  }
  row.style.width = `${layout === 'one text' ? 652 : left}px`;
  if (layout === 'one text') num.style.width = '652px';
  return { row, side, num, cells };
}

/** Rows by hand, every one refilled at each step. */
function domRows({ layout, overscan = 8 }) {
  const { scroller, canvas } = scrollerOf();
  let pane;
  if (layout === 'pane') {
    pane = document.createElement('div');
    pane.style.cssText = `position:sticky;left:0;top:0;height:0;width:${GUTTER + WIDTHS[0]}px;z-index:1`;
    canvas.appendChild(pane);
  }
  const rows = [];
  for (let i = 0; i < Math.ceil(760 / ROW) + 1 + 2 * overscan; i++) {
    const rec = rowOf(layout, pane);
    canvas.appendChild(rec.row);
    rows.push(rec);
  }
  const draw = (top) => {
    const first = Math.max(0, Math.floor(top / ROW) - overscan);
    rows.forEach((rec, i) => {
      const v = first + i;
      rec.row.className = v % 2 ? 'vdb-row odd modified' : 'vdb-row modified';
      rec.row.style.transform = `translateY(${v * ROW}px)`;
      if (rec.side) {
        rec.side.className = rec.row.className;
        rec.side.style.transform = rec.row.style.transform;
      }
      rec.row.setAttribute('aria-rowindex', String(v + 2));
      const vals = values(v);
      rec.num.textContent = rec.cells.length ? String(v + 1) : `${v + 1} ${vals.join(' ')}`;
      rec.cells.forEach(({ cell, cls }, j) => {
        cell.className = cls;
        cell.textContent = vals[j];
        cell.title = j === 2 ? `Was: ${vals[j].split(' ')[0]}` : '';
        cell.setAttribute('aria-colindex', String(j + 2));
        cell.setAttribute('data-c', String(j));
        cell.setAttribute('data-r', String(v));
      });
    });
  };
  scroller.addEventListener('scroll', () => draw(scroller.scrollTop));
  draw(0);
  stepper(scroller, () => true);
}

/** Our grid showing a paged diff of the same rows, every row modified, pages answered from memory. */
function ourGrid() {
  const host = document.createElement('div');
  host.style.width = '1200px';
  document.body.appendChild(host);
  const columns = ['id', 'name', 'price', 'category'].map((name) => ({ name, type: name === 'price' ? 'DECIMAL(10,2)' : 'TEXT' }));
  const cellsOf = (v, price) => [String(v + 1), `item-${v + 1}`, price.toFixed(2), values(v)[3]];
  let g;
  const post = (m) => {
    if (m.type !== 'page.request') return;
    setTimeout(() => {
      const rows = [];
      const old = [];
      for (let v = m.start; v < Math.min(m.end, 100000); v++) {
        rows.push(cellsOf(v, (v % 997) + 1.25));
        old.push(cellsOf(v, (v % 997) + 0.25));
      }
      g.receive({
        type: 'page.result',
        sourceId: 'diff',
        requestId: m.requestId,
        start: m.start,
        rows,
        kinds: rows.map(() => 'modified'),
        old,
      });
    }, 0);
  };
  const target = { hostId: 'h', owner: 'bench', name: 'b', ref: 'pull' };
  const output = { v: 1, kind: 'paged', sourceId: 'diff', columns, target, commit: 'c', title: 'items', pageSize: 500 };
  Object.assign(output, { totalRows: 100000, serverSort: false, serverFilter: false, frozenColumns: 1 });
  g = new globalThis.ResultGrid(output, { copy() {}, export() {}, post }, host, { maxHeight: 760 });
  // Drawn: no row on screen waiting, on the canvas of a leap or as row elements (ROWS_DRAWN_JS).
  stepper(host.querySelector('.vdb-grid'), () => globalThis.rowsDrawn());
}

/** globalThis.runSteps(n): n jumps of 500 rows, each scrolled between frames and drawn before the next. */
function stepper(scroller, drawn) {
  globalThis.runSteps = (n) =>
    new Promise((resolve, reject) => {
      let s = 0;
      const t0 = performance.now();
      const step = () => {
        if (s++ >= n) return resolve(performance.now() - t0);
        scroller.scrollTop = s * 500 * ROW;
        const since = performance.now();
        const next = () =>
          requestAnimationFrame(() =>
            setTimeout(() => {
              if (performance.now() - since > 10_000) return reject(new Error(`step ${s} was never drawn`));
              if (drawn()) step();
              else next();
            }, 0),
          );
        next();
      };
      step();
    });
}

// ---- the runs

const pageScript = (v) => {
  const fns = [values, scrollerOf, canvasRows, rowOf, domRows, ourGrid, stepper].join('\n');
  const start = v.kind === 'our grid' ? 'ourGrid()' : v.kind === 'canvas' ? 'canvasRows()' : `domRows(${JSON.stringify(v)})`;
  return `${ROWS_DRAWN_JS}\nconst ROW = ${ROW}, WIDTHS = ${JSON.stringify(WIDTHS)}, GUTTER = ${GUTTER};\n${fns}\n${start};`;
};

function watchMutations() {
  globalThis.__mut = new Map();
  new MutationObserver((ms) => {
    for (const m of ms) {
      const k = `${m.type} ${m.attributeName ?? ''} on ${m.target.className || m.target.nodeName}`;
      globalThis.__mut.set(k, (globalThis.__mut.get(k) ?? 0) + 1);
    }
  }).observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
}

async function runOne(browser, name) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.setContent('<!doctype html><meta charset="utf-8"><body style="margin:0"></body>');
  await page.addScriptTag({ content: styles });
  await page.addScriptTag({ content: grid });
  await page.addScriptTag({ content: pageScript(VARIANTS[name]) });
  await page.evaluate((n) => globalThis.runSteps(n), 20); // warm-up
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  if (process.env.BENCH_MUTATIONS) await page.evaluate(watchMutations);
  const m0 = await metrics();
  const c0 = cpuOfTree();
  const wall = await page.evaluate((n) => globalThis.runSteps(n), STEPS);
  const cpu = new Map(cpuSpent(c0, cpuOfTree()).rows);
  const m1 = await metrics();
  if (process.env.BENCH_MUTATIONS) {
    const top = await page.evaluate(() => [...globalThis.__mut].sort((a, b) => b[1] - a[1]).slice(0, 25));
    console.log(`${name}: DOM mutations per step\n${top.map(([k, n]) => `  ${(n / STEPS).toFixed(1)}\t${k}`).join('\n')}`);
  }
  await page.close();
  const d = (k) => ((m1[k] - m0[k]) * 1000) / STEPS;
  const per = (k) => ((cpu.get(k) ?? 0) * 1000) / STEPS;
  const [script, style, layout] = [d('ScriptDuration'), d('RecalcStyleDuration'), d('LayoutDuration')];
  return { wall: wall / STEPS, renderer: per('chromium renderer'), gpu: per('chromium gpu'), script, style, layout };
}

const browser = await launchChromium();
const runs = new Map(chosen.map((v) => [v, []]));
for (let round = 0; round < ROUNDS; round++) for (const name of chosen) runs.get(name).push(await runOne(browser, name));
await browser.close();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const med = (name, k) => median(runs.get(name).map((r) => r[k]));
const f = (x) => x.toFixed(1);
const ref = chosen.includes('our grid') ? 'our grid' : chosen[0];
console.log(`\nA screen of new rows: ${STEPS} jumps of 500 rows, 1200×760 grid, median of ${ROUNDS} rounds (ms per step)\n`);
console.log(`| rows | wall | renderer CPU | GPU process CPU | main thread: script / style / layout | renderer ÷ ${ref} |`);
console.log('|---|---|---|---|---|---|');
for (const v of chosen) {
  const main = `${f(med(v, 'script'))} / ${f(med(v, 'style'))} / ${f(med(v, 'layout'))}`;
  const ratio = (med(v, 'renderer') / med(ref, 'renderer')).toFixed(2);
  console.log(`| ${v} | ${f(med(v, 'wall'))} | ${f(med(v, 'renderer'))} | ${f(med(v, 'gpu'))} | ${main} | ${ratio} |`);
}
