// A pull request whose diff has 100,000 changed rows, through the Changes view's own code (bundled
// from src/ as the extension ships it) against the real hub (dist/hub.js), with the grid in
// Chromium (issue #15). Prints figures and ratios against a baseline run in the same script; never
// passes or fails on time.
//
//   npm run build && flock /tmp/vdb-heavy.lock node --expose-gc --import=tsx bench/pullDiff.mjs
//   BENCH_DIFF_ROWS=20000 … for a quicker look
//   BENCH_BRIDGE=cdp … the earlier bridge (a page.evaluate per message) instead of the socket's
//   BENCH_TRACE=/tmp/t.json … also writes a Chromium trace of the scroll (style, layout, paint per frame);
//   BENCH_STEPS=/tmp/s.json … each scroll step's time and frames, and each page query's time
//   BENCH_PROFILE=/tmp/prof … also writes CPU profiles of the scroll: this process (host, bridge)
//   as host.cpuprofile and the page's renderer as page.cpuprofile (open in Chrome's DevTools)
//
// Setup: a table `items` of N rows on main (CSV import), a branch `changed` where every row gets a
// new price (N modified rows), a pull changed → main.
// Measured:
// - the view: pin the pull (merge base → head), read the table list, the table's columns, then the
//   grid in Chromium asks for pages while it is scrolled from the first row to the last (a
//   PageServer answers from a DiffPageSource over HTTP, bridged to the page);
// - first page: from the HTTP response of the first page query to the second animation frame after
//   the grid got the page (what the user waits for beyond the server): host (parse, PageServer),
//   bridge (bench/socketBridge.mjs: the message as JSON text over a socket to the page, parsed
//   there, as code-server carries a webview's postMessage), grid (receipt to drawn);
// - full scroll: from the first page drawn until the last row is drawn, moving a page of rows at a
//   time (in the page) and waiting until each position is drawn (the row in the DOM, filled, or on
//   the canvas the grid draws a leap on, none of its rows waiting for a page: a page the grid read
//   ahead is loaded before the scroll to it is drawn); then until the row elements are drawn once
//   the scroll has settled;
// - CPU during the scroll and during the baseline's queries, per process (bench/procCpu.mjs): what
//   the two cores spent, which paces both when they are saturated;
// - memory over idle: host (Node heap + array buffers after GC, this process) and webview (JS heap +
//   backing stores after GC), each after the whole scroll minus before the view opened;
// - baseline: every query the view sent (pin, table list, columns, pages), the same SQL text in the
//   same order, sent raw with fetch (no parsing, no paging layer, no grid), on the hub restarted
//   and warmed as it was before the view, so they pay for the hub's copy of the diff as the view
//   did; and one raw query of the whole diff for reference.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { ROWS_DRAWN_JS, launchChromium } from './browser.mjs';
import { hostBundle, hubApi, importItems, itemsCsv, startHub } from './client-common.mjs';
import { cpuOfTree, cpuSpent } from './procCpu.mjs';
import { startSocketBridge } from './socketBridge.mjs';

// The host side as the extension runs it: bundled from src/.
const { loadDiffTableSpec, loadTableChanges, pinChanges, DiffPageSource, PageServer, HubClient } =
  await hostBundle(`export { loadDiffTableSpec, loadTableChanges, pinChanges } from './src/core/review/changesPin';
export { DiffPageSource } from './src/core/review/diffSource';
export { PageServer } from './src/core/paging/pageServer';
export { HubClient } from './src/api/hubClient';`);

const ROWS = Number(process.env.BENCH_DIFF_ROWS ?? 100_000);
const PAGE = 500;
const log = (...a) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${a.join(' ')}\n`);
const gc = globalThis.gc;
/** BENCH_BRIDGE=cdp: the earlier bridge, a page.evaluate per message, for comparison. */
const CDP_BRIDGE = process.env.BENCH_BRIDGE === 'cdp';
const epoch = () => performance.timeOrigin + performance.now();
if (!gc) throw new Error('run with node --expose-gc (host memory is measured after a GC)');

function hostBytes() {
  gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

const mb = (b) => `${(b / 1048576).toFixed(1)} MB`;
const ms = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(0)} ms`);

