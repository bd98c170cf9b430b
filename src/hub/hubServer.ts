// The local hub: API v2 over DoltLite. Owns the two listeners (API + part uploads), the store,
// the engine and the operations runner. The routing table is here (buildRoutes); imports live in
// importEndpoints.ts, OAuth in oauth.ts.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync, renameSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Logger } from '../core/logger';
import type {
  Branch,
  BranchRef,
  Database,
  DatabaseRef,
  Operation,
  OperationError,
  OperationRef,
  OperationResult,
  Pull,
  PullComment,
  PullSummary,
  QueryResult,
  Release,
  Tag,
  User,
} from '../shared/wire';
import { Engine, EngineTimeoutError } from './engine';
import { ImportEndpoints } from './importEndpoints';
import { OpFailure, now } from './hubCommon';
import type { Access, Caller, EndpointHost } from './hubCommon';
import type { Author, Revision } from './engineProtocol';
import { doltHashToHex, hexToDoltHash, isDoltHash } from './doltHash';
import { Store, dbKey } from './store';
import type { DatabaseRecord, OperationRecord, PullRecord } from './store';
import {
  HttpProblem,
  badRequest,
  conflict,
  forbidden,
  newRequestId,
  notFound,
  readBody,
  readJson,
  sendData,
  sendProblem,
  unauthenticated,
  unprocessable,
} from './http';
import type { Ctx } from './http';
import { match, route } from './router';
import type { Route } from './router';
import { checkBranchName, checkName, positiveIntParam, validateBody } from './validate';
import { Paginator } from './pagination';
import { hashToken } from './credentials';
import { OAuthService, extensionClient } from './oauth';
import { fsyncDir } from './atomicFile';

export interface HubOptions {
  dataDir: string;
  host: string;
  port: number;
  uploadPort?: number;
  pageSize: number;
  maxRows: number;
  uploadTtlSeconds: number;
  logger: Logger;
  workerScript: string;
  workerExecArgv?: string[];
}

const DEFAULT_LIMIT = 1000;
const DEFAULT_TIMEOUT_MS = 30000;
const MAX_TIMEOUT_MS = 60000;
const API = '/api/v2';


export class HubServer implements EndpointHost {
  readonly store: Store;
  readonly engine: Engine;
  private readonly paginator: Paginator;
  private readonly oauth: OAuthService;
  private api?: Server;
  private uploads?: Server;
  private readonly routes: Route[];
  private readonly imports: ImportEndpoints;
  private readonly running = new Set<Promise<void>>();
  private stopping = false;
  url = '';
  uploadUrl = '';

  constructor(readonly opts: HubOptions) {
    mkdirSync(opts.dataDir, { recursive: true });
    this.store = new Store(opts.dataDir);
    this.recoverInterruptedOperations();
    this.dropStaleUploads();
    this.engine = new Engine({ workerScript: opts.workerScript, workerExecArgv: opts.workerExecArgv, logger: opts.logger });
    this.paginator = new Paginator(this.store.state.secret, opts.pageSize);
    this.oauth = new OAuthService(this.store);
    // The extension's client is always registered with its current redirect URIs.
    const client = extensionClient();
    if (JSON.stringify(this.store.state.oauth_clients[client.client_id]) !== JSON.stringify(client)) {
      this.store.mutateAccounts((s) => (s.oauth_clients[client.client_id] = client));
    }
    this.imports = new ImportEndpoints(this);
    this.routes = this.buildRoutes();
  }

