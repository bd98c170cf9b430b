// A lane runs scenarios one after the other. Lanes side by side share nothing but the Chromium
// process: each has its own hubs, code-servers (own origin, user data, workspace folder and logs)
// and browser contexts. A lane keeps about 1.5 cores busy (Chromium drawing VS Code in software,
// mostly), so lanes pay off only with more cores: two lanes on 2 cores took 203 s where one took 216 s.
//
// A lane has two seats (one with E2E_PIPELINE=0), each a hub, a code-server and a browser context
// of its own, and the scenarios take turns: while one runs in seat A, the next one's window is
// made ready in seat B (lib/attempt.mjs), so a scenario does not wait for its new window. The
// seats share only the hub's seed: seat B's hub starts from seat A's seeded template, with the
// same tokens. Each keeps its own copies of the `given` states (lib/profile.mjs): VS Code keeps
// the account and the databases under the hub's URL, which differs between the seats.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { startCodeServer } from './codeServer.mjs';
import { startHub } from './hub.mjs';
import { LogWatch } from './logs.mjs';

/**
 * What the Playwright trace of each attempt records: 'auto' (default: 'actions' on first attempts,
 * 'dom' on the retries), 'dom' (a DOM snapshot per action), 'screenshots' (dom and a filmstrip),
 * 'actions' (each action, its timing, console and network, no DOM snapshot) or 'off'.
 */
export const TRACE = ['auto', 'dom', 'screenshots', 'off', 'actions'].includes(process.env.E2E_TRACE) ? process.env.E2E_TRACE : 'auto';

/**
 * Starts the context's trace for first attempts (`retry` false) or for the retries, alone at the
 * end. The DOM snapshots cost about a ninth of the suite's CPU, paid by every passing scenario; by
 * default only a retry records them (a scenario that fails twice has them), while a first attempt
 * keeps each action with its timing, console and network (what found 36's dropped click), beside
 * its failure screenshot and window logs.
 */
export async function startTracing(context, retry) {
  if (TRACE === 'off') return;
  const snapshots = TRACE === 'dom' || TRACE === 'screenshots' || (TRACE === 'auto' && retry);
  await context.tracing.start({ screenshots: TRACE === 'screenshots', snapshots, sources: false });
}

/**
 * Built-in extensions of code-server that no scenario uses and that cost every window CPU: git,
 * github and github-authentication, emmet, debug-auto-launch and merge-conflict activated in every
 * window (their extension host work, their views and status items drawn), and the others
 * (Copilot's manifest alone is hundreds of KB, the JS/TS, CSS, HTML and PHP language services,
 * npm and task runners, debuggers, the tunnel forwarder) are scanned, sent to the workbench and
 * registered by it on each load. Left out through VS Code's VSCODE_SKIP_BUILTIN_EXTENSIONS (read
 * by the server's extension scanner; `--disable-extension` passed through `--vscode-option` is not
 * honoured by code-server's remote extension host: they still activated). Kept: themes, the
 * notebook renderers, JSON and configuration editing, Markdown (a scenario opens a preview) and
 * the language grammars. Measured in test/e2e/README.md.
 */
export const SKIPPED_BUILTIN_EXTENSIONS = [
  'vscode.git',
  'vscode.git-base',
  'vscode.github',
  'vscode.github-authentication',
  'vscode.microsoft-authentication',
  'vscode.emmet',
  'vscode.debug-auto-launch',
  'vscode.debug-server-ready',
  'vscode.merge-conflict',
  'GitHub.copilot-chat',
  'ms-vscode.js-debug',
  'ms-vscode.js-debug-companion',
  'ms-vscode.vscode-js-profile-table',
  'vscode.typescript-language-features',
  'vscode.npm',
  'vscode.grunt',
  'vscode.gulp',
  'vscode.jake',
  'vscode.php-language-features',
  'vscode.css-language-features',
  'vscode.html-language-features',
  'vscode.references-view',
  'vscode.simple-browser',
  'vscode.tunnel-forwarding',
  'vscode.terminal-suggest',
  'vscode.extension-editing',
];

/**
 * User settings that spare the software-rendered workbench frames no scenario looks at: no
 * animations (reduced motion), no minimap beside each editor, a caret that does not blink.
 */