const dataDir = mkdtempSync(join(tmpdir(), 'vdb-pulldiff-'));
let bridge;
let hub = await startHub({ dataDir, serveArgs: ['--max-rows', '1000000'] });
const browser = await launchChromium();
try {
  log(`setup: ${ROWS.toLocaleString('en-US')} rows on main, every one repriced on "changed"`);
  await hubApi(hub, 'POST', '/databases', { owner: 'bench', name: 'b', visibility: 'public' });
  await importItems(hub, itemsCsv(ROWS, 0), 'create', 'main');
  await hubApi(hub, 'POST', '/databases/bench/b/branches', { name: 'changed', from: { branch: 'main' } });
  await importItems(hub, itemsCsv(ROWS, 1), 'update', 'changed');
  const pull = await hubApi(hub, 'POST', '/databases/bench/b/pulls', {
    title: 'Reprice everything',
    from_branch: { database: { owner: 'bench', name: 'b' }, branch_name: 'changed' },
    to_branch: { database: { owner: 'bench', name: 'b' }, branch_name: 'main' },
  });
  log(`pull #${pull.pull_number} open`);

  /** Every page query the view sends, in order, for the baseline. */
  const sent = [];
  /** Every query the view sends (pin, table list, columns, pages), in order, for the baseline. */
  const every = [];
  let firstResponseAt;
  // The view's runner, as the extension builds it: the real API client (retries a 429 after Retry-After).
  const client = new HubClient({ baseUrl: hub.url, token: hub.token });
  const run = async (query, opts) => {
    const q0 = performance.now();
    const t = await client.runSql(
      { owner: 'bench', name: 'b' },
      { ref: query.at, q: query.sql, limit: opts.limit },
      opts.signal ? { signal: opts.signal } : undefined,
    );
    const page = /DOLT_DIFF\(/.test(query.sql) && /^SELECT diff_type, /.test(query.sql);
    every.push({ page, body: { ref: query.at, q: query.sql, limit: opts.limit } });
    if (page) {
      sent.push({ ref: query.at, q: query.sql, limit: opts.limit, ms: performance.now() - q0 });
      firstResponseAt ??= performance.now();
    }
    return t;
  };
  // Warm the hub's engine workers on this database.
  await hubApi(hub, 'POST', '/databases/bench/b/sql', { ref: 'main', q: 'SELECT COUNT(*) FROM items', limit: 10 });

  // ---- the page with the grid
  const bundle = await esbuild.build({
    entryPoints: [join(process.cwd(), 'src/renderer/resultGrid.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'VdbGrid',
    platform: 'browser',
    target: 'es2022',
    // Names kept in a profile (minified otherwise, as the extension ships it).
    minify: !process.env.BENCH_PROFILE,
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const cdp = await page.context().newCDPSession(page);
  const pageBytes = async () => {
    await page.evaluate(() => globalThis.gc?.());
    const u = await cdp.send('Runtime.getHeapUsage');
    return u.usedSize + (u.backingStorageSize ?? 0);
  };
  let server;
  // The grid's messages to the host (which pages it wants) come over a Playwright binding.
  await page.exposeFunction('hostPost', (m) => server?.handle(m));
  if (CDP_BRIDGE) {
    await page.setContent('<!doctype html><html><body style="margin:0"><div id="host"></div></body></html>');
    await page.addScriptTag({ content: bundle.outputFiles[0].text });
  } else {
    bridge = await startSocketBridge({
      html: '<!doctype html><html><body style="margin:0"><div id="host"></div><script src="/bridge.js"></script><script src="/grid.js"></script></body></html>',
      scripts: { '/grid.js': bundle.outputFiles[0].text },
    });
    await page.goto(bridge.url);
    await bridge.ready;
  }
  const idlePage = await pageBytes();
  const idleHost = hostBytes();

  // The page's frame interval: what one animation frame a scroll step costs at least.
  const frameMs = await page.evaluate(async () => {
    const ticks = [];
    for (let i = 0; i < 31; i++) {
      await new Promise((r) => requestAnimationFrame(() => r()));
      ticks.push(performance.now());
    }
    const gaps = ticks
      .slice(1)
      .map((t, i) => t - ticks[i])
      .sort((a, b) => a - b);
    return gaps[Math.floor(gaps.length / 2)];
  });

  const t0 = performance.now();
  const pinned = await pinChanges({ kind: 'pull', toBranch: 'main', fromBranch: 'changed' }, run);
  const summary = await loadTableChanges(pinned.pair, run);
  const change = summary.tables.find((t) => t.table === 'items');
  if (!change || change.rows?.modified !== ROWS) throw new Error(`expected ${ROWS} modified rows, got ${JSON.stringify(change?.rows)}`);
  const spec = await loadDiffTableSpec(pinned.pair, change, run);
  const source = new DiffPageSource({ pair: pinned.pair, spec, run, knownTotal: ROWS });
  let firstResultAt;
  let firstPostedAt;
  /** CDP bridge only: time in page.evaluate (the copy into the page and the grid's receive), summed over pages. */
  let bridgeTotal = 0;
  server = new PageServer({
    sourceId: 'diff',
    source,
    concurrency: 1,
    post: (m) => {
      const first = m.type === 'page.result' && m.start === 0;
      if (first) {
        firstResultAt = performance.now();
        firstPostedAt = epoch();
      }
      if (!CDP_BRIDGE) return bridge.send(m);
      // The message as one JSON string, parsed in the page (Playwright's own serialization of
      // nested arrays cost about 85 ms a 500-row page, more than the hub's page).
      const b0 = performance.now();
      void page
        .evaluate((text) => globalThis.onHostMessage(JSON.parse(text)), JSON.stringify(m))
        .then(() => {
          if (m.type === 'page.result') bridgeTotal += performance.now() - b0;
        });
    },
  });
  const output = {
    v: 1,
    kind: 'paged',
    sourceId: 'diff',
    columns: source.gridColumns(),
    target: { hostId: 'h', owner: 'bench', name: 'b', ref: 'pull' },
    commit: pinned.pair.to,
    title: 'items',
    pageSize: PAGE,
    totalRows: ROWS,
    serverSort: false,
    serverFilter: false,
    frozenColumns: 1,
  };
  await page.evaluate(ROWS_DRAWN_JS);
  await page.evaluate((o) => {
    globalThis.raf = () => new Promise((r) => requestAnimationFrame(() => r()));
    const epoch = () => performance.timeOrigin + performance.now();
    // Every message from the host: the first page's arrival noted, the grid's receive timed.
    globalThis.onHostMessage = (msg) => {
      if (msg.type === 'page.result' && msg.start === 0) globalThis.firstReceivedAt = epoch();
      const r0 = performance.now();
      globalThis.grid.receive(msg);
      globalThis.receiveMs = (globalThis.receiveMs ?? 0) + performance.now() - r0;
    };
    globalThis.grid = new globalThis.VdbGrid.ResultGrid(
      o,
      { copy() {}, export() {}, post: (m) => globalThis.hostPost(m) },
      document.getElementById('host'),
      { maxHeight: 700 },
    );
    globalThis.scroller = document.querySelector('.vdb-grid');
    // Drawn: the row on screen with its values, none of the rows on screen waiting for a page, on
    // the canvas of a leap or as row elements (bench/browser.mjs ROWS_DRAWN_JS). Not only loaded: a
    // page read ahead is loaded before the grid has drawn the scroll to it.
    globalThis.drawn = (row) => globalThis.rowsDrawn(row);
  }, output);
  server.start();
  // In the page: when the first page arrives, and when it is drawn (second animation frame after).
  const inPage = await page.evaluate(async () => {
    const deadline = performance.now() + 120_000;
    while (!globalThis.drawn(0)) {
      if (performance.now() > deadline) throw new Error('the first page never came');
      await globalThis.raf();
    }
    await globalThis.raf();
    await globalThis.raf();
    return { drawnAt: performance.timeOrigin + performance.now(), receivedAt: globalThis.firstReceivedAt };
  });
  const firstDrawnAt = performance.now();
  const drawAfterReceipt = inPage.drawnAt - inPage.receivedAt;
  const hostPart = firstResultAt - firstResponseAt;
  const bridgePart = inPage.receivedAt - firstPostedAt;
  const toFirstPage = hostPart + bridgePart + drawAfterReceipt;

  const profileDir = process.env.BENCH_PROFILE;
  const hostProfiler = profileDir ? new Session() : undefined;
  if (hostProfiler) {
    mkdirSync(profileDir, { recursive: true });
    hostProfiler.connect();
    await hostProfiler.post('Profiler.enable');
    await hostProfiler.post('Profiler.start');
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  if (process.env.BENCH_TRACE)
    await browser.startTracing(page, {
      path: process.env.BENCH_TRACE,
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'cc', 'blink', 'v8'],
    });
  const cpu0 = cpuOfTree();
  // Scroll in the page, a page of rows at a time, from the first row to the last, waiting until
  // each position is drawn (the grid asks for the pages it needs as it goes). Each step scrolls
  // between frames, as a person's scroll does: once a frame has the position's rows, that frame
  // paints before the next step (a task after the frame). Scrolling inside the frame's animation
  // callback instead forced a layout of the rows just filled and moved on before they were painted.
  const steps = await page.evaluate(
    async ({ total, step }) => {
      const steps = [];
      const rowH = globalThis.scroller.scrollHeight / globalThis.grid.source.rowCount;
      const screen = Math.max(1, Math.floor(globalThis.scroller.clientHeight / rowH));
      const afterFrame = () => new Promise((r) => setTimeout(r, 0));
      for (let top = 0; ; top = Math.min(total - screen, top + step)) {
        const s0 = performance.now();
        let frames = 0;
        globalThis.scroller.scrollTop = top * rowH;
        const last = Math.min(total - 1, top + screen - 1);
        const deadline = performance.now() + 120_000;
        while (!globalThis.drawn(last)) {
          if (performance.now() > deadline) throw new Error(`row ${last} never came`);
          await globalThis.raf();
          frames++;
        }
        if (frames > 0) await afterFrame();
        steps.push({ ms: performance.now() - s0, frames });
        if (last === total - 1) return steps;
      }
    },
    { total: ROWS, step: PAGE },
  );
  const done = performance.now();
  const scrollCpu = cpuSpent(cpu0, cpuOfTree());
  // Once the scroll settles (the grid's idle report, 150 ms after the last scroll event) the row
  // elements replace the canvas: how long after the last step they are there.
  const settled = await page.evaluate(async (last) => {
    const s0 = performance.now();
    while (document.querySelector('.vdb-motion:not([hidden])') || !globalThis.drawn(last)) await globalThis.raf();
    return performance.now() - s0;
  }, ROWS - 1);
  if (process.env.BENCH_TRACE) await browser.stopTracing();
  if (hostProfiler) {
    writeFileSync(join(profileDir, 'page.cpuprofile'), JSON.stringify((await cdp.send('Profiler.stop')).profile));
    writeFileSync(join(profileDir, 'host.cpuprofile'), JSON.stringify((await hostProfiler.post('Profiler.stop')).profile));
    hostProfiler.disconnect();
  }
  const stepMs = steps.map((x) => x.ms).sort((a, b) => a - b);
  const firstFrameSteps = steps.filter((x) => x.frames === 1).length;
  if (process.env.BENCH_STEPS) writeFileSync(process.env.BENCH_STEPS, JSON.stringify({ steps, pages: sent.map((x) => x.ms) }));
  const framesWaited = steps.reduce((n, x) => n + x.frames, 0);
  const receiveTotal = await page.evaluate(() => globalThis.receiveMs ?? 0);
  const fullScroll = done - firstDrawnAt;
  const viewTotal = done - t0;
  const hostOver = hostBytes() - idleHost;
  const pageOver = (await pageBytes()) - idlePage;
  server.dispose();
  log(`view done: ${sent.length} page queries`);

  // ---- baseline: the same page queries raw, in the same order, on the hub started again and
  // warmed as before the view (so the raw pages pay for the hub's copy of the diff as the view's
  // did); and one whole-diff query
  await hub.stop();
  hub = await startHub({ dataDir, token: hub.token, serveArgs: ['--max-rows', '1000000'] });
  await hubApi(hub, 'POST', '/databases/bench/b/sql', { ref: 'main', q: 'SELECT COUNT(*) FROM items', limit: 10 });
  const rawCpu0 = cpuOfTree();
  const r0 = performance.now();
  let rawPages = 0;
  for (const { page, body } of every) {
    const p0 = performance.now();
    await hubApi(hub, 'POST', '/databases/bench/b/sql', body);
    if (page) rawPages += performance.now() - p0;
  }
  const rawAll = performance.now() - r0;
  const rawCpu = cpuSpent(rawCpu0, cpuOfTree());
  // ---- one page: as the view got it (the hub serves a page from its copy of the diff from the
  // second page on) and
  // computed from the whole diff as before (the same page wrapped in a subquery, which the hub
  // does not take for a page shape); ten pages spread over the diff
  const step = Math.max(1, Math.floor(sent.length / 10));
  const sample = sent.filter((_, i) => i % step === 0).slice(0, 10);
  const s0 = performance.now();
  for (const { ms: _ms, ...s } of sample)
    await hubApi(hub, 'POST', '/databases/bench/b/sql', { ...s, q: `SELECT * FROM (${s.q}) AS page` });
  const wholePerPage = (performance.now() - s0) / sample.length;
  const viewPageMs = sent
    .slice(2)
    .map((s) => s.ms)
    .sort((a, b) => a - b);
  const medianViewPage = viewPageMs[Math.floor(viewPageMs.length / 2)] ?? 0;
  const w0 = performance.now();
  const whole = await hubApi(hub, 'POST', '/databases/bench/b/sql', {
    ref: pinned.pair.to,
    q: `SELECT * FROM DOLT_DIFF('${pinned.pair.from}', '${pinned.pair.to}', 'items')`,
    limit: ROWS + 1,
  });
  const rawWhole = performance.now() - w0;
  if (whole.rows.length !== ROWS) throw new Error(`raw whole diff: ${whole.status} ${whole.rows.length}`);

  console.log(
    `\nPull diff of ${ROWS.toLocaleString('en-US')} changed rows (pages of ${PAGE}, ${sent.length} page queries; bridge: ${CDP_BRIDGE ? 'CDP page.evaluate' : 'socket'})\n`,
  );
  console.log('| figure | value |');
  console.log('|---|---|');
  console.log(
    `| first page drawn after its response | ${ms(toFirstPage)} (host ${ms(hostPart)}, bridge ${ms(bridgePart)}, grid ${ms(drawAfterReceipt)}) |`,
  );
  console.log(`| full scroll, first row to last | ${ms(fullScroll)} |`);
  console.log(
    `| the grid's receive summed${CDP_BRIDGE ? `; the bench's CDP bridge (page.evaluate per page, the receive included), summed` : ''} | ${ms(receiveTotal)}${CDP_BRIDGE ? `; ${ms(bridgeTotal)}` : ''} |`,
  );
  console.log(
    `| scroll steps (${steps.length}): drawn at the first frame / median step / slowest step | ${firstFrameSteps} / ${ms(stepMs[Math.floor(stepMs.length / 2)] ?? 0)} / ${ms(stepMs[stepMs.length - 1] ?? 0)} |`,
  );
  console.log(
    `| frames the scroll waited × the frame interval (${frameMs.toFixed(1)} ms): one a step at least | ${framesWaited} frames, ${ms(framesWaited * frameMs)} (one a step: ${ms(steps.length * frameMs)}) |`,
  );
  const cpuRow = (c) => `${c.rows.map(([k, x]) => `${k} ${x.toFixed(2)} s`).join(', ')} (machine busy ${c.machineBusy.toFixed(2)} s)`;
  console.log(`| CPU during the scroll, by process | ${cpuRow(scrollCpu)} |`);
  console.log(`| view total (pin, list, columns, every page drawn) | ${ms(viewTotal)} |`);
  console.log(`| the last rows' elements drawn after the scroll settled (after the view total) | ${ms(settled)} |`);
  console.log(`| baseline: every query of the view raw (${every.length}: pin, list, columns, pages) | ${ms(rawAll)} |`);
  console.log(`| of which the page queries | ${ms(rawPages)} |`);
  console.log(`| CPU during the baseline's queries, by process | ${cpuRow(rawCpu)} |`);
  console.log(
    `| one page query in the view: the first (starts the hub's copy of the diff) / the second / median of the others | ${ms(sent[0]?.ms ?? 0)} / ${ms(sent[1]?.ms ?? 0)} / ${ms(medianViewPage)} |`,
  );
  console.log(
    `| one page, raw: as served (mean of the ${sent.length} above) / computed from the whole diff as before (mean of ${sample.length}) | ${ms(rawPages / Math.max(1, sent.length))} / ${ms(wholePerPage)} |`,
  );
  console.log(`| reference: the whole diff in one raw query | ${ms(rawWhole)} |`);
  console.log(`| memory over idle: host / webview | ${mb(hostOver)} / ${mb(pageOver)} (sum ${mb(hostOver + pageOver)}) |`);
  console.log(
    `\nOne page, raw: computed from the whole diff ÷ as served ${(wholePerPage / Math.max(rawPages / Math.max(1, sent.length), 0.001)).toFixed(1)}×`,
  );
  console.log(
    `\nRatio view total ÷ every query raw: ${(viewTotal / rawAll).toFixed(2)}× (aim ≤ 1.3×); ÷ the page queries raw: ${(viewTotal / rawPages).toFixed(2)}×; ÷ one raw query: ${(viewTotal / rawWhole).toFixed(2)}×`,
  );
} finally {
  await browser.close();
  bridge?.close();
  await hub.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