  async start(): Promise<void> {
    // Say "listening" only once queries can run.
    await this.engine.ready();
    this.api = createServer((req, res) => void this.dispatch(req, res));
    this.uploads = createServer((req, res) => void this.imports.dispatchUpload(req, res));
    await listen(this.api, this.opts.port, this.opts.host);
    await listen(this.uploads, this.opts.uploadPort ?? 0, this.opts.host);
    this.url = `http://${hostForUrl(this.opts.host)}:${(this.api.address() as AddressInfo).port}`;
    this.uploadUrl = `http://${hostForUrl(this.opts.host)}:${(this.uploads.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await Promise.all([closeServer(this.api), closeServer(this.uploads)]);
    // Give running operations a moment to finish; longer ones are cut off and recorded as failed.
    await Promise.race([Promise.allSettled([...this.running]), new Promise((r) => setTimeout(r, 3000).unref())]);
    this.stopping = true;
    await this.engine.close();
    await Promise.allSettled([...this.running]);
  }

  /** Work cut off by a crash or kill cannot be resumed: report it as failed. */
  private recoverInterruptedOperations(): void {
    let changed = false;
    for (const op of this.store.state.operations) {
      if (op.status === 'queued' || op.status === 'running') {
        op.status = 'failed';
        op.updated_at = now();
        op.error = { status: 500, code: 'OPERATION_FAILED', title: 'Operation interrupted', detail: 'The hub stopped before this operation finished; check the branch, then start it again.' };
        changed = true;
      }
    }
    if (changed) this.store.save();
  }

  /** Upload sessions that expired or were imported leave nothing behind after a restart. */
  private dropStaleUploads(): void {
    const stale = Object.entries(this.store.state.uploads).filter(([, u]) => u.consumed || Date.parse(u.expires_at) < Date.now());
    if (stale.length === 0) return;
    this.store.mutate((s) => {
      for (const [id] of stale) {
        rmSync(join(this.opts.dataDir, 'uploads', id), { recursive: true, force: true });
        delete s.uploads[id];
      }
    });
  }

  // ---------------------------------------------------------------- dispatch

  private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = newRequestId();
    const url = new URL(req.url ?? '/', 'http://hub.invalid');
    const ctx: Ctx = { req, res, requestId, path: url.pathname };
    const started = Date.now();
    // Path only: query strings may carry SQL, and no header (Authorization) is ever logged.
    res.once('finish', () => this.opts.logger.debug(`${req.method} ${url.pathname} ${res.statusCode} ${Date.now() - started}ms ${requestId}`));
    try {
      this.store.refreshAccounts();
      if (url.pathname.startsWith('/oauth/')) {
        await this.oauth.handle(ctx, url);
        return;
      }
      if (!url.pathname.startsWith(API + '/') && url.pathname !== API) throw notFound(`No resource at ${url.pathname}.`);
      const { handler, params } = match(this.routes, url.pathname.slice(API.length), req.method ?? 'GET');
      await handler(ctx, params);
    } catch (e) {
      if (e instanceof HttpProblem) {
        sendProblem(ctx, e);
      } else {
        this.opts.logger.error(e instanceof Error ? e : String(e));
        sendProblem(ctx, new HttpProblem(500, 'INTERNAL', `Unexpected error (request ${requestId}).`));
      }
      // Do not leave an unread body behind on errors.
      req.resume();
    }
  }

  private buildRoutes(): Route[] {
    const db = '/databases/:owner/:db';
    return [
      route('/user', { GET: (c) => this.getUser(c) }),
      route('/databases', { POST: (c) => this.createDatabase(c) }),
      route(db, { GET: (c, p) => this.getDatabase(c, p) }),
      route(`${db}/sql`, { GET: (c, p) => this.sql(c, p, 'GET'), POST: (c, p) => this.sql(c, p, 'POST') }),
      route(`${db}/branches`, { GET: (c, p) => this.listBranches(c, p), POST: (c, p) => this.createBranch(c, p) }),
      route(`${db}/tags`, { GET: (c, p) => this.listTags(c, p), POST: (c, p) => this.createTag(c, p) }),
      route(`${db}/forks`, { GET: (c, p) => this.listForks(c, p), POST: (c, p) => this.createFork(c, p) }),
      route(`${db}/releases`, { GET: (c, p) => this.listReleases(c, p), POST: (c, p) => this.createRelease(c, p) }),
      route(`${db}/pulls`, { GET: (c, p) => this.listPulls(c, p), POST: (c, p) => this.createPull(c, p) }),
      route(`${db}/pulls/:n`, { GET: (c, p) => this.getPull(c, p), PATCH: (c, p) => this.updatePull(c, p) }),
      route(`${db}/pulls/:n/comments`, { GET: (c, p) => this.listComments(c, p), POST: (c, p) => this.addComment(c, p) }),
      route(`${db}/pulls/:n/merge`, { POST: (c, p) => this.mergePull(c, p) }),
      route(`${db}/imports/uploads`, { POST: (c, p) => this.imports.createUpload(c, p) }),
      route(`${db}/imports`, { POST: (c, p) => this.imports.createImport(c, p) }),
      route(`${db}/operations`, { GET: (c, p) => this.listOperations(c, p) }),
      route('/operations/*id', { GET: (c, p) => this.getOperation(c, p) }),
    ];
  }

  // ---------------------------------------------------------------- auth

  private caller(ctx: Ctx): Caller | undefined {
    const h = ctx.req.headers.authorization;
    if (h === undefined) return undefined;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
    if (!m) throw unauthenticated('The Authorization header must be "Bearer <token>".');
    const hash = hashToken(m[1] as string);
    const tok = this.store.state.tokens.find((t) => t.hash === hash);
    const user = tok ? this.store.state.users[tok.username] : undefined;
    if (!user) throw unauthenticated('The token is not valid (unknown or revoked).');
    return { user };
  }

  private requireCaller(ctx: Ctx): Caller {
    const c = this.caller(ctx);
    if (!c) throw unauthenticated();
    return c;
  }

  private roleIn(owner: string, username: string): 'owner' | 'writer' | 'reader' | undefined {
    if (owner === username && this.store.state.users[owner]) return 'owner';
    return this.store.state.orgs[owner]?.members[username];
  }

  private canRead(rec: DatabaseRecord, caller?: Caller): boolean {
    if (rec.visibility === 'public') return true;
    return caller !== undefined && this.roleIn(rec.owner, caller.user.username) !== undefined;
  }

  private canWrite(rec: DatabaseRecord, caller?: Caller): boolean {
    if (!caller) return false;
    const role = this.roleIn(rec.owner, caller.user.username);
    return role === 'owner' || role === 'writer';
  }

  /** May `username` create databases (or forks) under `owner`? */
  private canCreateUnder(owner: string, username: string): boolean {
    const role = this.roleIn(owner, username);
    return role === 'owner' || role === 'writer';
  }

  access(ctx: Ctx, p: Record<string, string>, need: 'read' | 'write' | 'auth-read'): Access {
    const caller = need === 'read' ? this.caller(ctx) : this.requireCaller(ctx);
    const owner = p['owner'] as string;
    const name = p['db'] as string;
    const key = dbKey(owner, name);
    const rec = this.store.state.databases[key];
    if (!rec || !this.canRead(rec, caller)) throw notFound(`Database ${key} was not found.`);
    if (need === 'write' && !this.canWrite(rec, caller)) throw forbidden(`You do not have write access to ${key}.`);
    return { rec, key, path: this.store.dbPath(owner, name), caller };
  }

  author(c: Caller): Author {
    return { name: c.user.username, email: c.user.email };
  }

  // ---------------------------------------------------------------- user

  private async getUser(ctx: Ctx): Promise<void> {
    const c = this.requireCaller(ctx);
    const u = c.user;
    const user: User = {
      username: u.username,
      display_name: u.display_name,
      bio: '',
      location: '',
      website_url: '',
      profile_pic_url: '',
      email_addresses: [{ address: u.email, is_primary: true, is_verified: true }],
    };
    sendData(ctx, 200, user);
  }

  // ---------------------------------------------------------------- databases

  private toDatabase(rec: DatabaseRecord): Database {
    const path = this.store.dbPath(rec.owner, rec.name);
    const root = rec.network_root ?? { owner: rec.owner, name: rec.name };
    const rootKey = dbKey(root.owner, root.name);
    let count = 0;
    for (const d of Object.values(this.store.state.databases)) {
      if (d.network_root && dbKey(d.network_root.owner, d.network_root.name) === rootKey) count++;
    }
    const db: Database = {
      owner: rec.owner,
      name: rec.name,
      visibility: rec.visibility,
      fork_network_count: count,
      star_count: rec.star_count,
      size_bytes: existsSync(path) ? statSync(path).size : 0,
    };
    if (rec.description) db.description = rec.description;
    if (rec.last_write_at) db.last_write_at = rec.last_write_at;
    if (rec.parent) db.parent = rec.parent;
    if (rec.network_root) db.network_root = rec.network_root;
    return db;
  }

  private async createDatabase(ctx: Ctx): Promise<void> {
    const c = this.requireCaller(ctx);
    const body = validateBody(await readJson(ctx.req), {
      owner: { type: 'string', required: true, check: checkName },
      name: { type: 'string', required: true, check: checkName },
      description: { type: 'string' },
      visibility: { type: 'string', required: true, enum: ['public', 'private'] },
    });
    const owner = body['owner'] as string;
    const name = body['name'] as string;
    if (!this.canCreateUnder(owner, c.user.username)) throw forbidden(`You cannot create databases under "${owner}".`);
    const key = dbKey(owner, name);
    const path = this.store.dbPath(owner, name);
    const rec = await this.engine.withLocks([key], async () => {
      if (this.store.state.databases[key]) throw conflict(`Database ${key} already exists.`);
      mkdirSync(dirname(path), { recursive: true });
      const w = await this.engine.write(key, path, this.author(c), { kind: 'create' });
      if (!w.ok) throw new HttpProblem(500, 'INTERNAL', w.message);
      const r: DatabaseRecord = {
        owner,
        name,
        visibility: body['visibility'] as 'public' | 'private',
        star_count: 0,
        created_at: now(),
        last_write_at: now(),
        next_pull_number: 1,
      };
      if (typeof body['description'] === 'string' && body['description'] !== '') r.description = body['description'];
      this.store.mutate((s) => (s.databases[key] = r));
      return r;
    });
    sendData(ctx, 201, this.toDatabase(rec));
  }

  private async getDatabase(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.access(ctx, p, 'read');
    sendData(ctx, 200, this.toDatabase(a.rec));
  }

  private touch(key: string): void {
    const r = this.store.state.databases[key];
    if (r) this.store.mutate(() => (r.last_write_at = now()));
  }

  // ---------------------------------------------------------------- sql

  private async sql(ctx: Ctx, p: Record<string, string>, method: 'GET' | 'POST'): Promise<void> {
    const a = this.access(ctx, p, 'read');
    let ref: string;
    let q: string;
    let limit: number | undefined;
    let timeoutMs: number | undefined;
    if (method === 'GET') {
      const u = new URL(ctx.req.url ?? '/', 'http://hub.invalid');
      for (const k of u.searchParams.keys()) {
        if (!['ref', 'q', 'limit', 'timeout_ms'].includes(k)) throw badRequest(`Unknown query parameter "${k}".`);
      }
      const r = u.searchParams.get('ref');
      const qq = u.searchParams.get('q');
      if (r === null || r === '') throw badRequest('Parameter "ref" is required.');
      if (qq === null || qq.trim() === '') throw badRequest('Parameter "q" is required.');
      ref = r;
      q = qq;
      limit = positiveIntParam('limit', u.searchParams.get('limit'));
      timeoutMs = positiveIntParam('timeout_ms', u.searchParams.get('timeout_ms'));
    } else {
      const body = validateBody(await readJson(ctx.req), {
        ref: { type: 'string', required: true, check: (v: string) => (v === '' ? 'must not be empty.' : undefined) },
        q: { type: 'string', required: true, check: (v: string) => (v.trim() === '' ? 'must not be empty.' : undefined) },
        limit: { type: 'integer', check: (v: number) => (v > 0 ? undefined : 'must be a positive integer.') },
        timeout_ms: { type: 'integer', check: (v: number) => (v > 0 ? undefined : 'must be a positive integer.') },
      });
      ref = body['ref'] as string;
      q = body['q'] as string;
      limit = body['limit'] as number | undefined;
      timeoutMs = body['timeout_ms'] as number | undefined;
    }
    const effLimit = Math.min(limit ?? DEFAULT_LIMIT, this.opts.maxRows);
    const effTimeout = Math.min(timeoutMs ?? DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);
    const rev = this.revision(ref);
    let result: QueryResult & { ref_not_found?: boolean };
    try {
      result = await this.engine.query(a.key, a.path, a.rec.name, rev, q, effLimit, effTimeout);
    } catch (e) {
      if (e instanceof EngineTimeoutError) {
        result = { columns: [], rows: [], status: 'timeout', message: `The query ran longer than ${effTimeout} ms and was stopped.` };
      } else {
        throw e;
      }
    }
    if (result.ref_not_found) throw notFound(`No branch, tag or commit named "${ref}" in ${a.key}.`);
    delete result.ref_not_found;
    if (result.message === '' || result.message === undefined) delete result.message;
    sendData(ctx, 200, result);
  }

  private revision(ref: string): Revision {
    if (isDoltHash(ref)) return { commitHex: doltHashToHex(ref) };
    if (ref.includes('@') || /[\x00-\x1f]/.test(ref)) throw badRequest('Parameter "ref" is not a valid branch, tag or commit.');
    return { ref };
  }

  // ---------------------------------------------------------------- branches & tags

  private async listBranches(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.access(ctx, p, 'read');
    const rows = await this.engine.branches(a.key, a.path);
    const all: Branch[] = rows.map((r) => {
      const b: Branch = { name: r.name, head_commit_sha: hexToDoltHash(r.hashHex) };
      const t = doltDateToIso(r.date);
      if (t) b.last_updated_at = t;
      return b;
    });
    const page = this.paginator.page(`branches:${a.key}`, all, pageToken(ctx));
    sendData(ctx, 200, page.items, page.next ? { next_page_token: page.next } : {});
  }

  async branchNames(a: Access): Promise<Set<string>> {
    return new Set((await this.engine.branches(a.key, a.path)).map((b) => b.name));
  }

  private fromSource(v: unknown): Revision {
    const from = validateBody(v, { branch: { type: 'string' }, commit: { type: 'string' } }, 'field "from"');
    const b = from['branch'];
    const c = from['commit'];
    if ((b === undefined) === (c === undefined)) throw badRequest('Field "from" must have exactly one of "branch" or "commit".');
    if (typeof c === 'string') {
      if (!isDoltHash(c)) throw badRequest('Field "from.commit" must be a 32-character commit hash (0-9a-v).');
      return { commitHex: doltHashToHex(c) };
    }
    if (typeof b !== 'string' || checkBranchName(b)) throw badRequest('Field "from.branch" is not a valid branch name.');
    return { branch: b };
  }

  private async createBranch(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.access(ctx, p, 'write');
    const body = validateBody(await readJson(ctx.req), {
      name: { type: 'string', required: true, check: checkBranchName },
      from: { type: 'object', required: true },
    });
    const from = this.fromSource(body['from']);
    const name = body['name'] as string;
    const branch = await this.engine.withLocks([a.key], async () => {
      const rows = await this.engine.branches(a.key, a.path);
      if (rows.some((r) => r.name === name)) throw conflict(`Branch "${name}" already exists.`);
      if ('branch' in from && !rows.some((r) => r.name === from.branch)) throw notFound(`Branch "${from.branch}" was not found.`);
      const w = await this.engine.write(a.key, a.path, this.author(a.caller as Caller), { kind: 'branch', name, from });
      if (!w.ok) throw w.code === 'NOT_FOUND' ? notFound('The source commit was not found.') : new HttpProblem(500, 'INTERNAL', w.message);
      const after = (await this.engine.branches(a.key, a.path)).find((r) => r.name === name);
      if (!after) throw new HttpProblem(500, 'INTERNAL', 'The branch was not created.');
      const out: Branch = { name, head_commit_sha: hexToDoltHash(after.hashHex) };
      const t = doltDateToIso(after.date);
      if (t) out.last_updated_at = t;
      return out;
    });
    this.touch(a.key);
    sendData(ctx, 201, branch);
  }

  private toTag(r: { name: string; hashHex: string; message: string; date: string }): Tag {
    const t: Tag = { name: r.name, commit_sha: hexToDoltHash(r.hashHex) };
    if (r.message !== '') t.message = r.message;
    const d = doltDateToIso(r.date);
    if (d) t.tagged_at = d;
    return t;
  }

  private async listTags(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.access(ctx, p, 'read');
    const all = (await this.engine.tags(a.key, a.path)).map((r) => this.toTag(r));
    const page = this.paginator.page(`tags:${a.key}`, all, pageToken(ctx));
    sendData(ctx, 200, page.items, page.next ? { next_page_token: page.next } : {});
  }

  private async createTag(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.access(ctx, p, 'write');
    const body = validateBody(await readJson(ctx.req), {
      name: { type: 'string', required: true, check: checkBranchName },
      from: { type: 'object', required: true },
      message: { type: 'string' },
    });
    const from = this.fromSource(body['from']);
    const name = body['name'] as string;
    const message = body['message'] as string | undefined;
    const tag = await this.engine.withLocks([a.key], async () => {
      if ((await this.engine.tags(a.key, a.path)).some((t) => t.name === name)) throw conflict(`Tag "${name}" already exists.`);
      if ('branch' in from && !(await this.branchNames(a)).has(from.branch)) throw notFound(`Branch "${from.branch}" was not found.`);
      const w = await this.engine.write(a.key, a.path, this.author(a.caller as Caller), { kind: 'tag', name, from, message });
      if (!w.ok) throw w.code === 'NOT_FOUND' ? notFound('The source commit was not found.') : new HttpProblem(500, 'INTERNAL', w.message);
      const after = (await this.engine.tags(a.key, a.path)).find((t) => t.name === name);
      if (!after) throw new HttpProblem(500, 'INTERNAL', 'The tag was not created.');
      return this.toTag(after);
    });
    this.touch(a.key);
    sendData(ctx, 201, tag);
  }

  // ---------------------------------------------------------------- releases

  private async listReleases(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.access(ctx, p, 'read');
    const all = this.store.state.releases
      .filter((r) => r.db === a.key)
      .sort((x, y) => y.created_at.localeCompare(x.created_at))
      .map(toRelease);
    const page = this.paginator.page(`releases:${a.key}`, all, pageToken(ctx));
    sendData(ctx, 200, page.items, page.next ? { next_page_token: page.next } : {});
  }

  private async createRelease(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.access(ctx, p, 'write');
    const body = validateBody(await readJson(ctx.req), {
      tag: { type: 'string', required: true, check: checkBranchName },
      title: { type: 'string', required: true, check: (v: string) => (v.trim() === '' ? 'must not be empty.' : undefined) },
      commit_sha: { type: 'string', required: true, check: (v: string) => (isDoltHash(v) ? undefined : 'must be a 32-character commit hash (0-9a-v).') },
      description: { type: 'string' },
      create_tag_if_not_exists: { type: 'boolean' },
    });
    const tagName = body['tag'] as string;
    const sha = body['commit_sha'] as string;
    const rel = await this.engine.withLocks([a.key], async () => {
      if (this.store.state.releases.some((r) => r.db === a.key && r.tag === tagName)) throw conflict(`A release with tag "${tagName}" already exists.`);
      const hex = doltHashToHex(sha);
      const resolved = await this.engine.resolve(a.key, a.path, { commitHex: hex });
      if (!resolved) throw notFound(`Commit ${sha} was not found in ${a.key}.`);
      const tag = (await this.engine.tags(a.key, a.path)).find((t) => t.name === tagName);
      if (tag) {
        if (tag.hashHex !== hex) throw conflict(`Tag "${tagName}" exists but points at ${hexToDoltHash(tag.hashHex)}, not ${sha}.`);
      } else if (body['create_tag_if_not_exists'] === true) {
        const w = await this.engine.write(a.key, a.path, this.author(a.caller as Caller), { kind: 'tag', name: tagName, from: { commitHex: hex } });
        if (!w.ok) throw new HttpProblem(500, 'INTERNAL', w.message);
      } else {
        throw notFound(`Tag "${tagName}" does not exist; create it first or set create_tag_if_not_exists.`);
      }
      const t = now();
      const r = { db: a.key, tag: tagName, title: body['title'] as string, commit_sha: sha, created_at: t, updated_at: t, ...(body['description'] ? { description: body['description'] as string } : {}) };
      this.store.mutate((s) => s.releases.push(r));
      return r;
    });
    sendData(ctx, 201, toRelease(rel));
  }

  // ---------------------------------------------------------------- forks

  private async listForks(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.access(ctx, p, 'read');
    const caller = a.caller;
    const forks: DatabaseRef[] = Object.values(this.store.state.databases)
      .filter((d) => d.parent && dbKey(d.parent.owner, d.parent.name) === a.key && this.canRead(d, caller))
      .map((d) => ({ owner: d.owner, name: d.name }));
    sendData(ctx, 200, forks);
  }

  private async createFork(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.access(ctx, p, 'auth-read');
    const c = a.caller as Caller;
    const body = validateBody(await readJson(ctx.req), { owner: { type: 'string', required: true, check: checkName } });
    const owner = body['owner'] as string;
    if (!this.canCreateUnder(owner, c.user.username)) throw forbidden(`You cannot fork into "${owner}": you do not own that namespace.`);
    const targetKey = dbKey(owner, a.rec.name);
    const existing = this.store.state.databases[targetKey];
    const pending = this.store.state.operations.some((o) => o.type === 'fork' && (o.status === 'queued' || o.status === 'running') && o.db === a.key && (o.result as { target?: string } | undefined)?.target === targetKey);
    if (targetKey === a.key) throw unprocessable(`${a.key} cannot be forked into its own namespace.`);
    if ((existing && existing.parent && dbKey(existing.parent.owner, existing.parent.name) === a.key) || pending) {
      throw unprocessable(`${a.key} is already forked into ${owner}.`);
    }
    if (existing) throw conflict(`${targetKey} already exists.`);
    const op = this.newOperation(a.key, 'fork', c);
    // The target is remembered so a second request while this one runs is refused too.
    op.result = { target: targetKey };
    this.store.save();
    this.runOperation(op, async () => {
      return this.engine.withLocks([targetKey], async () => {
        if (this.store.state.databases[targetKey]) throw new OpFailure(409, 'CONFLICT', 'Fork failed', `${targetKey} already exists.`);
        const src = this.store.dbPath(a.rec.owner, a.rec.name);
        const dst = this.store.dbPath(owner, a.rec.name);
        mkdirSync(dirname(dst), { recursive: true });
        // Writes replace files by rename, so the source file is always a complete database.
        const tmp = `${dst}.fork-${randomBytes(4).toString('hex')}.tmp`;
        copyFileSync(src, tmp);
        renameSync(tmp, dst);
        fsyncDir(dirname(dst));
        this.engine.invalidate(targetKey);
        const root = a.rec.network_root ?? { owner: a.rec.owner, name: a.rec.name };
        const rec: DatabaseRecord = {
          owner,
          name: a.rec.name,
          visibility: a.rec.visibility,
          star_count: 0,
          created_at: now(),
          last_write_at: now(),
          parent: { owner: a.rec.owner, name: a.rec.name },
          network_root: root,
          next_pull_number: 1,
        };
        if (a.rec.description) rec.description = a.rec.description;
        this.store.state.databases[targetKey] = rec;
        return { database: { owner, name: a.rec.name } };
      });
    });
    sendData(ctx, 202, this.operationRef(ctx, op));
  }

  // ---------------------------------------------------------------- pulls

  private findPull(a: Access, n: string): PullRecord {
    if (!/^[1-9][0-9]{0,9}$/.test(n)) throw badRequest('Parameter "pull_number" must be a positive integer.');
    const pull = this.store.state.pulls.find((x) => x.db === a.key && x.pull_number === Number(n));
    if (!pull) throw notFound(`Pull request #${n} was not found in ${a.key}.`);
    return pull;
  }

