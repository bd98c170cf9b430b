// Table browser benchmark (issues #14, #28): a 1,000,000-row × 10-column table on the local hub,
// opened the way the extension opens it — the host side (catalog, TableSource, PageServer, over
// HTTP to the hub at one commit) in this Node process, the webview in Chromium: the page WebviewHost
// serves (gridPage's HTML, its CSP with a nonce, the shipped dist/resultPanel.js, acquireVsCodeApi),
// messages delivered to it as `message` events as VS Code's webview.postMessage does, carried there
// by CDP. Baseline, same run and same hub: the page's SQL sent directly with fetch (no catalog, no
// paging code, no grid). Prints figures and ratios; never passes or fails on time.
//
//   npm run build && flock /tmp/vdb-heavy.lock node --expose-gc bench/tableBrowser.mjs
//   options: --rows=1000000 (table size), --runs=3 (opens measured; medians), --sweep=100 (positions);
//   BENCH_POSITIONS=1 also logs each sweep position's time and the reads made for it
//
// Measured:
// - open → first page drawn: from the command's start (SHOW FULL TABLES, DESCRIBE at the commit)
//   until the first page's rows are on screen in the webview (the second animation frame after its
//   `message` event, and not before row 1's cells are drawn); and apart, from the first page's
//   response parsed in the host (HubClient) to drawn (the aim: ≤ 300 ms after its response), split
//   into host → webview (PageServer and the bench's CDP bridge, where VS Code has its IPC) and the
//   webview's message event → drawn; both ends read as epoch milliseconds (timeOrigin + now) in
//   their own process. The count is read after the first page (PageServer): when the summary shows
//   it is reported apart;
// - scroll to the last row: from setting scrollTop to the end until the last row is drawn (the
//   host reads it from the end once the count is known);
// - a sweep over 100 positions spread over the table, each until its rows are drawn (its time per
//   position, and the API client's retries after a 429/503 of the hub, are reported), then memory:
//   RSS of the process holding each side's data (the host: this process; the webview: the page's
//   Chromium renderer process), idle / peak during the sweep / after; and the JS heaps as before,
//   host = this process's JS heap + external + array buffers after a forced GC, webview = the
//   page's JS heap + backing stores after a forced GC; both minus their idle values before opening
//   (the aim: ≤ 150 MB together).
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './browser.mjs';
import { BENCH_DB, hostBundle, hubApi, importCsv, startHub } from './client-common.mjs';
import { pageRenderer, rssOf, webviewHtml } from './webviewPage.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, d) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? d);
const ROWS = arg('rows', 1_000_000);
const RUNS = arg('runs', 3);
const PAGE = 500;
const SWEEP = arg('sweep', 100);
let retries = 0;
const log = (...a) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${a.join(' ')}\n`);
if (typeof globalThis.gc !== 'function') log('warning: run with node --expose-gc for host memory after GC');

// ---- the host side, bundled from src/ (what the extension runs)
const { TableCatalogCache, openTableAt, PageServer, HubClient, webviewCsp } =
  await hostBundle(`export { TableCatalogCache } from './src/core/sql/tableCatalog';
