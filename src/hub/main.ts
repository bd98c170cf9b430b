// `node dist/hub.js <command>`: the local hub's command line. The same file is the entry of the
// engine's worker threads (see engineWorker.ts), told apart by workerData.
import { isMainThread, workerData } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Logger } from '../core/logger';
import type { HubOptions } from './hubCommon';
import { runEngineWorker } from './engineWorker';
import { ENGINE_DEFAULTS } from './engine';
import { HubServer } from './hubServer';
import { DEFAULT_BODY_MEMORY_BYTES } from './bodyBudget';
import { Store } from './store';
import type { OrgRole } from './store';
import { ORG_ROLES } from './store';
import { hashPassword, hashToken, newToken } from './credentials';
import { isValidName } from './validate';
import { seed } from './seed';
import { extensionClient } from './oauth';

const USAGE = `Usage: node dist/hub.js COMMAND [options]   (\`npm run hub\` seeds and serves a sample folder)
  hub serve --data DIR [--host 127.0.0.1] [--port N] [--upload-port N] [--public-url URL] [--page-size N] [--max-rows N]
            [--upload-ttl SECONDS] [--query-workers N] [--caller-queries N] [--queue-wait-ms N]
            [--max-result-bytes N] [--max-value-bytes N] [--worker-memory-mb N] [--max-body-memory-mb N] [--max-query-memory-mb N]
            [--verbose]
  hub user add NAME --data DIR [--email E] [--password P]
  hub token create --user NAME --data DIR
  hub org add NAME --member USER[:ROLE] [--member ...] --data DIR     (ROLE: owner, writer, reader; default writer)
  hub seed --data DIR                                                 (DIR must hold no databases yet)
  hub help | -h | --help

Limits of \`serve\` (each refusal is a Problem; see README "Local hub"):
  request bodies      a JSON body past 8 MiB is 413; all bodies held at once share --max-body-memory-mb
                      (64), each counted at 3x its size (bytes, text, parsed value): past it 503
                      with Retry-After, before the body is read
  upload parts        a session's parts hold at most its content_length in all, also sent at once (413)
  queries             timeout_ms (default 30000, at most 60000) bounds every phase: translation of Dolt's
                      forms, planning, execution; a caller that goes away frees its share at once;
                      a query of more than 200,000 tokens is refused (status error) before it is read
  query workers       --query-workers (2), all started with the hub (the worker for imports and merges
                      starts on the first one, or when an import's upload begins)
  query shares        --caller-queries per signed-in user and per address of anonymous callers;
                      --queue-wait-ms, then 429 with Retry-After
  results             --max-result-bytes of cell text, --max-value-bytes per value, --max-rows rows
  query memory        --max-query-memory-mb (256) per query for sorting, grouping and building values,
                      besides the page caches it reads through: past it the query fails at once
                      (status error, a message naming the limit)
  worker memory       --worker-memory-mb: a worker past it is replaced after its request`;

/** Bad command line: the message, then the usage, exit 2. */
class UsageError extends Error {}
/** A refusal the user can act on: one line, no stack trace, exit 1. */
class CliError extends Error {}

interface Parsed {
  positional: string[];
  flags: Map<string, string[]>;
}

const BOOLEAN_FLAGS = new Set(['verbose']);

function parseArgs(argv: string[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      let value: string;
      if (eq > 0) value = a.slice(eq + 1);
      else if (BOOLEAN_FLAGS.has(name)) value = 'true';
      else {
        const next = argv[i + 1];
        if (next === undefined || next.startsWith('--')) throw new UsageError(`--${name} needs a value.`);
        value = next;
        i++;
      }
      flags.set(name, [...(flags.get(name) ?? []), value]);
    } else {
      positional.push(a);
    }
  }
  return { positional, flags };
}

function flag(p: Parsed, name: string): string | undefined {
  const v = p.flags.get(name);
  return v ? v[v.length - 1] : undefined;
}

function intFlag(p: Parsed, name: string, def: number, min = 0): number {
  const v = flag(p, name);
  if (v === undefined) return def;
  if (!/^\d+$/.test(v) || Number(v) < min) throw new UsageError(`--${name} must be an integer >= ${min}.`);
  return Number(v);
}

/** `--public-url`: where clients reach the hub (behind a proxy), used for every `href`. */
function publicUrlFlag(p: Parsed): string | undefined {
  const v = flag(p, 'public-url');
  if (v === undefined) return undefined;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new UsageError('--public-url must be an absolute http(s) URL.');
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password || u.search || u.hash) {
    throw new UsageError('--public-url must be an http(s) URL without credentials, query or fragment.');
  }
  return u.origin + u.pathname.replace(/\/+$/, '');
}