  private async listPulls(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.access(ctx, p, 'read');
    const all = this.store.state.pulls
      .filter((x) => x.db === a.key)
      .sort((x, y) => y.pull_number - x.pull_number)
      .map(toPullSummary);
    const page = this.paginator.page(`pulls:${a.key}`, all, pageToken(ctx));
    sendData(ctx, 200, page.items, page.next ? { next_page_token: page.next } : {});
  }

  private async getPull(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.access(ctx, p, 'read');
    sendData(ctx, 200, toPull(this.findPull(a, p['n'] as string)));
  }

  private branchRef(v: unknown, field: string): BranchRef {
    const o = validateBody(v, { database: { type: 'object', required: true }, branch_name: { type: 'string', required: true } }, `field "${field}"`);
    const d = validateBody(o['database'], { owner: { type: 'string', required: true }, name: { type: 'string', required: true } }, `field "${field}.database"`);
    const bn = o['branch_name'] as string;
    if (checkBranchName(bn)) throw badRequest(`Field "${field}.branch_name" is not a valid branch name.`);
    return { database: { owner: d['owner'] as string, name: d['name'] as string }, branch_name: bn };
  }

  private async createPull(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.access(ctx, p, 'auth-read');
    const c = a.caller as Caller;
    const body = validateBody(await readJson(ctx.req), {
      title: { type: 'string', required: true, check: (v: string) => (v.trim() === '' ? 'must not be empty.' : undefined) },
      description: { type: 'string' },
      from_branch: { type: 'object', required: true },
      to_branch: { type: 'object', required: true },
    });
    const from = this.branchRef(body['from_branch'], 'from_branch');
    const to = this.branchRef(body['to_branch'], 'to_branch');
    if (dbKey(to.database.owner, to.database.name) !== a.key) throw badRequest(`Field "to_branch.database" must be ${a.key}, the database in the URL.`);
    const fromKey = dbKey(from.database.owner, from.database.name);
    const fromRec = this.store.state.databases[fromKey];
    if (!fromRec || !this.canRead(fromRec, c)) throw notFound(`Database ${fromKey} (from_branch) was not found.`);
    if (fromKey !== a.key) {
      const rootOf = (r: DatabaseRecord): string => (r.network_root ? dbKey(r.network_root.owner, r.network_root.name) : dbKey(r.owner, r.name));
      if (rootOf(fromRec) !== rootOf(a.rec)) throw badRequest(`Field "from_branch.database": ${fromKey} is not in the fork network of ${a.key}.`);
    }
    if (fromKey === a.key && from.branch_name === to.branch_name) throw badRequest('Fields "from_branch" and "to_branch" must name different branches.');
    const fromPath = this.store.dbPath(fromRec.owner, fromRec.name);
    if (!(await this.engine.branches(fromKey, fromPath)).some((b) => b.name === from.branch_name)) throw notFound(`Branch "${from.branch_name}" was not found in ${fromKey}.`);
    if (!(await this.branchNames(a)).has(to.branch_name)) throw notFound(`Branch "${to.branch_name}" was not found in ${a.key}.`);
    const dup = this.store.state.pulls.find(
      (x) => x.db === a.key && x.state === 'open' && x.to_branch.branch_name === to.branch_name && x.from_branch.branch_name === from.branch_name && dbKey(x.from_branch.database.owner, x.from_branch.database.name) === fromKey,
    );
    if (dup) throw conflict(`Pull request #${dup.pull_number} is already open for these branches.`);
    const pull = this.addPull(a.key, c.user.username, body['title'] as string, (body['description'] as string | undefined) ?? '', from, to);
    sendData(ctx, 201, toPull(pull));
  }

