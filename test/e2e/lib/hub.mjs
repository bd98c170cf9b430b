// Starts a seeded local hub (dist/hub.js, built by `npm run build`/`npm run package`) in a fresh
// data folder on a free port, for the end-to-end and integration runners, and the demo.
// Same steps as test/helpers/hub.ts, in plain .mjs so the runners need no TypeScript loader.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './toolchain.mjs';

const HUB = join(ROOT, 'dist', 'hub.js');

function runHub(args, { timeoutMs = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HUB, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`hub ${args[0]} timed out`)); }, timeoutMs);
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`'node dist/hub.js ${args.join(' ')}' failed (exit ${code}):\n${err || out}`));
    });
  });
}

/** The token is the last non-empty stdout line (the CLI may print a note before it). */
function parseToken(stdout) {
  const lines = stdout.split('\n').map((l) => l.trim()).filter(Boolean);
  const last = lines.at(-1) ?? '';
  const m = /([A-Za-z0-9_\-.]{16,})\s*$/.exec(last);
  if (!m) throw new Error(`could not read a token from 'hub token create' output:\n${stdout}`);
  return m[1];
}

/**
 * Seeds DATA (a new temp folder unless given) and serves it on a free port.
 * Returns { url, dataDir, token(user), api(path, init), stop() }.
 */
export async function startHub({ dataDir, seed = true, log = () => {} } = {}) {
  if (!existsSync(HUB)) throw new Error(`${HUB} is missing: run 'npm run build' first`);
  const data = dataDir ?? mkdtempSync(join(tmpdir(), 'vdb-hub-'));
  if (seed) {
    log(`hub: seeding ${data}`);
    await runHub(['seed', '--data', data]);
  }
  const child = spawn(process.execPath, [HUB, 'serve', '--data', data, '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`hub did not start within 60 s:\n${output}`)), 60_000);
    const onData = (d) => {
      output += d;
      const m = /Hub listening on (http:\/\/[^\s]+)/.exec(output);
      if (m) { clearTimeout(timer); resolve(m[1].replace(/\/$/, '')); }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`hub exited (${code}) before listening:\n${output}`)); });
  });
  child.stdout.on('data', (d) => { output += d; });
  log(`hub: listening on ${url}`);

  const tokens = new Map();
  async function token(user = 'alice') {
    if (!tokens.has(user)) tokens.set(user, parseToken(await runHub(['token', 'create', '--user', user, '--data', data])));
    return tokens.get(user);
  }

  /** Calls the hub's API v2 like a client would (as `user`, or anonymously with user: null); returns { status, body }. */
  async function api(path, init = {}) {
    const { user = 'alice', json, headers = {}, ...rest } = init;
    const h = { accept: 'application/json', ...headers };
    if (user) h.authorization = `Bearer ${await token(user)}`;
    if (json !== undefined) h['content-type'] = 'application/json';
    const res = await fetch(`${url}/api/v2${path.startsWith('/') ? path : `/${path}`}`, {
      method: json !== undefined || rest.body !== undefined ? 'POST' : 'GET',
      ...rest,
      headers: h,
      body: json !== undefined ? JSON.stringify(json) : rest.body,
    });
    const text = await res.text();
    let body;
    try { body = text ? JSON.parse(text) : undefined; } catch { body = text; }
    return { status: res.status, body };
  }

  /** Stops the server; removes the data folder when this call created it (unless keep). */
  async function stop({ keep = false } = {}) {
    if (child.exitCode === null && !child.signalCode) {
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      });
    }
    if (!dataDir && !keep) rmSync(data, { recursive: true, force: true });
  }

  return { url, dataDir: data, token, api, stop, output: () => output, process: child };
}
