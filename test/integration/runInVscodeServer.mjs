// Runs the integration suite (test/integration/**/*.test.ts) inside the real extension host of
// the plain VS Code server shipped in the code-server package, the way @vscode/test-electron
// does on a desktop: the workbench (in Chromium) loads the extension from this folder
// (extensionDevelopmentPath) and calls test/integration/index.ts `run()` (extensionTestsPath).
// The suite writes its results to a file that this driver waits for. Exit code 1 on failure.
// Env: INTEGRATION_GREP=<text> runs only matching tests; INTEGRATION_TIMEOUT_S (default 600).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';
import { findFiles } from '../e2e/lib/codeServer.mjs';
import { CHROMIUM_ARGS } from '../e2e/lib/lane.mjs';
import { startHub } from '../e2e/lib/hub.mjs';
import { ensureToolchain, ROOT } from '../e2e/lib/toolchain.mjs';
import { waitFor } from '../helpers/waitFor.cjs';

// One folder per run (other runs may be going on in this tree), inside the repo so that the
// bundled suite resolves `mocha` from its node_modules. Kept when the run fails.
const OUT = join(ROOT, '.artifacts', 'integration', `run-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`);
const BUNDLE = join(OUT, 'suite');
const started = Date.now();
const log = (m) => console.log(`[integration ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${m}`);

