// What loading VS Code's workbench costs the browser, load after load in one browser as an e2e
// seat does (test/e2e/lib/lane.mjs): an off-the-record context (Playwright's newContext) against a
// persistent one (launchPersistentContext, a profile on disk where Chromium keeps the code it
// compiled). Each load is a new page on a cleared origin (as lib/window.mjs makes a window), timed
// until the activity and status bars show and the page is idle for 2 s; its CPU is what every
// Chromium process of the run used meanwhile (/proc), before the page closes.
//
//   flock /tmp/vdb-heavy.lock node bench/workbenchLoads.mjs [loads per mode, default 6]
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { descendants } from '../scripts/lib/stopTree.mjs';
import { startCodeServer } from '../test/e2e/lib/codeServer.mjs';
import { CHROMIUM_ARGS, LIGHT_SETTINGS, SKIPPED_BUILTIN_EXTENSIONS } from '../test/e2e/lib/lane.mjs';
import { ensureToolchain } from '../test/e2e/lib/toolchain.mjs';
import { openWorkbench, stopExtensionHosts } from '../test/e2e/lib/window.mjs';

const LOADS = Number(process.argv[2]) || 6;

/** CPU (ms) of every live Chromium process below this one: all, and the renderers'. */
function chromiumCpuMs() {
  let ticks = 0;
  let renderer = 0;
  for (const pid of descendants(process.pid)) {
    let cmd;
    let stat;
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    if (!/chrom/i.test(cmd)) continue;
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const t = Number(f[11]) + Number(f[12]);
    ticks += t;
    if (cmd.includes('--type=renderer')) renderer += t;
  }
  return { all: ticks * 10, renderer: renderer * 10 };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function loads(context, vscode, label) {
  const origin = new URL(vscode.url).origin;
  const out = [];
  for (let i = 0; i < LOADS; i++) {
    const page = await context.newPage();
    for (const old of context.pages()) if (old !== page) await old.close({ runBeforeUnload: false });
    await stopExtensionHosts(vscode.process.pid);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'cookies,indexeddb,local_storage,service_workers,cache_storage' });
    await cdp.detach();
    await sleep(1000);
    const c0 = chromiumCpuMs();
    const t0 = Date.now();
    await openWorkbench(page, vscode.folderUrl);
    const shown = Date.now() - t0;
    await sleep(2000);
    const c1 = chromiumCpuMs();
    out.push({ cpuMs: c1.all - c0.all, rendererMs: c1.renderer - c0.renderer, shownMs: shown });
  }
  const cpu = out.map((o) => `${(o.cpuMs / 1000).toFixed(1)} (${(o.rendererMs / 1000).toFixed(1)})`).join(', ');
  const shown = out.map((o) => (o.shownMs / 1000).toFixed(1)).join(', ');
  console.log(`${label}: Chromium CPU per load (of it the renderers') ${cpu} s; workbench shown after ${shown} s`);
  return out;
}

const toolchain = await ensureToolchain({ log: () => undefined });
const vscode = await startCodeServer({
  toolchain,
  vsixes: [],
  settings: LIGHT_SETTINGS,
  env: { VSCODE_SKIP_BUILTIN_EXTENSIONS: SKIPPED_BUILTIN_EXTENSIONS.join(',') },
});
const profile = mkdtempSync(join(tmpdir(), 'vdb-bench-chromium-'));
try {
  const launch = { executablePath: toolchain.chromium, args: CHROMIUM_ARGS, headless: true };
  const viewport = { width: 1440, height: 900 };
  const browser = await chromium.launch(launch);
  await loads(await browser.newContext({ viewport }), vscode, 'off the record (newContext)');
  await browser.close();
  const persistent = await chromium.launchPersistentContext(profile, { ...launch, viewport });
  await loads(persistent, vscode, 'persistent profile');
  const codeCache = join(profile, 'Default', 'Code Cache', 'js');
  console.log(`code cache: ${readdirSync(codeCache).length} entries in ${codeCache}`);
  await persistent.close();
} finally {
  rmSync(profile, { recursive: true, force: true });
  await vscode.stop();
}
