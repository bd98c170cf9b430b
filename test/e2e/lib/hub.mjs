// Starts a seeded local hub (dist/hub.js, built by `npm run build`, or the one a package carries:
// `hubJs` from lib/vsix.mjs buildVsix) in a fresh data folder on a free port, for the end-to-end
// and integration runners.
// Same steps as test/helpers/hub.ts, in plain .mjs so the runners need no TypeScript loader.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './toolchain.mjs';

export const DEV_HUB = join(ROOT, 'dist', 'hub.js');

function runHub(hubJs, args, { timeoutMs = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [hubJs, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hub ${args[0]} timed out`));
    }, timeoutMs);
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`'node ${hubJs} ${args.join(' ')}' failed (exit ${code}):\n${err || out}`));
    });
  });
}

/** The token is the last non-empty stdout line (the CLI may print a note before it). */
function parseToken(stdout) {
  const lines = stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const last = lines.at(-1) ?? '';
  const m = /([A-Za-z0-9_\-.]{16,})\s*$/.exec(last);
  if (!m) throw new Error(`could not read a token from 'hub token create' output:\n${stdout}`);
  return m[1];
}

/** Starts `hub serve` on DATA and resolves { child, url, output() } once it listens. */
async function serve(hubJs, data, port) {
  const child = spawn(process.execPath, [hubJs, 'serve', '--data', data, '--port', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`hub did not start within 60 s:\n${output}`)), 60_000);
    const onData = (d) => {
      output += d;
      const m = /Hub listening on (http:\/\/[^\s]+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1].replace(/\/$/, ''));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`hub exited (${code}) before listening:\n${output}`));
    });
  });
  return { child, url, output: () => output };
}

/**
 * Serves DATA on a port below the machine's ephemeral range, so no other process can take it while
 * reset() or whileStopped() has the hub down: a port the kernel handed out for `--port 0` goes back
 * to the pool then, and another process binding port 0 (the other seat's hub, the hub suite's hubs)
 * or opening a connection can get it (seen: 20 scenarios failing with EADDRINUSE on one lane).
 * A port some other program already holds is skipped, and so is one a hub of this process has had
 * (the other seat's, down for its own reset).
 */
const portsTaken = new Set();
async function serveOnOwnPort(hubJs, data) {
  const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0]) || 32768;
  const from = Math.max(1024, low - 12000);
  if (low - from < 1000) return serve(hubJs, data, 0);
  for (let attempt = 1; attempt <= 20; attempt++) {
    const port = from + Math.floor(Math.random() * (low - from));
    if (portsTaken.has(port)) continue;
    portsTaken.add(port);
    try {
      return await serve(hubJs, data, port);
    } catch (e) {
      if (!/EADDRINUSE/.test(String(e))) throw e;
    }
  }
  throw new Error(`no free port for the hub in ${from}-${low - 1} after 20 tries`);
}

function stopChild(child) {
  if (child.exitCode !== null || child.signalCode) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}

/**
 * Seeds DATA (a new temp folder unless given; a copy of `from` when given) and serves it on a free port.
 * Returns { url, dataDir, token(user), api(path, init), reset(), stop() }.
 *
 * `hubJs` is the hub bundle to run (default dist/hub.js).
 * `tokens` (user → token) are tokens `from` already holds (another hub's `tokens()`): not made again.
 * With `template: true` the seeded folder (with a token per `users`) is kept aside, and
 * `reset()` serves a fresh copy of it on the same port: every scenario starts from the seed,
 * whatever the scenarios before it (or its own first attempt) merged, forked or created.
 */
export async function startHub({
  hubJs = DEV_HUB,
  dataDir,
  seed = true,
  template = false,
  from,
  users = ['alice', 'bob', 'carol'],
  tokens: knownTokens,
  log = () => {},
} = {}) {
  if (!existsSync(hubJs)) throw new Error(`${hubJs} is missing: run 'npm run build' first`);
  const data = dataDir ?? mkdtempSync(join(tmpdir(), 'vdb-hub-'));
  let templateDir;
  const tokens = new Map(knownTokens);
  if (from) {
    // An already seeded folder (`from`): copied, never changed.
    log(`hub: copying the seeded folder ${from}`);
    cpSync(from, data, { recursive: true });
  } else if (seed) {
    log(`hub: seeding ${data}`);
    await runHub(hubJs, ['seed', '--data', data]);
  }
  if (template) {
    for (const user of users)
      if (!tokens.has(user)) tokens.set(user, parseToken(await runHub(hubJs, ['token', 'create', '--user', user, '--data', data])));
    templateDir = mkdtempSync(join(tmpdir(), 'vdb-hub-template-'));
    cpSync(data, templateDir, { recursive: true });
  }
  let server = await serveOnOwnPort(hubJs, data);
  const url = server.url;
  const port = Number(new URL(url).port);
  log(`hub: listening on ${url}`);

  /** A personal access token for `user`; those made for the template survive reset(). */
  async function token(user = 'alice') {
    if (tokens.has(user)) return tokens.get(user);
    const made = parseToken(await runHub(hubJs, ['token', 'create', '--user', user, '--data', data]));
    // A token made after the template was copied is gone at the next reset: do not keep it.
    if (!templateDir) tokens.set(user, made);
    return made;
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
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    return { status: res.status, body };
  }

  /** Serves a fresh copy of the template on the same URL (template: true only). */
  async function reset() {
    if (!templateDir) throw new Error('hub.reset() needs startHub({ template: true })');
    await stopChild(server.child);
    for (const name of readdirSync(data)) rmSync(join(data, name), { recursive: true, force: true });
    cpSync(templateDir, data, { recursive: true });
    server = await serve(hubJs, data, port);
    if (server.url !== url) throw new Error(`hub came back on ${server.url}, not ${url}`);
  }

  /**
   * Stops the server, runs `during()` (a scenario watching requests fail), then serves the same
   * data again on the same URL, whatever `during` did.
   */
  async function whileStopped(during) {
    await stopChild(server.child);
    const outcome = await during().then(
      (value) => ({ value }),
      (error) => ({ error }),
    );
    server = await serve(hubJs, data, port);
    if (server.url !== url) throw new Error(`hub came back on ${server.url}, not ${url}`);
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  /** Stops the server; removes the data folder when this call created it (unless keep). */
  async function stop({ keep = false } = {}) {
    await stopChild(server.child);
    if (!dataDir && !keep) rmSync(data, { recursive: true, force: true });
    if (templateDir) rmSync(templateDir, { recursive: true, force: true });
  }

  return {
    url,
    dataDir: data,
    /** The seeded folder reset() copies (template: true), for another hub to start from. */
    templateDir,
    /** The tokens made so far, user → token. */
    tokens: () => new Map(tokens),
    token,
    api,
    reset,
    whileStopped,
    stop,
    output: () => server.output(),
    get process() {
      return server.child;
    },
  };
}
