// Starts a real local hub (`node dist/hub.js serve`, built by `npm run build`) on a free port in
// a temp data folder, optionally seeded, for hub, contract and other Node-side tests.
//
//   const hub = await startHub({ seed: true });
//   const token = await hub.token('alice');          // a personal access token (CLI `token create`)
//   const res = await hub.fetch('/databases/alice/prices', { user: 'alice' });
//   await hub.stop();
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { waitFor } from './waitFor.cjs';

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const HUB_JS = join(REPO_ROOT, 'dist', 'hub.js');

export interface StartHubOptions {
  /** Run `hub seed` first (sample users alice/bob/carol, org acme, databases; see seed.json). */
  seed?: boolean;
  /** Use this folder instead of a new temp folder (kept on stop). */
  dataDir?: string;
  /** Users to add before serving (password = `${name}-password`), e.g. for unseeded hubs. */
  users?: string[];
  /** Extra `serve` flags, e.g. ['--page-size', '2', '--max-rows', '5', '--upload-ttl', '2']. */
  args?: string[];
}

export interface HubHandle {
  /** Site URL, e.g. http://127.0.0.1:41234 (the API is under /api/v2). */
  url: string;
  dataDir: string;
  process: ChildProcess;
  /** A new personal access token for `user` (cached per user). */
  token(user?: string): Promise<string>;
  /** fetch `${url}/api/v2${path}` as `user` (anonymous when user is null/absent); JSON body via `json`. */
  fetch(path: string, init?: HubFetchInit): Promise<HubResponse>;
  /** Everything the hub wrote to stdout/stderr so far. */
  output(): string;
  /** SIGTERM and wait for exit (SIGKILL after 5 s). Removes the temp folder unless `keep`. */
  stop(opts?: { keep?: boolean }): Promise<void>;
  /** SIGKILL now, like a crash; resolves when the process is gone. The folder is kept. */
  kill(): Promise<void>;
}

export interface HubFetchInit {
  method?: string;
  user?: string | null;
  /** Sent as-is in the Authorization header (overrides `user`). */
  authorization?: string;
  json?: unknown;
  body?: string;
  headers?: Record<string, string>;
  /** Aborts the request (the connection closes, as when a client cancels). */
  signal?: AbortSignal;
}

export interface HubResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON body (undefined when empty; the raw text when not JSON). */
  body: any;
  text: string;
}

