// `npm run demo`: one command from a clean checkout to a working VS Code with the extension,
// signed in to a local hub with sample data.
//   0. runs scripts/bootstrap.mjs (Debian packages, `npm ci` when node_modules is stale);
//   1. installs (once, pinned, into .cache/) Node 24 and code-server;
//   2. builds the .vsix (production bundle) and installs it into a VS Code profile in .demo/;
//   3. seeds the local hub's data folder .demo/hub-data (kept between runs: your changes stay);
//   4. starts code-server with the settings that make the extension start its built-in local hub
//      on that folder and sign in to it (versionedDb.localHub.*), and a sample SQL notebook;
//   5. prints the URL. Ctrl+C, or SIGINT/SIGTERM/SIGHUP sent to npm or to this process, stops
//      everything it started (code-server, its extension host and the hub the extension runs;
//      see scripts/lib/stopTree.mjs).
// Options: DEMO_PORT (default 8080, else a free port), DEMO_HOST (default 127.0.0.1),
// DEMO_DIR (default .demo: hub data, VS Code profile and workspace),
// `npm run demo -- --desktop` uses a desktop `code` on PATH instead of code-server,
// `npm run demo -- --fresh` starts again from newly seeded data.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort, QUIET_SETTINGS, writeSettings } from '../test/e2e/lib/codeServer.mjs';
import { ensureToolchain, ROOT } from '../test/e2e/lib/toolchain.mjs';
import { buildVsix, checkVsix } from '../test/e2e/lib/vsix.mjs';
import { stopEverythingOnExit } from './lib/stopTree.mjs';

const DEMO = process.env.DEMO_DIR ? resolve(process.env.DEMO_DIR) : join(ROOT, '.demo');
const HUB_DATA = join(DEMO, 'hub-data');
const WORKSPACE = join(DEMO, 'workspace');
const args = process.argv.slice(2);
const desktop = args.includes('--desktop');
const log = (m) => console.log(`demo: ${m}`);
// From the first moment: a stop during the install or the build ends those helpers too.
const stopping = stopEverythingOnExit({ name: 'npm', before: (why) => log(`stopping everything (${why})`) });

/** Runs a command to completion without blocking the event loop (so a stop is handled at once). */
function runAsync(cmd, cmdArgs, opts = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, cmdArgs, { stdio: 'inherit', ...opts });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolvePromise() : reject(new Error(`${cmd} ${cmdArgs.join(' ')} failed (${code ?? signal})`)),
    );
  });
}

function which(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

async function seedHub(hubJs) {
  if (args.includes('--fresh')) rmSync(HUB_DATA, { recursive: true, force: true });
  if (existsSync(HUB_DATA) && readdirSync(HUB_DATA).length > 0) {
    log(`using the hub data in ${HUB_DATA} (run with --fresh to start over)`);
    return;
  }
  mkdirSync(HUB_DATA, { recursive: true });
  log(`seeding the local hub in ${HUB_DATA}`);
  await runAsync(process.execPath, [hubJs, 'seed', '--data', HUB_DATA]);
}

function writeWorkspace() {
  mkdirSync(WORKSPACE, { recursive: true });
  const notebook = join(WORKSPACE, 'prices.vdbnb');
  if (existsSync(notebook)) return;
  const target = { hostId: 'local-hub', owner: 'alice', name: 'prices', ref: 'main' };
  writeFileSync(
    notebook,
    `${JSON.stringify(
      {
        version: 1,
        target,
        cells: [
          {
            kind: 'markdown',
            source: '# Prices\nRun a cell with **Ctrl+Enter**. Change the ref in the cell status bar to query a branch, tag or commit.',
          },
          { kind: 'sql', source: 'SELECT * FROM products ORDER BY id;' },
          { kind: 'sql', source: 'SELECT * FROM dolt_log ORDER BY date DESC LIMIT 10;' },
        ],
      },
      null,
      2,
    )}\n`,
  );
}

const settings = {
  'versionedDb.localHub.dataDirectory': HUB_DATA,
  'versionedDb.localHub.startOnActivation': true,
  'versionedDb.localHub.userName': 'alice',
};

/** Kills a detached child's whole process group (its extension host and the hub it started). */
function killGroup(child) {
  if (!child || child.exitCode !== null || child.signalCode) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  setTimeout(() => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }, 5000).unref();
}