export const LIGHT_SETTINGS = {
  'workbench.reduceMotion': 'on',
  'editor.minimap.enabled': false,
  'editor.cursorBlinking': 'solid',
};

/** How the browser runs (test/e2e/run.mjs, the integration runner, and every bench through bench/browser.mjs, bench/workbenchLoads.mjs and bench/activation.mjs). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Seats per lane: 2 (the next scenario's window made ready while one runs), 1 with E2E_PIPELINE=0. */
export const SEATS = process.env.E2E_PIPELINE === '0' ? 1 : 2;

/**
 * Starts one seat: a hub (seeded, or started from `hubFrom`'s template with its tokens), a
 * code-server and a browser context; registers their stops in `cleanups`.
 */
async function startSeat({ n, seat, label, toolchain, vsix, hubJs, browser, artifacts, cleanups, hubTemplate, hubFrom, env, log }) {
  const seatLog = (m) => log(`${label}${m}`);
  const hub = hubFrom
    ? await startHub({ hubJs, template: true, from: hubFrom.templateDir, tokens: hubFrom.tokens(), log: seatLog })
    : await startHub({ hubJs, template: true, from: hubTemplate, log: seatLog });
  cleanups.push(() => hub.stop());
  const vscode = await startCodeServer({
    toolchain,
    vsixes: [vsix],
    settings: { ...LIGHT_SETTINGS, 'versionedDb.hosts': [{ name: 'Test Hub', url: hub.url }] },
    // A closed window's extension host goes soon (lib/window.mjs also stops it explicitly).
    args: ['--reconnection-grace-time', '5'],
    env: { ...env, VSCODE_SKIP_BUILTIN_EXTENSIONS: SKIPPED_BUILTIN_EXTENSIONS.join(',') },
    log: seatLog,
  });
  cleanups.push(() => vscode.stop());
  // Runs before the stop above (cleanups run in reverse): VS Code's own logs (extension host,
  // the extension's channel) outlive the temp profile, also when the run breaks off early.
  const logsCopy = join(artifacts, `vscode-logs${n > 1 || label ? `-lane-${n}` : ''}${seat ? `-seat-${seat + 1}` : ''}`);
  cleanups.push(async () => cpSync(join(vscode.userDataDir, 'logs'), logsCopy, { recursive: true }));
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  cleanups.push(() => context.close());
  // A filmstrip of the screen in the trace (E2E_TRACE=screenshots) costs every scenario about a
  // quarter more CPU, the DOM snapshots about a ninth of the suite's (figures in test/e2e/README.md).
  await startTracing(context, false);
  return {
    seat,
    log: seatLog,
    hub,
    vscode,
    context,
    logs: new LogWatch(join(vscode.userDataDir, 'logs')),
    hubHandle: { url: hub.url, dataDir: hub.dataDir, token: hub.token, api: hub.api, whileStopped: hub.whileStopped },
    /**
     * givenKey → a copy of this seat's origin storage in that state (lib/profile.mjs): the token
     * in it is sealed by this seat's code-server, its databases listed under this seat's hub URL.
     */
    givenCopies: new Map(),
  };
}

/**
 * Starts lane `n` (its `seatCount` seats) and registers their stops in `cleanups` (run in reverse
 * order by the runner). `label` prefixes its log lines ('' when the run has one lane).
 */
export async function startLane({
  n,
  label,
  seatCount = SEATS,
  toolchain,
  vsix,
  hubJs,
  browser,
  artifacts,
  cleanups,
  hubTemplate,
  env = {},
  log,
}) {
  const common = { n, label, toolchain, vsix, hubJs, browser, artifacts, cleanups, hubTemplate, env, log };
  const first = await startSeat({ ...common, seat: 0 });
  // The second seat starts while the first scenario's window is made in the first.
  const seats = [Promise.resolve(first)];
  for (let seat = 1; seat < seatCount; seat++) {
    const started = startSeat({ ...common, seat, hubFrom: first.hub });
    started.catch(() => undefined);
    seats.push(started);
  }
  return {
    n,
    label,
    log: (m) => log(`${label}${m}`),
    /** Promises of the seats (the first resolved). */
    seats,
  };
}
