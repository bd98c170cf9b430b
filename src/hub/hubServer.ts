// The local hub: API v2 over DoltLite. Owns the two listeners (API + part uploads), the store,
// the engine, authorization and the operations runner. Each resource's endpoints live in
// routes/ (databases, versioning, pulls, sql, operations, users); imports in importEndpoints.ts,
// OAuth in oauth.ts.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BranchRef, Operation, OperationError, OperationRef, OperationResult } from '../shared/wire';
import { Engine } from './engine';
import { EngineBusyError, EngineShutDownError, EngineUnavailableError } from './engineErrors';
import { ImportEndpoints, STORAGE_PATH } from './importEndpoints';
import { BodyBudget, DEFAULT_BODY_MEMORY_BYTES, countBodies } from './bodyBudget';
import { API, OpFailure, now } from './hubCommon';
import type { Access, Caller, EndpointHost, HubOptions } from './hubCommon';
import type { Author } from './engineProtocol';
import { Store, dbKey } from './store';
import type { DatabaseRecord, OperationRecord, PullRecord } from './store';
import { HttpProblem, forbidden, newRequestId, notFound, quoted, sendProblem, unauthenticated } from './http';
import type { Ctx } from './http';
import { match } from './router';
import { SERVER_OPTIONS, answerClientErrors, checkRequestHead } from './requestLimits';
import type { Route } from './router';
import { Paginator } from './pagination';
import { hashToken } from './credentials';
import { OAuthService, extensionClient } from './oauth';
import { UserEndpoints } from './routes/users';
import { DatabaseEndpoints } from './routes/databases';
import { SqlEndpoint } from './routes/sql';
import { VersioningEndpoints } from './routes/versioning';
import { PullEndpoints } from './routes/pulls';
import { OperationEndpoints } from './routes/operations';

export type { HubOptions } from './hubCommon';

export class HubServer implements EndpointHost {
  readonly store: Store;
  readonly engine: Engine;
  readonly paginator: Paginator;
  private readonly oauth: OAuthService;
  private api?: Server;
  private uploads?: Server;
  private readonly routes: Route[];
  private readonly imports: ImportEndpoints;
  private readonly pulls: PullEndpoints;
  private readonly running = new Set<Promise<void>>();
  /** Responses not yet sent, on either listener: stop() answers them before it closes connections. */
  private readonly unanswered = new Set<ServerResponse>();
  private onAnswered?: () => void;
  /** stop() has begun: new requests are answered 503. */
  private closing = false;
  /** The engine is being closed: failed operations are recorded as interrupted. */
  private stopping = false;
  /** Requests answered 503 because the hub was stopping, for stop()'s one log line. */
  private refusedAtStop = 0;
  url = '';
  uploadUrl = '';
  /** Request bodies held at once, in all (bodyBudget.ts). */
  readonly bodies: BodyBudget;

  constructor(readonly opts: HubOptions) {
    mkdirSync(opts.dataDir, { recursive: true });
    this.store = new Store(opts.dataDir);
    this.bodies = new BodyBudget(opts.bodyMemoryBytes ?? DEFAULT_BODY_MEMORY_BYTES);
    this.recoverInterruptedOperations();
    this.dropStaleUploads();
    this.engine = new Engine({ ...opts.engine, workerScript: opts.workerScript, workerExecArgv: opts.workerExecArgv, logger: opts.logger });
    this.paginator = new Paginator(this.store.state.secret, opts.pageSize);
    this.oauth = new OAuthService(this.store);
    // The extension's client is always registered with its current redirect URIs.
    const client = extensionClient();
    if (JSON.stringify(this.store.state.oauth_clients[client.client_id]) !== JSON.stringify(client)) {
      this.store.mutateAccounts((s) => (s.oauth_clients[client.client_id] = client));
    }
    this.imports = new ImportEndpoints(this);
    this.pulls = new PullEndpoints(this);
    this.routes = this.buildRoutes();
  }

  async start(): Promise<void> {
    // Say "listening" only once queries can run.
    await this.engine.ready();
    this.api = createServer(SERVER_OPTIONS, (req, res) => this.track(res, () => this.dispatch(req, res)));
    this.uploads = createServer(SERVER_OPTIONS, (req, res) => this.track(res, () => this.imports.dispatchUpload(req, res)));
    answerClientErrors(this.api);
    answerClientErrors(this.uploads);
    await listen(this.api, this.opts.port, this.opts.host);
    await listen(this.uploads, this.opts.uploadPort ?? 0, this.opts.host);
    this.url = `http://${hostForUrl(this.opts.host)}:${(this.api.address() as AddressInfo).port}`;
    this.uploadUrl = `http://${hostForUrl(this.opts.host)}:${(this.uploads.address() as AddressInfo).port}`;
    this.imports.startSweeping();
  }