export { openTableAt } from './src/core/paging/tableOpening';
export { PageServer } from './src/core/paging/pageServer';
export { HubClient } from './src/api/hubClient';
export { webviewCsp } from './src/core/webviewCsp';`);
// The webview's own script as the extension ships it (npm run build): the page below is the one
// WebviewHost serves (gridPage: strict CSP with a nonce, one script from dist/), its messages
// arrive as `message` events the way VS Code's webview delivers `webview.postMessage`.
const panelJs = readFileSync(join(ROOT, 'dist/resultPanel.js'), 'utf8');
const WEBVIEW = 'https://webview.bench';

// ---- the hub and the table
const hub = await startHub();
try {
  log(`importing ${ROWS.toLocaleString('en-US')} rows × 10 columns`);
  const t0 = performance.now();
  await hubApi(hub, 'POST', '/databases', { ...BENCH_DB, visibility: 'public' });
  const op = await importCsv(hub, makeCsv(ROWS), { table: 'readings' });
  if (op.status !== 'succeeded') throw new Error(JSON.stringify(op));
  log(`imported in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const branches = await hubApi(hub, 'GET', '/databases/bench/b/branches');
  const commit = branches.find((b) => b.name === 'main').head_commit_sha;

  // The measured path goes through the extension's API client (retries, timeouts, 429 handling).
  // Its retries (after a 429 or 503 of the hub) are counted from its debug log line.
  const quiet = () => {};
  const logger = { trace: quiet, info: quiet, warn: quiet, error: quiet, debug: (m) => (/ retry \d/.test(m) ? retries++ : 0) };
  const client = new HubClient({ baseUrl: hub.url, token: hub.token, logger });
  // The SQL runner at the commit (src/core/sql/sqlPort.ts's SqlRunner: sql, { limit, signal }).
  const run = (sql, { limit, signal }) =>
    client.runSql({ owner: 'bench', name: 'b' }, { ref: commit, q: sql, limit }, signal ? { signal } : {});
  const direct = async (q) => {
    const t = performance.now();
    const r = await hubApi(hub, 'POST', '/databases/bench/b/sql', { ref: commit, q, limit: PAGE + 1 });
    if (r.status !== 'success' || r.rows.length !== PAGE) throw new Error(`baseline: ${r.status} ${r.message}`);
    return performance.now() - t;
  };

  const browser = await launchChromium();
  // Warm the hub's query workers (each loads the table's file on its first query), so neither the
  // baseline nor the first open pays that once-only cost.
  // One at a time: the hub runs one query per user at once and refuses a second that waits long.
  for (let i = 0; i < 2; i++)
    for (const q of [`SELECT * FROM readings ORDER BY id LIMIT ${PAGE}`, `SELECT * FROM readings ORDER BY id DESC LIMIT ${PAGE}`])
      await direct(q);
  const results = [];
  for (let r = 0; r < RUNS; r++) {
    // Baseline and measured runs alternate, so both see the same machine load.
    const baseFirst = await direct(`SELECT * FROM readings ORDER BY id LIMIT ${PAGE}`);
    const baseLast = await direct(`SELECT * FROM readings ORDER BY id DESC LIMIT ${PAGE}`);
    results.push({ baseFirst, baseLast, ...(await measure(browser, commit, run)) });
    log(`run ${r + 1}: ${JSON.stringify(results[r], (k, v) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v))}`);
  }
  await browser.close();

  const med = (k) => {
    const s = results.map((x) => x[k]).sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)];
  };
  const ms = (v) => `${v.toFixed(0)} ms`;
  const mb = (b) => `${(b / 1048576).toFixed(1)} MB`;
  console.log(
    `table browser benchmark, ${new Date().toISOString()}, ${ROWS.toLocaleString('en-US')} rows × 10 columns, page ${PAGE}, medians of ${RUNS} run(s)`,
  );
  console.log("| step | table browser | baseline (the page's SQL by fetch) | ratio |");
  console.log('|---|---|---|---|');
  console.log(
    `| open → first page drawn | ${ms(med('openToDrawn'))} | ${ms(med('baseFirst'))} | ${(med('openToDrawn') / med('baseFirst')).toFixed(2)}× |`,
  );
  console.log(`| open: catalog (SHOW FULL TABLES, DESCRIBE at the commit) | ${ms(med('catalogMs'))} | — | — |`);
  console.log(
    `| open: first page's SQL, sent → response parsed in the host | ${ms(med('firstSql'))} | ${ms(med('baseFirst'))} | ${(med('firstSql') / med('baseFirst')).toFixed(2)}× |`,
  );
  console.log(`| first page: response → drawn (aim ≤ 300 ms) | ${ms(med('responseToDrawn'))} | — | — |`);
  console.log(
    `| … of which host → webview (PageServer, bridge) / webview's message event → drawn | ${ms(med('hostToGrid'))} / ${ms(med('gridDraw'))} | — | — |`,
  );
  console.log(
    `| … host → webview split: response → PageServer posts / the bench's CDP bridge + postMessage | ${ms(med('hostPost'))} / ${ms(med('hostToGrid') - med('hostPost'))} | — | — |`,
  );
  console.log(
    `| scroll to the last row → drawn | ${ms(med('jump'))} | ${ms(med('baseLast'))} | ${(med('jump') / med('baseLast')).toFixed(2)}× |`,
  );
  console.log(`| open → the count shown in the summary (read after the first page) | ${ms(med('countShown'))} | — | — |`);
  console.log(
    `| host RSS (this process: HubClient, TableSource, PageServer): idle / sweep peak / after | ${mb(med('hostRssIdle'))} / ${mb(med('hostRssPeak'))} / ${mb(med('hostRssAfter'))} | — | — |`,
  );
  console.log(
    `| webview RSS (the page's Chromium renderer process): idle / sweep peak / after | ${mb(med('webRssIdle'))} / ${mb(med('webRssPeak'))} / ${mb(med('webRssAfter'))} | — | — |`,
  );
  console.log(
    `| host + webview RSS over idle: sweep peak / after | ${mb(med('hostRssPeak') - med('hostRssIdle') + med('webRssPeak') - med('webRssIdle'))} / ${mb(med('hostRssAfter') - med('hostRssIdle') + med('webRssAfter') - med('webRssIdle'))} | — | — |`,
  );
  console.log(`| host JS heap over idle: during the sweep (max) / after | ${mb(med('hostDuring'))} / ${mb(med('hostAfter'))} | — | — |`);
  console.log(`| webview JS heap over idle: during the sweep (max) / after | ${mb(med('webDuring'))} / ${mb(med('webAfter'))} | — | — |`);
  console.log(`| host + webview JS heap over idle, after | ${mb(med('hostAfter') + med('webAfter'))} | — | — |`);
  console.log(
    `| sweep over ${SWEEP} positions, each until drawn: total / per position p50 / p95 / max | ${(med('sweepMs') / 1000).toFixed(1)} s / ${ms(med('positionP50'))} / ${ms(med('positionP95'))} / ${ms(med('positionMax'))} | — | — |`,
  );
  console.log(`| … the sweep's first position (pays any once-per-view read) | ${ms(med('firstPosition'))} | — | — |`);
  console.log(`| API client retries after a 429/503 during the sweep | ${med('sweepRetries')} | — | — |`);
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `reads by kind (last run): ${JSON.stringify(results[results.length - 1].reads)}; failed rows seen during the sweeps: ${results.map((x) => x.failedSeen).join(', ')}`,
  );
} finally {
  await hub.stop();
}

