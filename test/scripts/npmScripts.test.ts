// `npm run hub` and `npm run demo` stop everything they started when SIGTERM or SIGINT reaches
// the npm process itself (a process manager, an IDE's stop button, `kill <npm pid>`), not only
// when a terminal's Ctrl+C signals the whole process group. Runs the real npm scripts; the demo
// needs the code-server toolchain (installed by the integration and e2e runners).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import { waitFor, WaitTimeoutError } from '../helpers/waitFor.cjs';

const ROOT = resolve(__dirname, '..', '..');

interface Started {
  npm: ChildProcess;
  output(): string;
}

/** Starts `npm run <script>` in its own process group (so the test's signal reaches npm alone). */
async function startNpm(script: string, env: Record<string, string>, ready: RegExp, timeoutMs: number): Promise<Started> {
  const npm = spawn('npm', ['run', script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  npm.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  npm.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`npm run ${script} was not ready within ${timeoutMs / 1000} s:\n${out}`)), timeoutMs);
    const check = (): void => {
      if (ready.test(out)) {
        clearTimeout(timer);
        res();
      }
    };
    npm.stdout!.on('data', check);
    npm.stderr!.on('data', check);
    npm.on('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`npm run ${script} exited (${code}) before it was ready:\n${out}`));
    });
  });
  return { npm, output: () => out };
}

/** Every process below `root`, read from /proc (parents before children). */
async function descendants(root: number): Promise<number[]> {
  // Plain .mjs shared with the scripts themselves: the same walk they use to stop their tree.
  const lib = (await import(join(ROOT, 'scripts', 'lib', 'stopTree.mjs'))) as { descendants(pid: number): number[] };
  return lib.descendants(root);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Waits up to `ms` for every pid to end; the ones still alive then. */
async function waitGone(pids: number[], ms: number): Promise<number[]> {
  await waitFor('the processes to end', () => !pids.some(alive), { timeoutMs: ms, intervalMs: 100 }).catch((e: unknown) => {
    if (!(e instanceof WaitTimeoutError)) throw e;
  });
  return pids.filter(alive);
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.on('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });
}

/** Signals npm only; resolves npm's exit and what is still alive of the tree it had. */
async function signalNpm(
  started: Started,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; survivors: number[]; tree: number[] }> {
  const tree = await descendants(started.npm.pid!);
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((res) => started.npm.once('exit', (code, sig) => res([code, sig])));
  process.kill(started.npm.pid!, signal);
  const [code, sig] = await exited;
  const survivors = await waitGone(tree, 15_000);
  // Never leave anything behind, whatever the assertions say.
  for (const pid of survivors) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  return { code, signal: sig, survivors, tree };
}

describe('npm scripts stop everything they started', function () {
  this.timeout(600_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vdb-npm-scripts-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`npm run hub: ${signal} to npm ends npm, the script and the hub server`, async () => {
      const port = await freePort();
      const started = await startNpm('hub', { HUB_DATA: join(dir, 'data'), HUB_PORT: String(port) }, /Ctrl\+C stops the hub/, 120_000);
      const url = `http://127.0.0.1:${port}/api/v2/databases/alice/prices`;
      assert.equal((await fetch(url)).status, 200, 'the hub serves the sample data');
      const { survivors, tree } = await signalNpm(started, signal);
      assert.ok(tree.length >= 2, `npm had the script and the hub below it: ${tree.join(', ')}`);
      assert.deepEqual(survivors, [], `still running after npm got ${signal}:\n${started.output()}`);
      await assert.rejects(fetch(url), 'nothing listens on the port any more');
    });
  }

  it('npm run demo: SIGTERM to npm ends npm, the script, code-server and everything code-server started', async function () {
    // npm test runs this suite after the integration runner, which installed the toolchain; alone,
    // this installs it first (the demo would do the same, and its readiness wait would run out).
    const toolchain = (await import(join(ROOT, 'test', 'e2e', 'lib', 'toolchain.mjs'))) as {
      ensureToolchain(o: { log(m: string): void }): Promise<unknown>;
    };
    await toolchain.ensureToolchain({ log: () => undefined });
    const port = await freePort();
    const started = await startNpm(
      'demo',
      { DEMO_DIR: join(dir, 'demo'), DEMO_PORT: String(port) },
      /Versioned DB demo is running/,
      480_000,
    );
    assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200, 'code-server answers');
    const { survivors, tree } = await signalNpm(started, 'SIGTERM');
    assert.ok(tree.length >= 3, `npm had the script, code-server and its server below it: ${tree.join(', ')}`);
    assert.deepEqual(survivors, [], `still running after npm got SIGTERM:\n${started.output()}`);
    await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`), 'nothing listens on the port any more');
  });
});