  /**
   * Stops listening, lets running operations finish for a moment (longer ones are cut off and
   * recorded as failed), then closes the engine: every request still queued or running in it is
   * answered 503 (EngineShutDownError), and so is any request that arrives meanwhile on an open
   * connection. Connections close once their answers are sent, or after a short grace.
   */
  async stop(): Promise<void> {
    this.imports.stopSweeping();
    this.closing = true;
    const closed = Promise.all([stopListening(this.api), stopListening(this.uploads)]);
    await withinMs(Promise.allSettled([...this.running]), 3000);
    this.stopping = true;
    await this.engine.close();
    await Promise.allSettled([...this.running]);
    // Requests outside the engine (a body still arriving, a part upload) get a short grace.
    await withinMs(this.answered(), 2000);
    this.api?.closeAllConnections();
    this.uploads?.closeAllConnections();
    await closed;
    if (this.refusedAtStop > 0)
      this.opts.logger.info(`Stopped: ${this.refusedAtStop} request(s) in flight were answered 503 (the hub was shutting down).`);
  }

  /** Runs a listener's handler, and keeps its response in `unanswered` until it is sent or its connection closes. */
  private track(res: ServerResponse, handle: () => Promise<void>): void {
    this.unanswered.add(res);
    const done = (): void => {
      if (!this.unanswered.delete(res)) return;
      if (this.unanswered.size === 0) this.onAnswered?.();
    };
    res.once('finish', done);
    res.once('close', done);
    void handle();
  }

  /** Resolves when every response received so far has been sent (or its connection closed). */
  private answered(): Promise<void> {
    if (this.unanswered.size === 0) return Promise.resolve();
    return new Promise((resolve) => (this.onAnswered = resolve));
  }

  /** Work cut off by a crash or kill cannot be resumed: report it as failed. */
  private recoverInterruptedOperations(): void {
    let changed = false;
    for (const op of this.store.state.operations) {
      if (op.status === 'queued' || op.status === 'running') {
        op.status = 'failed';
        op.updated_at = now();
        op.error = {
          status: 500,
          code: 'OPERATION_FAILED',
          title: 'Operation interrupted',
          detail: 'The hub stopped before this operation finished; check the branch, then start it again.',
        };
        changed = true;
      }
    }
    if (changed) this.store.save();
  }

  /** Upload sessions that expired or were imported leave nothing behind after a restart. */
  private dropStaleUploads(): void {
    const stale = Object.entries(this.store.state.uploads).filter(
      ([, u]) => u.consumed || Date.parse(u.expires_at) < (this.opts.clock ?? Date.now)(),
    );
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
    countBodies(req, res, this.bodies);
    const started = Date.now();
    // Path only: query strings may carry SQL, and no header (Authorization) is ever logged.
    res.once('finish', () =>
      this.opts.logger.debug(`${req.method} ${url.pathname} ${res.statusCode} ${Date.now() - started}ms ${requestId}`),
    );
    try {
      const oversized = checkRequestHead(req);
      if (oversized) throw oversized;
      if (this.closing) throw new EngineShutDownError();
      this.store.refreshAccounts();
      if (url.pathname.startsWith('/oauth/')) {
        await this.oauth.handle(ctx, url);
        return;
      }
      if (url.pathname.startsWith(STORAGE_PATH + '/')) {
        // Part PUTs through --public-url (one origin behind a proxy): the storage listener's handler.
        await this.imports.dispatchUpload(req, res, STORAGE_PATH);
        return;
      }
      if (!url.pathname.startsWith(API + '/') && url.pathname !== API) throw notFound(`No resource at ${quoted(url.pathname, 200)}.`);
      const { handler, params } = match(this.routes, url.pathname.slice(API.length), req.method ?? 'GET');
      await handler(ctx, params);
    } catch (e) {
      if (e instanceof EngineShutDownError) this.refusedAtStop++;
      const problem = e instanceof HttpProblem ? e : engineProblem(e);
      if (problem) {
        sendProblem(ctx, problem);
      } else {
        this.opts.logger.error(e instanceof Error ? e : String(e));
        sendProblem(ctx, new HttpProblem(500, 'INTERNAL', `Unexpected error (request ${requestId}).`));
      }
      // Do not leave an unread body behind on errors.
      req.resume();
    }
  }

