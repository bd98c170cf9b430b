// The table browser bench's webview side (bench/tableBrowser.mjs): the grid page as the extension
// serves it, with what VS Code puts before its script and the bench's probes, and the RSS of the
// page's Chromium renderer process.
import { readFileSync, readdirSync } from 'node:fs';
import { ROWS_DRAWN_JS } from './browser.mjs';

// What VS Code puts in a webview before its script (acquireVsCodeApi, here posting to the bench's
// host), and the bench's probes: the first page's receipt (a listener added before the panel
// script's, so it runs first) and the second animation frame after it, when its rows are on screen.
export const WEBVIEW_SHIM = `
window.acquireVsCodeApi = () => ({ postMessage: (m) => window.hostPost(m), getState: () => undefined, setState: () => undefined });
const epoch = () => performance.timeOrigin + performance.now();
globalThis.raf = () => new Promise((r) => requestAnimationFrame(() => r()));
Object.defineProperty(globalThis, 'scroller', { get: () => document.querySelector('.vdb-grid') });
let first = true;
window.addEventListener('message', (e) => {
  const m = e.data;
  if (!first || m.type !== 'page.result' || m.start !== 0) return;
  first = false;
  const receivedAt = epoch();
  const shown = () => document.querySelector('.vdb-cell[data-r="0"][data-c="1"]:not(.placeholder)') !== null;
  const frames = async () => {
    await globalThis.raf();
    do await globalThis.raf();
    while (!shown());
    globalThis.firstDrawn({ receivedAt, drawnAt: epoch() });
  };
  void frames();
});
${ROWS_DRAWN_JS}
// Settled: no row on screen waiting, on the canvas of a leap or as row elements (a failed page
// counts as answered; the sweep reports them; a failed page's rows are always row elements).
globalThis.settled = () =>
  document.querySelector('.vdb-motion:not([hidden])')
    ? globalThis.rowsDrawn()
    : document.querySelectorAll('.vdb-row:not([hidden]):not(.failed) .vdb-cell.placeholder').length === 0;
globalThis.failedRows = () => document.querySelectorAll('.vdb-row.failed:not([hidden])').length;`;

/** The grid page as WebviewHost serves it (src/platform/webviewHost.ts gridPage), with VS Code's acquireVsCodeApi. */
export function webviewHtml(csp, origin, nonce) {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>readings @ main</title></head>
<body><div id="root"></div><script nonce="${nonce}">${WEBVIEW_SHIM}</script><script nonce="${nonce}" src="${origin}/resultPanel.js"></script></body></html>`;
}

/**
 * The renderer process of `page`: Chromium keeps more than one (a spare, about:blank), so the page
 * touches 64 MB and the renderer whose RSS grew by most of that is its own.
 */
export async function pageRenderer(page) {
  const before = new Map(rendererPids().map((pid) => [pid, rssOf(pid)]));
  await page.evaluate(() => {
    globalThis.probe = new Uint8Array(64 * 1048576).fill(1);
  });
  const grown = [...before].map(([pid, rss]) => [pid, rssOf(pid) - rss]).sort((a, b) => b[1] - a[1]);
  await page.evaluate(() => {
    delete globalThis.probe;
  });
  return grown[0] && grown[0][1] > 48 * 1048576 ? grown[0][0] : undefined;
}

/** Chromium renderer processes started under this process (any depth). */
function rendererPids() {
  const parent = new Map();
  const renderers = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('--type=renderer')) renderers.push(Number(d));
    } catch {
      /* gone */
    }
  }
  const under = (pid) => {
    for (let p = pid; p > 1; p = parent.get(p) ?? 0) if (p === process.pid) return true;
    return false;
  };
  return renderers.filter(under);
}

export function rssOf(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