function checkFlags(p: Parsed, allowed: string[]): void {
  for (const k of p.flags.keys()) if (!allowed.includes(k)) throw new UsageError(`Unknown option --${k}.`);
}

function dataDir(p: Parsed): string {
  const d = flag(p, 'data');
  if (!d) throw new UsageError('--data DIR is required.');
  return resolve(d);
}

function stderrLogger(verbose: boolean): Logger {
  const line = (level: string, m: unknown, args: unknown[]): void => {
    process.stderr.write(
      `[hub ${level}] ${m instanceof Error ? (m.stack ?? m.message) : String(m)}${args.length ? ' ' + args.map(String).join(' ') : ''}\n`,
    );
  };
  return {
    trace: (m, ...a) => {
      if (verbose) line('trace', m, a);
    },
    debug: (m, ...a) => {
      if (verbose) line('debug', m, a);
    },
    info: (m, ...a) => line('info', m, a),
    warn: (m, ...a) => line('warn', m, a),
    error: (m, ...a) => line('error', m, a),
  };
}

function workerScript(): string {
  return __filename;
}

function workerExecArgv(): string[] {
  // Under tsx (tests importing the sources) the worker must load TypeScript too.
  return __filename.endsWith('.ts') ? ['--import', 'tsx'] : [];
}

export async function main(argv: string[]): Promise<number> {
  // Asking for help is never an error, wherever it appears on the line.
  if (argv[0] === 'help' || argv.some((a) => a === '-h' || a === '--help')) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const p = parseArgs(argv);
  const [cmd, sub, arg] = p.positional;
  if (!cmd) throw new UsageError('No command given.');
  if (cmd === 'serve') return serve(p);
  if (cmd === 'user' && sub === 'add') return addUser(p, arg);
  if (cmd === 'token' && sub === 'create') return createToken(p);
  if (cmd === 'org' && sub === 'add') return addOrg(p, arg);
  if (cmd === 'seed') return seedCommand(p);
  throw new UsageError(`Unknown command "${p.positional.join(' ')}".`);
}

const SERVE_FLAGS = [
  'data',
  'host',
  'port',
  'upload-port',
  'public-url',
  'page-size',
  'max-rows',
  'upload-ttl',
  'query-workers',
  'caller-queries',
  'queue-wait-ms',
  'max-result-bytes',
  'max-value-bytes',
  'worker-memory-mb',
  'max-body-memory-mb',
  'max-query-memory-mb',
  'verbose',
];