async function runCodeServer(toolchain, vsix) {
  const userDataDir = join(DEMO, 'vscode', 'user-data');
  const extensionsDir = join(DEMO, 'vscode', 'extensions');
  mkdirSync(extensionsDir, { recursive: true });
  writeSettings(userDataDir, settings);
  const env = { ...process.env, PATH: `${join(toolchain.nodeHome, 'bin')}:${process.env.PATH}` };
  const common = ['--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
  await runAsync(toolchain.node, [toolchain.codeServerHome, ...common, '--install-extension', vsix, '--force'], { env, stdio: 'ignore' });

  const host = process.env.DEMO_HOST || '127.0.0.1';
  let port = Number(process.env.DEMO_PORT || 8080);
  if (!process.env.DEMO_PORT) {
    const free = await freePort();
    // 8080 when it is free, else any free port.
    port = await new Promise((resolve) => {
      import('node:net').then(({ createServer }) => {
        const s = createServer()
          .once('error', () => resolve(free))
          .listen(8080, host, () => s.close(() => resolve(8080)));
      });
    });
  }
  const child = spawn(
    toolchain.node,
    [
      toolchain.codeServerHome,
      '--auth',
      'none',
      '--bind-addr',
      `${host}:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      ...common,
      WORKSPACE,
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let output = '';
  const ready = new Promise((resolve, reject) => {
    const onData = (d) => {
      output += d;
      if (/HTTP server listening on/.test(output)) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`code-server exited (${code}):\n${output}`)));
  });
  process.once('exit', () => killGroup(child));
  await ready;
  const url = `http://${host}:${port}/?folder=${encodeURIComponent(WORKSPACE)}`;
  console.log(
    `\n  Versioned DB demo is running.\n\n  Open:  ${url}\n\n  The extension starts the local hub on ${HUB_DATA} and signs in as alice;`,
  );
  console.log(
    `  open the Versioned DB view in the activity bar, or prices.vdbnb in the explorer.\n  Logs: Versioned DB: Show Log. Ctrl+C stops everything.\n`,
  );
  const code = which('code');
  if (code && !desktop) console.log(`  A desktop VS Code is on PATH: \`npm run demo -- --desktop\` uses it instead.\n`);
  await new Promise((resolve) => child.once('exit', resolve));
}

async function runDesktop(code, vsix) {
  const userDataDir = join(DEMO, 'desktop', 'user-data');
  const extensionsDir = join(DEMO, 'desktop', 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), `${JSON.stringify({ ...QUIET_SETTINGS, ...settings }, null, 2)}\n`);
  const common = ['--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
  const inst = spawnSync(code, [...common, '--install-extension', vsix, '--force'], { stdio: 'inherit' });
  if (inst.status !== 0) throw new Error('installing the extension into desktop VS Code failed');
  log(`starting ${code} (its own profile in ${join(DEMO, 'desktop')}); close the window or Ctrl+C to stop`);
  const child = spawn(code, [...common, '--wait', '--new-window', WORKSPACE], { stdio: 'inherit', detached: true });
  process.once('exit', () => killGroup(child));
  await new Promise((resolve) => child.once('exit', resolve));
}

async function main() {
  await runAsync(process.execPath, [join(ROOT, 'scripts', 'bootstrap.mjs')], { cwd: ROOT });
  const code = desktop ? which('code') : undefined;
  if (desktop && !code) throw new Error('--desktop: no `code` on PATH');
  const toolchain = desktop ? undefined : await ensureToolchain({ log });
  const { vsix, hubJs } = await buildVsix({ log });
  const { bytes } = checkVsix(vsix);
  log(`built the extension (${(bytes / 1024).toFixed(0)} KiB .vsix)`);
  await seedHub(hubJs);
  writeWorkspace();
  if (desktop) await runDesktop(code, vsix);
  else await runCodeServer(toolchain, vsix);
}

// While stopping, the stop handler owns the exit (and its code); helpers dying of it are expected.
main().then(
  () => {
    if (!stopping()) process.exit(0);
  },
  (e) => {
    if (stopping()) return;
    console.error(`demo: ${e.message ?? e}`);
    process.exit(1);
  },
);