  private buildRoutes(): Route[] {
    return [
      ...new UserEndpoints(this).routes(),
      ...new DatabaseEndpoints(this).routes(),
      ...new SqlEndpoint(this).routes(),
      ...new VersioningEndpoints(this).routes(),
      ...this.pulls.routes(),
      ...this.imports.routes(),
      ...new OperationEndpoints(this).routes(),
    ];
  }

  // ---------------------------------------------------------------- auth

  caller(ctx: Ctx): Caller | undefined {
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

  requireCaller(ctx: Ctx): Caller {
    const c = this.caller(ctx);
    if (!c) throw unauthenticated();
    return c;
  }

  private roleIn(owner: string, username: string): 'owner' | 'writer' | 'reader' | undefined {
    // Own properties only: a user or org named "constructor" must not find Object.prototype's.
    const { users, orgs } = this.store.state;
    if (owner === username && Object.hasOwn(users, owner)) return 'owner';
    const org = Object.hasOwn(orgs, owner) ? orgs[owner] : undefined;
    return org && Object.hasOwn(org.members, username) ? org.members[username] : undefined;
  }

  canRead(rec: DatabaseRecord, caller?: Caller): boolean {
    if (rec.visibility === 'public') return true;
    return caller !== undefined && this.roleIn(rec.owner, caller.user.username) !== undefined;
  }

  canWrite(rec: DatabaseRecord, caller?: Caller): boolean {
    if (!caller) return false;
    const role = this.roleIn(rec.owner, caller.user.username);
    return role === 'owner' || role === 'writer';
  }

  /** May `username` create databases (or forks) under `owner`? */
  canCreateUnder(owner: string, username: string): boolean {
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

  // ---------------------------------------------------------------- shared with endpoint modules

  touch(key: string): void {
    const r = this.store.state.databases[key];
    if (r) this.store.mutate(() => (r.last_write_at = now()));
  }

  async branchNames(a: Access): Promise<Set<string>> {
    return new Set((await this.engine.branches(a.key, a.path)).map((b) => b.name));
  }

  addPull(key: string, creator: string, title: string, description: string, from: BranchRef, to: BranchRef): PullRecord {
    return this.pulls.addPull(key, creator, title, description, from, to);
  }

  // ---------------------------------------------------------------- operations

  newOperation(key: string, type: Operation['type'], c: Caller): OperationRecord {
    const [owner, name] = key.split('/') as [string, string];
    return this.store.mutate((s) => {
      const t = now();
      const op: OperationRecord = {
        id: `owners/${owner}/repos/${name}/jobs/${s.next_job_id++}`,
        db: key,
        type,
        status: 'queued',
        created_at: t,
        updated_at: t,
        created_by: c.user.username,
      };
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
          ? {
              status: 500,
              code: 'OPERATION_FAILED',
              title: 'Operation interrupted',
              detail: 'The hub stopped before this operation finished; check the branch, then start it again.',
            }
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

  /**
   * From configuration only (--public-url, else the listening address): never from the request's
   * Host or X-Forwarded-* headers, which the client (or anyone in between) chooses.
   */
  operationRef(_ctx: Ctx, op: OperationRecord): OperationRef {
    const base = (this.opts.publicUrl ?? this.url).replace(/\/+$/, '');
    return { id: op.id, href: `${base}${API}/operations/${op.id.split('/').map(encodeURIComponent).join('/')}` };
  }
}

/**
 * The engine's refusals as Problems: a caller past its share (429), a worker that died (503), the
 * hub stopping (503, and the connection closes: this process will not answer again).
 */
function engineProblem(e: unknown): HttpProblem | undefined {
  if (e instanceof EngineBusyError) return new HttpProblem(429, 'RATE_LIMITED', e.message, { 'Retry-After': String(e.retryAfterSeconds) });
  if (e instanceof EngineUnavailableError) return new HttpProblem(503, 'SERVICE_UNAVAILABLE', e.message, { 'Retry-After': '1' });
  if (e instanceof EngineShutDownError) return new HttpProblem(503, 'SERVICE_UNAVAILABLE', e.message, { Connection: 'close' });
  return undefined;
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

/** Stops accepting connections and closes idle ones; resolves once every connection has closed. */
function stopListening(server: Server | undefined): Promise<void> {
  if (!server?.listening) return Promise.resolve();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

/** Waits for `p`, or `ms` at most. */
async function withinMs(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p, new Promise((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}