  addPull(key: string, creator: string, title: string, description: string, from: BranchRef, to: BranchRef): PullRecord {
    return this.store.mutate((s) => {
      const rec = s.databases[key] as DatabaseRecord;
      const pull: PullRecord = {
        db: key,
        pull_number: rec.next_pull_number++,
        title,
        state: 'open',
        created_at: now(),
        creator,
        from_branch: from,
        to_branch: to,
      };
      if (description !== '') pull.description = description;
      s.pulls.push(pull);
      return pull;
    });
  }

  private async updatePull(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.access(ctx, p, 'auth-read');
    const c = a.caller as Caller;
    const pull = this.findPull(a, p['n'] as string);
    const body = validateBody(await readJson(ctx.req), {
      title: { type: 'string', check: (v: string) => (v.trim() === '' ? 'must not be empty.' : undefined) },
      description: { type: 'string' },
      state: { type: 'string' },
    });
    if (Object.keys(body).length === 0) throw badRequest('At least one of "title", "description" or "state" is required.');
    if (pull.creator !== c.user.username && !this.canWrite(a.rec, c)) throw forbidden('Only the author or a writer of the database can edit this pull request.');
    const state = body['state'] as string | undefined;
    if (state !== undefined) {
      if (state === 'merged') throw unprocessable('A pull request cannot be set to "merged"; merge it with the merge endpoint.');
      if (state !== 'open' && state !== 'closed') throw badRequest('Field "state" must be "open" or "closed".');
      if (pull.state === 'merged') throw conflict('This pull request is merged; its state can no longer change.');
    }
    this.store.mutate(() => {
      if (typeof body['title'] === 'string') pull.title = body['title'];
      if (typeof body['description'] === 'string') {
        if (body['description'] === '') delete pull.description;
        else pull.description = body['description'];
      }
      if (state === 'open' || state === 'closed') pull.state = state;
    });
    sendData(ctx, 200, toPull(pull));
  }

