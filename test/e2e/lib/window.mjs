// A new VS Code window for every scenario attempt, on one code-server and one hub per run:
// the previous window's extension host is stopped, the hub serves a fresh copy of the seed, the
// workspace folder is emptied, the extension's server-side storage and VS Code's backups of unsaved
// editors are removed and the browser
// forgets the origin's storage (globalState, secrets, workspace state, open editors). What is
// left is what a person has after installing the extension: no account, no database in the view.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { descendants, isAlive } from '../../../scripts/lib/stopTree.mjs';
import { waitFor, WaitTimeoutError } from '../../helpers/waitFor.cjs';
import { EXTENSION_ID } from './logs.mjs';
import { restoreGiven } from './profile.mjs';

function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** Extension host processes below code-server, each with the processes it started (parents first). */
function extensionHosts(codeServerPid) {
  return descendants(codeServerPid)
    .filter((pid) => /--type=extensionHost\b/.test(commandLine(pid)))
    .map((pid) => [pid, ...descendants(pid)]);
}

/**
 * Ends every extension host of earlier windows (and what they started, such as a local hub):
 * a window that is gone must not keep talking to the hub or writing to the logs. SIGTERM (after
 * `graceMs`, if given, to go by themselves), then SIGKILL after 5 s.
 */
export async function stopExtensionHosts(codeServerPid, { graceMs = 0, log = () => {} } = {}) {
  const wait = async (pids, ms) => {
    await waitFor('the extension hosts to end', () => !pids.some(isAlive), { timeoutMs: ms, intervalMs: 100 }).catch((e) => {
      if (!(e instanceof WaitTimeoutError)) throw e;
    });
    return pids.filter(isAlive);
  };
  const hosts = extensionHosts(codeServerPid).flat();
  if (!hosts.length) return;
  let left = await wait(hosts, graceMs);
  if (!left.length) return;
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      /* gone */
    }
  }
  left = await wait(left, 5_000);
  if (left.length) log(`window: extension host processes ${left.join(', ')} ignored SIGTERM; killing them`);
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  await wait(left, 5_000);
}

/** Removes every folder named after the extension under the profile (global and workspace storage). */
function removeExtensionStorage(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    const p = join(dir, e.name);
    if (e.name.toLowerCase() === EXTENSION_ID) rmSync(p, { recursive: true, force: true });
    else removeExtensionStorage(p);
  }
}

/** Waits until the workbench has rendered its activity bar and status bar. */
export async function openWorkbench(page, url, { scale = 1 } = {}) {
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 90_000 * scale });
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 30_000 * scale });
}

/**
 * Closes the current window (every page of the browser context) and opens a fresh one in a new
 * page (see the file comment). The context stays, so its HTTP cache keeps the workbench quick to
 * load again. With `given` (a copy of the origin's storage, lib/profile.mjs) the window opens on
 * that storage instead of an empty one: signed in, its databases in the view. Resolves the new page.
 */
export async function freshWindow({ context, vscode, hub, logs, given, workspaceSettings, scale = 1, log = () => {}, steps = {} }) {
  let t = Date.now();
  /** `steps` gets how long each step took (ms), for the runner's "new window" line. */
  const step = (name) => {
    const now = Date.now();
    steps[name] = (steps[name] ?? 0) + now - t;
    t = now;
  };
  await closeWindow({ context, vscode, log });
  step('close');
  // The new window has no account and no database, so it asks the hub nothing until the scenario
  // signs in: the hub restarts while the workbench loads.
  const h0 = Date.now();
  const hubReady = hub.reset().then(() => {
    steps.hub = Date.now() - h0;
  });
  hubReady.catch(() => undefined);
  for (const name of readdirSync(vscode.workspaceDir)) rmSync(join(vscode.workspaceDir, name), { recursive: true, force: true });
  // The scenario's workspace settings are there before the window opens, which reads them as it
  // starts. Written by the scenario into the open window instead, they came only when VS Code's
  // watcher saw the new .vscode folder and its file: once not before the scenario's query ran
  // (e2e 56 in clean clone 56: the default row limit, outputs not saved).
  if (workspaceSettings) {
    mkdirSync(join(vscode.workspaceDir, '.vscode'), { recursive: true });
    writeFileSync(join(vscode.workspaceDir, '.vscode', 'settings.json'), `${JSON.stringify(workspaceSettings, null, 2)}\n`);
  }
  removeExtensionStorage(join(vscode.userDataDir, 'User'));
  // Hot exit keeps an unsaved editor (an untitled notebook a scenario opened) in User/Backups and
  // brings it back in the next window, where it takes the first webview; the local history of
  // files goes with it, so a window starts with no editor at all.
  for (const kept of ['Backups', 'History']) rmSync(join(vscode.userDataDir, 'User', kept), { recursive: true, force: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  try {
    await cdp.send('Storage.clearDataForOrigin', {
      origin: new URL(vscode.url).origin,
      storageTypes: 'cookies,file_systems,indexeddb,local_storage,shader_cache,websql,service_workers,cache_storage',
    });
  } finally {
    await cdp.detach().catch(() => undefined);
  }
  step('clear');
  if (given) await restoreGiven({ context, origin: new URL(vscode.url).origin, copy: given });
  step('storage');
  logs.newWindow();
  await openWorkbench(page, vscode.folderUrl, { scale });
  step('workbench');
  await hubReady;
  step('hubWait');
  return page;
}

/** Closes the window (every page of the context) and ends its extension hosts. */
export async function closeWindow({ context, vscode, log = () => {} }) {
  // Closing the page shuts the workbench down (it saves its state as it goes: clear it after).
  for (const old of context.pages()) await old.close({ runBeforeUnload: false }).catch(() => undefined);
  await stopExtensionHosts(vscode.process.pid, { log });
}
