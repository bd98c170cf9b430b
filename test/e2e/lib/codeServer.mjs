// Starts code-server (VS Code in the browser, from the pinned toolchain) with a fresh
// user-data folder, a .vsix installed and the given user settings; stops it again.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A free TCP port on 127.0.0.1 (the OS picks it; we release it just before the server binds). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Settings that keep a test VS Code quiet and deterministic. */
export const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'window.commandCenter': false,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'git.enabled': false,
  // Every hub a run starts or restarts (the other seat's, lib/lane.mjs) is a new listening port the
  // workbench would forward and announce while a scenario types into a quick input.
  'remote.autoForwardPorts': false,
};

/**
 * Writes `settings` as user settings AND as the remote machine's settings: in code-server the
 * extension host is "remote", so `machine`-scoped settings (e.g. versionedDb.localHub.*) are read
 * only from <user-data>/Machine/settings.json, and `application` ones only from User/.
 */
export function writeSettings(userDataDir, settings) {
  const text = `${JSON.stringify({ ...QUIET_SETTINGS, ...settings }, null, 2)}\n`;
  for (const scope of ['User', 'Machine']) {
    mkdirSync(join(userDataDir, scope), { recursive: true });
    writeFileSync(join(userDataDir, scope, 'settings.json'), text);
  }
}

function runTool(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} failed (${code}):\n${out}`))));
  });
}

/**
 * @param {object} o
 * @param {ReturnType<import('./toolchain.mjs').toolchainPaths>} o.toolchain
 * @param {string[]} o.vsixes   packages to install
 * @param {object} o.settings   user settings (merged over QUIET_SETTINGS)
 * @param {string} [o.baseDir]  where user-data/, extensions/ and workspace/ go (temp when absent)
 * @param {string} [o.workspaceDir]
 * @param {Record<string,string>} [o.env]
 * @param {string[]} [o.args]   more code-server flags
 */
export async function startCodeServer({
  toolchain,
  vsixes,
  settings,
  baseDir,
  workspaceDir,
  env: extraEnv = {},
  args: extraArgs = [],
  log = () => {},
  port,
}) {
  const base = baseDir ?? mkdtempSync(join(tmpdir(), 'vdb-vscode-'));
  const userDataDir = join(base, 'user-data');
  const extensionsDir = join(base, 'extensions');
  const workspace = workspaceDir ?? join(base, 'workspace');
  for (const d of [extensionsDir, workspace]) mkdirSync(d, { recursive: true });
  writeSettings(userDataDir, settings);

  const env = {
    ...process.env,
    ...extraEnv,
    PATH: `${join(toolchain.nodeHome, 'bin')}:${process.env.PATH}`,
    // code-server reads these; keep it from phoning home or opening a browser.
    CS_DISABLE_FILE_DOWNLOADS: '0',
  };
  delete env.VSCODE_IPC_HOOK_CLI;
  const common = ['--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
  for (const vsix of vsixes) {
    log(`code-server: installing ${vsix}`);
    await runTool(toolchain.node, [toolchain.codeServerHome, ...common, '--install-extension', vsix, '--force'], env);
  }

  // Port 0 unless one is asked for: code-server binds a free port itself and names it in "HTTP
  // server listening on …" (read below), so no other process can take a port picked for it first.
  const p = port ?? 0;
  const child = spawn(
    toolchain.node,
    [
      toolchain.codeServerHome,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${p}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      ...extraArgs,
      ...common,
      workspace,
      // Its own process group, so stop() can end the forked extension host and file watcher too:
      // signalling only the main process left the extension host running as an orphan.
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not start within 60 s:\n${output}`)), 60_000);
    const check = () => {
      const m = /HTTP server listening on (http:\/\/[^\s]+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1].replace(/\/$/, ''));
      }
    };
    child.stdout.on('data', check);
    child.stderr.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited (${code}):\n${output}`));
    });
  });
  log(`code-server: ${url} (user data ${userDataDir})`);

  /** Stops code-server; removes the profile folder when this call created it (unless keep). */
  async function stop({ keep = false } = {}) {
    if (child.exitCode === null && !child.signalCode) {
      await new Promise((resolve) => {
        child.once('exit', resolve);
        killGroup(child, 'SIGTERM');
        setTimeout(() => killGroup(child, 'SIGKILL'), 5000).unref();
      });
    }
    if (!baseDir && !keep) rmSync(base, { recursive: true, force: true });
  }
  return {
    url,
    folderUrl: `${url}/?folder=${encodeURIComponent(workspace)}`,
    userDataDir,
    extensionsDir,
    workspaceDir: workspace,
    output: () => output,
    stop,
    process: child,
  };
}

/** Every file under `dir` whose name matches `re` (the log folders are nested by session/window). */
export function findFiles(dir, re, acc = []) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return acc;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) findFiles(p, re, acc);
    else if (re.test(e.name)) acc.push(p);
  }
  return acc;
}

export function readIfExists(path) {
  try {
    return statSync(path).isFile() ? readFileSync(path, 'utf8') : '';
  } catch {
    return '';
  }
}

/** Signals the child's whole process group (it was spawned detached, as the group leader). */
function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}