  private async listComments(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.access(ctx, p, 'read');
    const pull = this.findPull(a, p['n'] as string);
    const list: PullComment[] = this.store.state.comments
      .filter((x) => x.db === a.key && x.pull_number === pull.pull_number)
      .map(({ comment_id, author, body, created_at, updated_at }) => ({ comment_id, author, body, created_at, updated_at }));
    sendData(ctx, 200, list);
  }

  private async addComment(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.access(ctx, p, 'auth-read');
    const c = a.caller as Caller;
    const pull = this.findPull(a, p['n'] as string);
    const body = validateBody(await readJson(ctx.req), {
      body: { type: 'string', required: true, check: (v: string) => (v.trim() === '' ? 'must not be empty.' : undefined) },
    });
    const t = now();
    const comment: PullComment = { comment_id: randomBytes(9).toString('base64url'), author: c.user.username, body: body['body'] as string, created_at: t, updated_at: t };
    this.store.mutate((s) => s.comments.push({ db: a.key, pull_number: pull.pull_number, ...comment }));
    sendData(ctx, 201, comment);
  }

  private async mergePull(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.access(ctx, p, 'auth-read');
    const c = a.caller as Caller;
    const pull = this.findPull(a, p['n'] as string);
    // The body is an empty object (closed schema); an absent body means the same.
    const raw = await readBody(ctx.req, 64 * 1024);
    if (raw.length > 0) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.toString('utf8'));
      } catch (e) {
        throw badRequest(`The request body is not valid JSON: ${(e as Error).message}`);
      }
      validateBody(parsed, {});
    }
    if (!this.canWrite(a.rec, c)) throw forbidden(`You do not have write access to ${a.key}.`);
    if (pull.state !== 'open') throw conflict(`Pull request #${pull.pull_number} is ${pull.state}; only open pull requests can be merged.`);
    const busy = this.store.state.operations.some((o) => o.db === a.key && o.type === 'merge' && (o.status === 'queued' || o.status === 'running') && (o.result as { pull?: number } | undefined)?.pull === pull.pull_number);
    if (busy) throw conflict(`A merge of pull request #${pull.pull_number} is already running.`);
    const op = this.newOperation(a.key, 'merge', c);
    op.result = { pull: pull.pull_number };
    this.store.save();
    this.runOperation(op, async () => {
      const fromKey = dbKey(pull.from_branch.database.owner, pull.from_branch.database.name);
      const crossFork = fromKey !== a.key;
      return this.engine.withLocks([a.key], async () => {
        if (pull.state !== 'open') throw new OpFailure(409, 'CONFLICT', 'Merge refused', `Pull request #${pull.pull_number} is ${pull.state}.`);
        const fromFile = crossFork ? this.engine.file(fromKey, this.store.dbPath(pull.from_branch.database.owner, pull.from_branch.database.name)) : undefined;
        const w = await this.engine.write(a.key, a.path, this.author(c), {
          kind: 'merge',
          fromBranch: pull.from_branch.branch_name,
          fromFile,
          toBranch: pull.to_branch.branch_name,
          message: `Merge pull request #${pull.pull_number} from ${fromKey}:${pull.from_branch.branch_name}\n\n${pull.title}`,
        });
        if (!w.ok) {
          if (w.code === 'CONFLICT') throw new OpFailure(409, 'CONFLICT', 'Merge conflict', w.message);
          throw new OpFailure(422, 'UNPROCESSABLE', 'Merge failed', w.message);
        }
        this.store.state.databases[a.key]!.last_write_at = now();
        pull.state = 'merged';
        const out: OperationResult = { pull_id: pull.pull_number };
        if (w.commitHex) out.commit_sha = hexToDoltHash(w.commitHex);
        return out;
      });
    });
    sendData(ctx, 202, this.operationRef(ctx, op));
  }

  // ---------------------------------------------------------------- operations

  newOperation(key: string, type: Operation['type'], c: Caller): OperationRecord {
    const [owner, name] = key.split('/') as [string, string];
    return this.store.mutate((s) => {
      const t = now();
      const op: OperationRecord = { id: `owners/${owner}/repos/${name}/jobs/${s.next_job_id++}`, db: key, type, status: 'queued', created_at: t, updated_at: t, created_by: c.user.username };
      s.operations.push(op);
      return op;
    });
  }

  runOperation(op: OperationRecord, work: () => Promise<OperationResult>): void {
    const p = (async () => {
      await new Promise((r) => setImmediate(r));
      this.store.mutate(() => {
        op.status = 'running';
        op.updated_at = now();
      });
      try {
        const result = await work();
        this.store.mutate(() => {
          op.status = 'succeeded';
          op.result = result;
          op.updated_at = now();
        });
      } catch (e) {
        const error: OperationError = this.stopping
          ? { status: 500, code: 'OPERATION_FAILED', title: 'Operation interrupted', detail: 'The hub stopped before this operation finished; check the branch, then start it again.' }
          : e instanceof OpFailure
            ? { status: e.status, code: e.code, title: e.title, detail: e.message }
            : { status: 500, code: 'OPERATION_FAILED', title: 'Operation failed', detail: e instanceof Error ? e.message : String(e) };
        if (!(e instanceof OpFailure) && !this.stopping) this.opts.logger.error(e instanceof Error ? e : String(e));
        this.store.mutate(() => {
          op.status = 'failed';
          op.error = error;
          delete op.result;
          op.updated_at = now();
        });
      }
    })();
    this.running.add(p);
    void p.finally(() => this.running.delete(p));
  }

  operationRef(ctx: Ctx, op: OperationRecord): OperationRef {
    return { id: op.id, href: `${this.baseUrl(ctx)}${API}/operations/${op.id.split('/').map(encodeURIComponent).join('/')}` };
  }

  private baseUrl(ctx: Ctx): string {
    const host = ctx.req.headers.host;
    if (host && /^[A-Za-z0-9.\-[\]:]+$/.test(host)) return `http://${host}`;
    return this.url;
  }

  private toOperation(op: OperationRecord): Operation {
    const out: Operation = { id: op.id, type: op.type, status: op.status, created_at: op.created_at, cancelable: false };
    if (op.status === 'failed' && op.error) out.error = op.error;
    if (op.status === 'succeeded' && op.result) out.result = op.result;
    return out;
  }

  private async listOperations(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.access(ctx, p, 'read');
    const all = this.store.state.operations
      .filter((o) => o.db === a.key)
      .slice()
      .reverse()
      .map((o) => this.toOperation(o));
    const page = this.paginator.page(`operations:${a.key}`, all, pageToken(ctx));
    sendData(ctx, 200, page.items, page.next ? { next_page_token: page.next } : {});
  }

  private async getOperation(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const id = p['id'] as string;
    const op = this.store.state.operations.find((o) => o.id === id);
    const caller = this.caller(ctx);
    const rec = op ? this.store.state.databases[op.db] : undefined;
    if (!op) throw notFound(`Operation ${id} was not found.`);
    // A fork's source may be gone from view, but the record of the operation stays readable
    // to whoever can read the database it ran against.
    if (rec && !this.canRead(rec, caller)) throw notFound(`Operation ${id} was not found.`);
    sendData(ctx, 200, this.toOperation(op));
  }
}

function toRelease(r: { tag: string; title: string; commit_sha: string; description?: string; created_at: string; updated_at: string }): Release {
  const out: Release = { tag: r.tag, title: r.title, commit_sha: r.commit_sha, created_at: r.created_at, updated_at: r.updated_at };
  if (r.description) out.description = r.description;
  return out;
}

function toPullSummary(p: PullRecord): PullSummary {
  const s: PullSummary = { pull_number: p.pull_number, title: p.title, state: p.state, created_at: p.created_at, creator: p.creator };
  if (p.description) s.description = p.description;
  return s;
}

function toPull(p: PullRecord): Pull {
  return { ...toPullSummary(p), from_branch: p.from_branch, to_branch: p.to_branch };
}

function pageToken(ctx: Ctx): string | null {
  const u = new URL(ctx.req.url ?? '/', 'http://hub.invalid');
  const t = u.searchParams.get('page_token');
  return t === null || t === '' ? null : t;
}

/** DoltLite prints `YYYY-MM-DD HH:MM:SS` in UTC. */
export function doltDateToIso(d: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})/.exec(d);
  return m ? `${m[1]}T${m[2]}Z` : undefined;
}

function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: Server | undefined): Promise<void> {
  if (!server) return Promise.resolve();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