async function measure(browser, commit, run) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const cdp = await page.context().newCDPSession(page);
  const webHeap = async () => {
    await page.evaluate(() => globalThis.gc?.());
    const u = await cdp.send('Runtime.getHeapUsage');
    return u.usedSize + (u.backingStorageSize ?? 0);
  };
  const hostHeap = () => {
    globalThis.gc?.();
    const m = process.memoryUsage();
    return m.heapUsed + m.external + m.arrayBuffers;
  };
  // RSS: the extension host's share is this process (HubClient, TableSource, PageServer; the hub
  // is a process of its own), the webview's is the Chromium renderer process of the page.
  const hostRss = () => {
    globalThis.gc?.();
    return process.memoryUsage().rss;
  };
  let server;
  let trace;
  let drawn;
  let ready;
  const firstDrawn = new Promise((res) => (drawn = res));
  const pageReady = new Promise((res) => (ready = res));
  await page.exposeFunction('hostPost', (m) => {
    trace?.push(`grid ${m.type}${'requestId' in m ? ` #${m.requestId} ${m.start ?? ''}` : ''}`);
    if (m.type === 'ready') ready();
    return server?.handle(m);
  });
  await page.exposeFunction('firstDrawn', (times) => drawn(times));
  const nonce = randomBytes(16).toString('base64');
  await page.route(`${WEBVIEW}/**`, (route) =>
    route.request().url().endsWith('/resultPanel.js')
      ? route.fulfill({ contentType: 'text/javascript', body: panelJs })
      : route.fulfill({ contentType: 'text/html', body: webviewHtml(webviewCsp(WEBVIEW, nonce), WEBVIEW, nonce) }),
  );
  await page.goto(`${WEBVIEW}/index.html`);
  await pageReady;
  const renderer = await pageRenderer(page);
  if (renderer === undefined) log("warning: the page's renderer process was not found; webview RSS reads 0");
  const webRss = () => (renderer === undefined ? 0 : rssOf(renderer));
  await webHeap();
  const webIdle = await webHeap();
  const hostIdle = hostHeap();
  const webRssIdle = webRss();
  const hostRssIdle = hostRss();

  // Open: what Open Table does (catalog at the commit, the source, the grid's output), then the grid.
  const epoch = () => performance.timeOrigin + performance.now();
  const openAt = epoch();
  const catalog = new TableCatalogCache({ run: (_target, sql, opts) => run(sql, opts) });
  const { output, source } = await openTableAt(
    { target: { hostId: 'h', owner: 'bench', name: 'b', ref: 'main' }, commit, table: 'readings' },
    catalog,
    run,
    PAGE,
  );
  const catalogMs = epoch() - openAt;
  // When the first page's read was sent and when its rows were back in the host (HTTP response
  // parsed by HubClient): "after its response arrives" counts from there.
  const firstRead = {};
  const read = source.read.bind(source);
  source.read = async (start, end, view, signal) => {
    const mark = start === 0 && firstRead.sentAt === undefined;
    if (mark) firstRead.sentAt = epoch();
    const rows = await read(start, end, view, signal);
    if (mark) firstRead.responseAt = epoch();
    return rows;
  };
  trace = [];
  server = new PageServer({
    sourceId: output.sourceId,
    source,
    post: (m) => {
      if (m.type === 'page.result' && m.start === 0 && firstRead.postedAt === undefined) firstRead.postedAt = epoch();
      trace.push(`${m.type}${'requestId' in m ? ` #${m.requestId} ${m.start}` : ''}${m.type === 'page.error' ? ` ${m.message}` : ''}`);
      void page.evaluate((x) => window.postMessage(x, '*'), m);
    },
  });
  await page.evaluate((x) => window.postMessage(x, '*'), { type: 'paged.show', output });
  server.start();
  const first = await firstDrawn;
  const openToDrawn = first.drawnAt - openAt;
  const firstSql = firstRead.responseAt - firstRead.sentAt;
  const responseToDrawn = first.drawnAt - firstRead.responseAt;
  const hostToGrid = first.receivedAt - firstRead.responseAt;
  const hostPost = firstRead.postedAt - firstRead.responseAt;
  const gridDraw = first.drawnAt - first.receivedAt;
  // The count known (the summary says "1,000,000 rows"), so the scroll height is the table's.
  await page.waitForFunction(() => /^[\d,]+ rows? ×/.test(document.querySelector('.vdb-summary')?.textContent ?? ''), null, {
    timeout: 120_000,
  });
  const countShown = epoch() - openAt;

  // To the last row.
  const jump = await page.evaluate(async () => {
    const t = performance.now();
    globalThis.scroller.scrollTop = globalThis.scroller.scrollHeight;
    for (;;) {
      await globalThis.raf();
      const last = Number(document.querySelector('.vdb-grid').getAttribute('aria-rowcount')) - 2;
      if (globalThis.rowsDrawn(last)) return performance.now() - t;
    }
  });

  // A sweep over the whole table; memory sampled as it goes.
  const sweepAt = performance.now();
  const retriesBefore = retries;
  const perPosition = [];
  let readsSeen = source.reads.length;
  let hostDuring = -Infinity;
  let webDuring = -Infinity;
  let failedSeen = 0;
  let hostRssPeak = hostRss();
  let webRssPeak = webRss();
  for (let i = 0; i < SWEEP; i++) {
    const at = performance.now();
    await page.evaluate(
      (f) => {
        globalThis.scroller.scrollTop = globalThis.scroller.scrollHeight * f;
      },
      (i * 0.618) % 1,
    );
    try {
      await page.waitForFunction(() => globalThis.settled(), null, { timeout: 300_000 });
      perPosition.push(performance.now() - at);
      if (process.env.BENCH_POSITIONS) {
        // Each position: its time, since the sweep began, and the reads made for it by kind.
        const kinds = source.reads.slice(readsSeen);
        readsSeen = source.reads.length;
        log(
          `position ${i}: ${(performance.now() - at).toFixed(0)} ms at +${((at - sweepAt) / 1000).toFixed(1)} s, reads ${kinds.join(',')}`,
        );
      }
    } catch (e) {
      const pending = await page.evaluate(() =>
        [...document.querySelectorAll('.vdb-row:not([hidden]) .vdb-cell.placeholder')].slice(0, 3).map((c) => c.getAttribute('data-r')),
      );
      log(
        `sweep ${i} did not settle: placeholder rows ${pending.join(',')}, host in flight ${server.inFlight}, reads ${source.reads.length}, messages ${JSON.stringify(trace.slice(-8))}`,
      );
      throw e;
    }
    failedSeen += await page.evaluate(() => globalThis.failedRows());
    if (i % 20 === 10) {
      hostDuring = Math.max(hostDuring, hostHeap() - hostIdle);
      webDuring = Math.max(webDuring, (await webHeap()) - webIdle);
    }
    hostRssPeak = Math.max(hostRssPeak, hostRss());
    webRssPeak = Math.max(webRssPeak, webRss());
  }
  const sweepMs = performance.now() - sweepAt;
  const sorted = perPosition.slice().sort((a, b) => a - b);
  const positionP50 = sorted[Math.floor(sorted.length / 2)];
  const positionP95 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
  const positionMax = sorted[sorted.length - 1];
  const sweepRetries = retries - retriesBefore;
  const hostAfter = hostHeap() - hostIdle;
  const webAfter = (await webHeap()) - webIdle;
  const hostRssAfter = hostRss();
  const webRssAfter = webRss();
  const reads = source.reads.reduce((acc, k) => ((acc[k] = (acc[k] ?? 0) + 1), acc), {});
  server.dispose();
  await page.close();
  if (failedSeen > 0)
    log(`${failedSeen} failed rows seen during the sweep: ${JSON.stringify(trace.filter((t) => t.startsWith('page.error')).slice(-3))}`);
  return {
    openToDrawn,
    catalogMs,
    firstSql,
    responseToDrawn,
    hostToGrid,
    hostPost,
    gridDraw,
    jump,
    sweepMs,
    positionP50,
    positionP95,
    positionMax,
    firstPosition: perPosition[0],
    sweepRetries,
    hostDuring,
    hostAfter,
    webDuring,
    webAfter,
    reads,
    failedSeen,
    countShown,
    hostRssIdle,
    hostRssPeak,
    hostRssAfter,
    webRssIdle,
    webRssPeak,
    webRssAfter,
  };
}

/** 10 columns: id (key), integers, text, a decimal, a date-time, a nullable text. */
function makeCsv(rows) {
  const cats = ['fruit', 'vegetable', 'dairy', 'bakery', 'meat'];
  const out = ['id,sensor,site,reading,unit,price,category,taken_at,quality,note'];
  for (let i = 1; i <= rows; i++) {
    const d = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString().slice(0, 19).replace('T', ' ');
    out.push(
      `${i},${i % 97},site-${i % 13},${(i * 37) % 100000},u${i % 3},${((i % 997) + 0.25).toFixed(2)},${cats[i % 5]},${d},${i % 5},${i % 17 === 0 ? '' : `note ${i}`}`,
    );
  }
  return Buffer.from(out.join('\n') + '\n');
}
