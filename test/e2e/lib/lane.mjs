// A lane: one hub, one code-server and one browser context of their own. Scenarios in different
// lanes run side by side and share nothing but the Chromium process: each lane's code-server has
// its own origin (port), user data, workspace folder and logs, and each lane's hub its own data.
// A lane keeps about 1.5 cores busy (Chromium drawing VS Code in software, mostly), so lanes pay
// off only with more cores: two lanes on 2 cores took 203 s where one took 216 s, using more CPU.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { startCodeServer } from './codeServer.mjs';
import { startHub } from './hub.mjs';
import { LogWatch } from './logs.mjs';

/** What the Playwright trace of each attempt records: 'dom' (default), 'screenshots' (dom and a filmstrip) or 'off'. */
export const TRACE = ['dom', 'screenshots', 'off'].includes(process.env.E2E_TRACE) ? process.env.E2E_TRACE : 'dom';

/**
 * Starts lane `n` and registers its stops in `cleanups` (run in reverse order by the runner).
 * `label` prefixes its log lines ('' when the run has one lane).
 */
export async function startLane({ n, label, toolchain, vsix, hubJs, browser, artifacts, cleanups, hubTemplate, env = {}, log }) {
  const laneLog = (m) => log(`${label}${m}`);
  const hub = await startHub({ hubJs, template: true, from: hubTemplate, log: laneLog });
  cleanups.push(() => hub.stop());
  const vscode = await startCodeServer({
    toolchain,
    vsixes: [vsix],
    settings: { 'versionedDb.hosts': [{ name: 'Test Hub', url: hub.url }] },
    // A closed window's extension host goes soon (lib/window.mjs also stops it explicitly).
    args: ['--reconnection-grace-time', '5'],
    env,
    log: laneLog,
  });
  cleanups.push(() => vscode.stop());
  // Runs before the stop above (cleanups run in reverse): VS Code's own logs (extension host,
  // the extension's channel) outlive the temp profile, also when the run breaks off early.
  const logsCopy = join(artifacts, label ? `vscode-logs-lane-${n}` : 'vscode-logs');
  cleanups.push(async () => cpSync(join(vscode.userDataDir, 'logs'), logsCopy, { recursive: true }));
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  cleanups.push(() => context.close());
  // The trace of a failed attempt holds a DOM snapshot per action; a filmstrip of the screen as
  // well (E2E_TRACE=screenshots) costs every scenario about a quarter more CPU (figures in test/e2e/README.md).
  if (TRACE !== 'off') await context.tracing.start({ screenshots: TRACE === 'screenshots', snapshots: true, sources: false });
  return {
    n,
    label,
    log: laneLog,
    hub,
    vscode,
    context,
    logs: new LogWatch(join(vscode.userDataDir, 'logs')),
    hubHandle: { url: hub.url, dataDir: hub.dataDir, token: hub.token, api: hub.api, whileStopped: hub.whileStopped },
    /** givenKey → a copy of this lane's origin storage in that state (lib/profile.mjs): the sealed token only opens with this code-server. */
    givenCopies: new Map(),
  };
}