/** Runs a hub CLI command to completion; resolves stdout, rejects with stderr on failure. */
export function runHubCli(args: string[], timeoutMs = 120_000): Promise<{ stdout: string; stderr: string }> {
  ensureBuilt();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [HUB_JS, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hub ${args.join(' ')} timed out`));
    }, timeoutMs);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise({ stdout, stderr });
      else reject(Object.assign(new Error(`hub ${args.join(' ')} exited ${code}: ${stderr || stdout}`), { code, stdout, stderr }));
    });
  });
}

function ensureBuilt(): void {
  if (!existsSync(HUB_JS)) throw new Error(`${HUB_JS} is missing: run 'npm run build' first.`);
}

export async function startHub(opts: StartHubOptions = {}): Promise<HubHandle> {
  ensureBuilt();
  const ownDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'vdb-hubtest-'));
  let tokens: Map<string, string> | undefined;
  if (opts.seed) tokens = await copySeeded(dataDir);
  for (const u of opts.users ?? []) await runHubCli(['user', 'add', u, '--data', dataDir, '--password', `${u}-password`]);
  return serveHub(dataDir, ownDir, opts.args ?? [], tokens);
}

/** The seed users, who get a token in the template (each copy's hub accepts it: it is in the copy). */
const SEED_USERS = ['alice', 'bob', 'carol'];

interface SeededTemplate {
  dir: string;
  tokens: Map<string, string>;
}

let seededTemplate: Promise<SeededTemplate> | undefined;

/**
 * Fills `dataDir` as `hub seed` would, by copying a folder seeded once per test process (seeding
 * takes seconds; a copy milliseconds), and returns a token of each seed user that works there.
 * Every copy is a folder of its own: what one test writes no other test sees.
 */
async function copySeeded(dataDir: string): Promise<Map<string, string>> {
  seededTemplate ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vdb-hubtemplate-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    await runHubCli(['seed', '--data', dir]);
    const tokens = new Map<string, string>();
    for (const u of SEED_USERS) tokens.set(u, (await runHubCli(['token', 'create', '--user', u, '--data', dir])).stdout.trim());
    return { dir, tokens };
  })();
  const t = await seededTemplate;
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    // As `hub seed` does, an existing folder with databases is refused (tests that seed twice check it).
    await runHubCli(['seed', '--data', dataDir]);
    return new Map();
  }
  cpSync(t.dir, dataDir, { recursive: true });
  return new Map(t.tokens);
}

/** Serves an existing data folder (e.g. again after kill()). */
export async function serveHub(
  dataDir: string,
  removeOnStop = false,
  args: string[] = [],
  knownTokens?: Map<string, string>,
): Promise<HubHandle> {
  ensureBuilt();
  const child = spawn(process.execPath, [HUB_JS, 'serve', '--data', dataDir, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`hub did not start within 30 s:\n${out}`)), 30_000);
    const check = (): void => {
      const m = /Hub listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout.off('data', check);
        res(m[1] as string);
      }
    };
    child.stdout.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`hub exited (${code}) before listening:\n${out}`));
    });
  });
  const tokens = new Map<string, string>(knownTokens);
  const token = async (user = 'alice'): Promise<string> => {
    let t = tokens.get(user);
    if (!t) {
      t = (await runHubCli(['token', 'create', '--user', user, '--data', dataDir])).stdout.trim();
      tokens.set(user, t);
    }
    return t;
  };
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    url,
    dataDir,
    process: child,
    token,
    output: () => out,
    async fetch(path: string, init: HubFetchInit = {}): Promise<HubResponse> {
      const headers: Record<string, string> = { accept: 'application/json', ...(init.headers ?? {}) };
      if (init.authorization !== undefined) headers['authorization'] = init.authorization;
      else if (init.user) headers['authorization'] = `Bearer ${await token(init.user)}`;
      let body = init.body;
      if (init.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(init.json);
      }
      const res = await fetch(`${url}/api/v2${path}`, {
        method: init.method ?? (body !== undefined ? 'POST' : 'GET'),
        headers,
        body,
        signal: init.signal,
      });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        parsed = text;
      }
      return { status: res.status, headers: res.headers, body: parsed, text };
    },
    async stop(o: { keep?: boolean } = {}): Promise<void> {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(t);
      }
      if (removeOnStop && !o.keep) rmSync(dataDir, { recursive: true, force: true });
    },
    async kill(): Promise<void> {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The seed manifest the hub writes into a seeded data folder. */
export function readSeedManifest(dataDir: string): {
  users: { username: string; password: string }[];
  databases: { owner: string; name: string; visibility: string }[];
} {
  return JSON.parse(readFileSync(join(dataDir, 'seed.json'), 'utf8'));
}

/** Polls GET /operations/{id} until it finishes. */
export async function waitForOperation(hub: HubHandle, id: string, user: string | null = 'alice', timeoutMs = 60_000): Promise<any> {
  let last = '';
  return waitFor(
    () => `operation ${id} to finish: ${last}`,
    async () => {
      const r = await hub.fetch(`/operations/${encodeURIComponent(id)}`, { user });
      if (r.status !== 200) throw new Error(`poll ${id}: ${r.status} ${r.text}`);
      last = r.text;
      return r.body.data.status === 'succeeded' || r.body.data.status === 'failed' ? r.body.data : undefined;
    },
    { timeoutMs },
  );
}

/** The hub process's resident memory in bytes, its worker threads included (Linux /proc). */
export function rssOf(hub: HubHandle): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${hub.process.pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) * 1024;
}