/** `serve`: listens until SIGINT or SIGTERM, then stops cleanly. */
async function serve(p: Parsed): Promise<number> {
  checkFlags(p, SERVE_FLAGS);
  const hub = new HubServer(serveOptions(p));
  await hub.start();
  process.stdout.write(`Hub listening on ${hub.url}\n`);
  await new Promise<void>((res) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      res();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await hub.stop();
  return 0;
}

/** The server's options from `serve`'s flags, each with its default and bounds. */
function serveOptions(p: Parsed): HubOptions {
  const queryWorkers = intFlag(p, 'query-workers', ENGINE_DEFAULTS.workers.query, 1);
  return {
    dataDir: dataDir(p),
    host: flag(p, 'host') ?? '127.0.0.1',
    port: intFlag(p, 'port', 0),
    uploadPort: intFlag(p, 'upload-port', 0),
    pageSize: intFlag(p, 'page-size', 50, 1),
    maxRows: intFlag(p, 'max-rows', 10000, 1),
    uploadTtlSeconds: intFlag(p, 'upload-ttl', 600, 1),
    publicUrl: publicUrlFlag(p),
    bodyMemoryBytes: intFlag(p, 'max-body-memory-mb', DEFAULT_BODY_MEMORY_BYTES / (1024 * 1024), 1) * 1024 * 1024,
    engine: {
      workers: { query: queryWorkers },
      queryLimits: {
        maxRunningPerCaller: intFlag(p, 'caller-queries', Math.max(1, queryWorkers - 1), 1),
        maxWaitMs: intFlag(p, 'queue-wait-ms', ENGINE_DEFAULTS.maxWaitMs, 0),
      },
      resultBytes: intFlag(p, 'max-result-bytes', ENGINE_DEFAULTS.resultBytes, 1024),
      // SQLite's length limit is a 32-bit int.
      valueBytes: Math.min(intFlag(p, 'max-value-bytes', ENGINE_DEFAULTS.valueBytes, 1024), 1_000_000_000),
      // Under the worker's heap ceiling (queryMemory.ts) with room for its page caches.
      queryMemoryBytes:
        Math.min(intFlag(p, 'max-query-memory-mb', ENGINE_DEFAULTS.queryMemoryBytes / (1024 * 1024), 16), 768) * 1024 * 1024,
      workerMemoryBytes: intFlag(p, 'worker-memory-mb', ENGINE_DEFAULTS.workerMemoryBytes / (1024 * 1024), 64) * 1024 * 1024,
    },
    logger: stderrLogger(flag(p, 'verbose') === 'true'),
    workerScript: workerScript(),
    workerExecArgv: workerExecArgv(),
  };
}

function addUser(p: Parsed, arg: string | undefined): number {
  checkFlags(p, ['data', 'email', 'password']);
  if (!arg || !isValidName(arg)) throw new UsageError('user add NAME: NAME must be letters, digits, "-" or "_".');
  const store = new Store(dataDir(p));
  const email = flag(p, 'email') ?? `${arg}@example.com`;
  const password = flag(p, 'password');
  store.mutateAccounts((s) => {
    if (s.users[arg] || s.orgs[arg]) throw new UsageError(`"${arg}" is already a user or organization.`);
    s.users[arg] = {
      username: arg,
      email,
      display_name: '',
      created_at: new Date().toISOString(),
      ...(password ? { password_hash: hashPassword(password) } : {}),
    };
    if (!s.oauth_clients[extensionClient().client_id]) s.oauth_clients[extensionClient().client_id] = extensionClient();
  });
  process.stderr.write(`Added user ${arg}\n`);
  return 0;
}

function createToken(p: Parsed): number {
  checkFlags(p, ['data', 'user']);
  const user = flag(p, 'user');
  if (!user) throw new UsageError('--user NAME is required.');
  const dir = dataDir(p);
  if (!existsSync(dir)) throw new UsageError(`${dir} does not exist.`);
  const store = new Store(dir);
  const token = newToken('vdbp');
  store.mutateAccounts((s) => {
    if (!s.users[user]) throw new UsageError(`No user named "${user}".`);
    s.tokens.push({ hash: hashToken(token), username: user, kind: 'personal', created_at: new Date().toISOString() });
  });
  process.stdout.write(token + '\n');
  return 0;
}

function addOrg(p: Parsed, arg: string | undefined): number {
  checkFlags(p, ['data', 'member']);
  if (!arg || !isValidName(arg)) throw new UsageError('org add NAME: NAME must be letters, digits, "-" or "_".');
  const members: Record<string, OrgRole> = {};
  for (const m of p.flags.get('member') ?? []) {
    const [u, role = 'writer'] = m.split(':');
    if (!u || !ORG_ROLES.includes(role as OrgRole)) throw new UsageError(`--member ${m}: expected USER[:${ORG_ROLES.join('|')}].`);
    members[u] = role as OrgRole;
  }
  if (!Object.values(members).includes('owner')) {
    const first = Object.keys(members)[0];
    if (!first) throw new UsageError('An organization needs at least one --member.');
  }
  const store = new Store(dataDir(p));
  store.mutateAccounts((s) => {
    if (s.users[arg] || s.orgs[arg]) throw new UsageError(`"${arg}" is already a user or organization.`);
    for (const u of Object.keys(members)) if (!s.users[u]) throw new UsageError(`No user named "${u}".`);
    s.orgs[arg] = { name: arg, members, created_at: new Date().toISOString() };
  });
  process.stderr.write(`Added organization ${arg}\n`);
  return 0;
}

async function seedCommand(p: Parsed): Promise<number> {
  checkFlags(p, ['data', 'verbose']);
  const dir = dataDir(p);
  const held = existsSync(dir) ? new Store(dir).state.databases : {};
  const names = Object.values(held).map((d) => `${d.owner}/${d.name}`);
  if (names.length) {
    throw new CliError(
      `${dir} already holds ${names.length} database(s) (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}); seed an empty folder, or serve this one with 'hub serve --data ${dir}'.`,
    );
  }
  const m = await seed(dir, workerScript(), stderrLogger(flag(p, 'verbose') === 'true'), workerExecArgv());
  process.stderr.write(
    `Seeded ${dir}: users ${m.users.map((u) => u.username).join(', ')}; databases ${m.databases.map((d) => `${d.owner}/${d.name}`).join(', ')}\n`,
  );
  return 0;
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === 'doltlite-engine') {
  void runEngineWorker();
} else if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      if (e instanceof UsageError) {
        process.stderr.write(`hub: ${e.message}\n\n${USAGE}\n`);
        process.exit(2);
      }
      if (e instanceof CliError) {
        process.stderr.write(`hub: ${e.message}\n`);
        process.exit(1);
      }
      process.stderr.write(`hub: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}