function testFiles(dir = join(ROOT, 'test', 'integration')) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return testFiles(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** The suite as CJS beside index.js: `vscode` is the host's, mocha loads from node_modules. */
async function bundleSuite() {
  rmSync(BUNDLE, { recursive: true, force: true });
  const tests = testFiles();
  const entryPoints = [join(ROOT, 'test', 'integration', 'index.ts'), ...tests].map((p) => ({
    in: p,
    // test/integration/tree/foo.test.ts -> tree.foo.test.js, all in one folder for index.ts.
    out: relative(join(ROOT, 'test', 'integration'), p)
      .replace(/\.ts$/, '')
      .split(/[\\/]/)
      .join('.'),
  }));
  await esbuild.build({
    entryPoints,
    outdir: BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
    nodePaths: [join(ROOT, 'node_modules')],
  });
  return tests.length;
}

function run(cmd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} failed (${code}):\n${out}`))));
  });
}

async function main() {
  const toolchain = await ensureToolchain({ log });
  // scripts/test.mjs builds dist/ once for every suite and says so: a second build here would
  // rewrite dist/hub.js under the hub tests that run beside this one.
  if (process.env.VDB_DIST_BUILT === '1') {
    log('bundling the suite (dist/ was built by scripts/test.mjs)');
  } else {
    log('building the extension (dist/) and bundling the suite');
    await run(process.execPath, ['esbuild.mjs']);
  }
  const count = await bundleSuite();
  if (count === 0) throw new Error('no test/integration/**/*.test.ts files');

  const cleanups = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    cleanups.length = 0;
  };
  process.once('SIGINT', () => {
    cleanup().finally(() => process.exit(130));
  });
  process.once('SIGTERM', () => {
    cleanup().finally(() => process.exit(143));
  });

  const work = OUT;
  const dirs = Object.fromEntries(['server-data', 'user-data', 'extensions', 'workspace'].map((d) => [d, join(work, d)]));
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  const resultsFile = join(work, 'results.json');
  let server;
  let removeRun = false;
  try {
    const hub = await startHub({ log });
    cleanups.push(() => hub.stop());
    const settings = { 'versionedDb.hosts': [{ name: 'Test Hub', url: hub.url }], 'security.workspace.trust.enabled': false };
    const config = {
      resultsFile,
      hubUrl: hub.url,
      hubDataDir: hub.dataDir,
      token: await hub.token('alice'),
      settings,
      grep: process.env.INTEGRATION_GREP,
    };
    writeFileSync(join(BUNDLE, 'config.json'), JSON.stringify(config, null, 2));
    // Machine-scoped settings of the remote side; application settings are applied by index.ts.
    mkdirSync(join(dirs['server-data'], 'data', 'Machine'), { recursive: true });
    writeFileSync(join(dirs['server-data'], 'data', 'Machine', 'settings.json'), JSON.stringify(settings, null, 2));

    server = spawn(
      toolchain.node,
      [
        toolchain.vscodeServerMain,
        '--host',
        '127.0.0.1',
        // Port 0: the server binds a free port itself and says which ("Server bound to …"), so no
        // other process can take a port picked for it before it binds.
        '--port',
        '0',
        '--without-connection-token',
        '--accept-server-license-terms',
        '--enable-smoke-test-driver',
        // An untrusted folder cannot run notebook cells; a test folder is ours.
        '--disable-telemetry',
        '--disable-workspace-trust',
        '--server-data-dir',
        dirs['server-data'],
        '--user-data-dir',
        dirs['user-data'],
        '--extensions-dir',
        dirs.extensions,
      ],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          PATH: `${join(toolchain.nodeHome, 'bin')}:${process.env.PATH}`,
          VERSIONED_DB_TEST_CONFIG: join(BUNDLE, 'config.json'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group, so cleanup ends the extension host it forks as well.
        detached: true,
      },
    );
    let serverOut = '';
    server.stdout.on('data', (d) => {
      serverOut += d;
    });
    server.stderr.on('data', (d) => {
      serverOut += d;
    });
    cleanups.push(
      () =>
        new Promise((resolve) => {
          if (server.exitCode !== null) return resolve();
          server.once('exit', resolve);
          const killGroup = (signal) => {
            try {
              process.kill(-server.pid, signal);
            } catch {
              server.kill(signal);
            }
          };
          killGroup('SIGTERM');
          setTimeout(() => killGroup('SIGKILL'), 5000).unref();
        }),
    );
    const base = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`VS Code server did not start:\n${serverOut}`)), 60_000);
      const check = () => {
        const m = /Server bound to 127\.0\.0\.1:(\d+)|Extension host agent listening on (\d+)/.exec(serverOut);
        if (m) {
          clearTimeout(timer);
          resolve(`http://127.0.0.1:${m[1] ?? m[2]}`);
        }
      };
      server.stdout.on('data', check);
      server.stderr.on('data', check);
      server.on('exit', (c) => {
        clearTimeout(timer);
        reject(new Error(`VS Code server exited (${c}):\n${serverOut}`));
      });
    });

    const remote = (p) => `vscode-remote://${new URL(base).host}${p}`;
    const payload = [
      ['extensionDevelopmentPath', remote(ROOT)],
      ['extensionTestsPath', remote(join(BUNDLE, 'index'))],
    ];
    const url = `${base}/?folder=${encodeURIComponent(dirs.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    log(`VS Code server on ${base}; running ${count} test file(s) in its extension host`);
    const browser = await chromium.launch({ executablePath: toolchain.chromium, args: CHROMIUM_ARGS, headless: true });
    cleanups.push(() => browser.close());
    const page = await browser.newPage();
    await page.goto(url, { waitUntil: 'domcontentloaded' });

    const limit = Number(process.env.INTEGRATION_TIMEOUT_S || 600) * 1000;
    await waitFor(
      () => `the results; extension host log:\n${hostLog(dirs)}`,
      () => {
        if (existsSync(resultsFile)) return true;
        if (server.exitCode !== null) throw new Error(`VS Code server exited (${server.exitCode}):\n${serverOut}`);
        // The host exits once run() settles, and run() has written the results (write, then
        // rename) before it settles: a host gone without them means the suite failed to load.
        if (/Extension host with pid \d+ exiting/.test(hostLog(dirs)) && !existsSync(resultsFile))
          throw new Error(`the extension host exited without results (the suite failed to load?):\n${hostLog(dirs)}`);
        return false;
      },
      { timeoutMs: limit, intervalMs: 500 },
    );
    const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
    console.log(`\n${results.report}\n`);
    console.log(
      `  ${results.passes} passing, ${results.failures} failing, ${results.pending} pending (${(results.durationMs / 1000).toFixed(1)} s in the extension host)`,
    );
    const failed = results.failures > 0 || results.passes === 0;
    if (failed) console.log(`  logs: ${join(dirs['user-data'], 'logs')}`);
    else removeRun = true;
    return failed ? 1 : 0;
  } finally {
    await cleanup();
    if (removeRun) rmSync(OUT, { recursive: true, force: true });
  }
}

function hostLog(dirs) {
  // The server keeps its logs under --user-data-dir: logs/<session>/exthostN/remoteexthost.log.
  return findFiles(join(dirs['user-data'], 'logs'), /exthost\d*\.log$/)
    .map((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .filter((l) => !/^\s+file:\/\//.test(l))
        .join('\n'),
    )
    .join('\n')
    .slice(-6000);
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`integration: ${e.stack ?? e}`);
    process.exit(1);
  },
);
