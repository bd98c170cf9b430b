import type { Dispatcher } from 'undici';
import { silentLogger, type Logger } from '../core/logger';
import type {
  Branch,
  CreateBranchBody,
  CreateDatabaseBody,
  CreateForkBody,
  CreateImportBody,
  CreateImportUploadBody,
  CreatePullBody,
  CreatePullCommentBody,
  CreateReleaseBody,
  CreateTagBody,
  Database,
  DatabaseRef,
  ImportUpload,
  Operation,
  OperationRef,
  Pull,
  PullComment,
  PullSummary,
  QueryResult,
  Release,
  SqlQueryBody,
  Tag,
  UpdatePullBody,
  User,
} from '../shared/wire';
import type { DbRef, RequestOptions } from './dbRef';
import { pollOperation, type WaitForOperationOptions } from './operations';
import { toPage, type Page, type PageOptions } from './pagination';
import { joinSegments, queryString } from './paths';
import { realTiming, type Timing } from './timing';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, Transport, type TokenSource } from './transport';
import { uploadImportParts, type UploadImportOptions, type UploadImportResult } from './uploads';

export interface HubClientOptions {
  /** The site root, e.g. `https://www.example.com`; the client appends `/api/v2`. */
  baseUrl: string;
  /** A token, or a function asked before each request; none means no Authorization header. */
  token?: TokenSource;
  userAgent?: string;
  /** undici dispatcher: the extension passes a `ProxyDispatcher` (proxy settings), tests a MockAgent; default: undici's global one. */
  dispatcher?: Dispatcher;
  logger?: Logger;
  /** Deadline of one API request attempt; default 30 s (runSql extends it past its SQL timeout). */
  timeoutMs?: number;
  /** Largest response body kept in memory; default 64 MiB. */
  maxResponseBytes?: number;
  /** Retries of a GET after 429, 503 or a connection reset; default 3. */
  maxRetries?: number;
  /** A `Retry-After` longer than this is not waited for; the error is thrown instead. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Clock, sleep and randomness; tests inject a fake one. */
  timing?: Timing;
}

export interface RunSqlOptions {
  /** Branch, tag or commit hash. */
  ref: string;
  /** Read-only SQL. */
  q: string;
  limit?: number;
  timeoutMs?: number;
}

/** A GET whose URL would pass this many characters is sent as POST instead (proxies cut at 4–8 KB). */
export const MAX_GET_URL_LENGTH = 4096;
export const DEFAULT_USER_AGENT = 'versioned-db-vscode';

/**
 * The API v2 client: one method per endpoint, wire types in and out, `ApiError` on failure.
 * Every method takes a last optional `{ signal }`.
 */
export class HubClient {
  readonly baseUrl: string;
  private readonly transport: Transport;

  constructor(options: HubClientOptions) {
    this.baseUrl = options.baseUrl;
    this.transport = new Transport({
      baseUrl: options.baseUrl,
      token: options.token,
      userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
      dispatcher: options.dispatcher,
      logger: options.logger ?? silentLogger,
      timing: options.timing ?? realTiming,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      maxRetries: options.maxRetries ?? 3,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
    });
  }

  /** The origin requests go to (and the only one that receives the token). */
  get origin(): string {
    return this.transport.origin;
  }

  // --- user -------------------------------------------------------------------------------

  async getCurrentUser(opts?: RequestOptions): Promise<User> {
    return this.get<User>(['user'], {}, opts);
  }

  // --- databases --------------------------------------------------------------------------

  async createDatabase(body: CreateDatabaseBody, opts?: RequestOptions): Promise<Database> {
    return this.send<Database>('POST', ['databases'], body, opts);
  }

  async getDatabase(db: DbRef, opts?: RequestOptions): Promise<Database> {
    return this.get<Database>(dbPath(db), {}, opts);
  }

  // --- branches, tags, forks, releases ----------------------------------------------------

  async listBranches(db: DbRef, page?: PageOptions, opts?: RequestOptions): Promise<Page<Branch>> {
    return this.list<Branch>([...dbPath(db), 'branches'], page, opts);
  }

  async createBranch(db: DbRef, body: CreateBranchBody, opts?: RequestOptions): Promise<Branch> {
    return this.send<Branch>('POST', [...dbPath(db), 'branches'], body, opts);
  }

  async listTags(db: DbRef, page?: PageOptions, opts?: RequestOptions): Promise<Page<Tag>> {
    return this.list<Tag>([...dbPath(db), 'tags'], page, opts);
  }

  async createTag(db: DbRef, body: CreateTagBody, opts?: RequestOptions): Promise<Tag> {
    return this.send<Tag>('POST', [...dbPath(db), 'tags'], body, opts);
  }

  /** Immediate forks only; not paginated. */
  async listForks(db: DbRef, opts?: RequestOptions): Promise<DatabaseRef[]> {
    return this.get<DatabaseRef[]>([...dbPath(db), 'forks'], {}, opts, true);
  }

  /** Starts a fork into `body.owner`; poll the returned ref with `waitForOperation`. */
  async createFork(db: DbRef, body: CreateForkBody, opts?: RequestOptions): Promise<OperationRef> {
    return this.send<OperationRef>('POST', [...dbPath(db), 'forks'], body, opts);
  }

  async listReleases(db: DbRef, page?: PageOptions, opts?: RequestOptions): Promise<Page<Release>> {
    return this.list<Release>([...dbPath(db), 'releases'], page, opts);
  }

  async createRelease(db: DbRef, body: CreateReleaseBody, opts?: RequestOptions): Promise<Release> {
    return this.send<Release>('POST', [...dbPath(db), 'releases'], body, opts);
  }

  // --- SQL --------------------------------------------------------------------------------

  /**
   * Runs read-only SQL. Sent as GET, or as POST when the URL would pass about 4 KB.
   * A `status` other than `success` (error, timeout, row_limit, ...) is returned, not thrown.
   */
  async runSql(db: DbRef, query: RunSqlOptions, opts?: RequestOptions): Promise<QueryResult> {
    const path = [...dbPath(db), 'sql'];
    // The request must outlive the server's own SQL deadline, or a slow query reads as a network failure.
    const timeoutMs = Math.max(this.transport.defaultTimeoutMs, (query.timeoutMs ?? 30_000) + 15_000);
    const qs = queryString({ ref: query.ref, q: query.q, limit: query.limit, timeout_ms: query.timeoutMs });
    const getPath = joinSegments(path) + qs;
    const urlLength = this.transport.origin.length + this.transport.apiPrefix.length + getPath.length;
    if (urlLength <= MAX_GET_URL_LENGTH) {
      const env = await this.transport.request<QueryResult>({ method: 'GET', path: getPath, signal: opts?.signal, timeoutMs });
      return env.data;
    }
    const body: SqlQueryBody = { ref: query.ref, q: query.q };
    if (query.limit !== undefined) body.limit = query.limit;
    if (query.timeoutMs !== undefined) body.timeout_ms = query.timeoutMs;
    const env = await this.transport.request<QueryResult>({
      method: 'POST',
      path: joinSegments(path),
      body,
      signal: opts?.signal,
      timeoutMs,
      // The SQL endpoint only reads: a 429 or 503 is waited out and sent again, as for GET.
      idempotent: true,
    });
    return env.data;
  }

  // --- pull requests ----------------------------------------------------------------------

  async listPulls(db: DbRef, page?: PageOptions, opts?: RequestOptions): Promise<Page<PullSummary>> {
    return this.list<PullSummary>([...dbPath(db), 'pulls'], page, opts);
  }

  async createPull(db: DbRef, body: CreatePullBody, opts?: RequestOptions): Promise<Pull> {
    return this.send<Pull>('POST', [...dbPath(db), 'pulls'], body, opts);
  }

  async getPull(db: DbRef, pullNumber: number | string, opts?: RequestOptions): Promise<Pull> {
    return this.get<Pull>(pullPath(db, pullNumber), {}, opts);
  }

  /** Changes title, description or state (`open`/`closed` only; merging is `mergePull`). */
  async updatePull(db: DbRef, pullNumber: number | string, patch: UpdatePullBody, opts?: RequestOptions): Promise<Pull> {
    return this.send<Pull>('PATCH', pullPath(db, pullNumber), patch, opts);
  }

  /** Top-level comments in backend order; not paginated. */
  async listPullComments(db: DbRef, pullNumber: number | string, opts?: RequestOptions): Promise<PullComment[]> {
    return this.get<PullComment[]>([...pullPath(db, pullNumber), 'comments'], {}, opts, true);
  }

  async createPullComment(
    db: DbRef,
    pullNumber: number | string,
    body: CreatePullCommentBody,
    opts?: RequestOptions,
  ): Promise<PullComment> {
    return this.send<PullComment>('POST', [...pullPath(db, pullNumber), 'comments'], { body: body.body }, opts);
  }

  /** Starts the merge (202 + OperationRef of type `merge`); poll it with `waitForOperation`. */
  async mergePull(db: DbRef, pullNumber: number | string, opts?: RequestOptions): Promise<OperationRef> {
    // The merge body schema is closed: exactly an empty object.
    return this.send<OperationRef>('POST', [...pullPath(db, pullNumber), 'merge'], {}, opts);
  }

  // --- imports ----------------------------------------------------------------------------

  async createImportUpload(db: DbRef, body: CreateImportUploadBody, opts?: RequestOptions): Promise<ImportUpload> {
    return this.send<ImportUpload>('POST', [...dbPath(db), 'imports', 'uploads'], body, opts);
  }

  /** Import step 3; `body` usually spreads an `uploadImport` result. Returns the `import` operation. */
  async createImport(db: DbRef, body: CreateImportBody, opts?: RequestOptions): Promise<OperationRef> {
    return this.send<OperationRef>('POST', [...dbPath(db), 'imports'], body, opts);
  }

  /**
   * Import steps 1–2: creates the upload session and sends the file's parts. Spread the result
   * into `createImport` with the branch, table, file name, operation and primary keys.
   */
  async uploadImport(options: UploadImportOptions): Promise<UploadImportResult> {
    return uploadImportParts(
      this.transport,
      (body, signal) => this.createImportUpload(options.db, body, signal ? { signal } : undefined),
      options,
    );
  }

  // --- operations -------------------------------------------------------------------------

  async listOperations(db: DbRef, page?: PageOptions, opts?: RequestOptions): Promise<Page<Operation>> {
    return this.list<Operation>([...dbPath(db), 'operations'], page, opts);
  }

  /** Polls one operation by id; the id (which holds slashes) travels as ONE escaped segment. */
  async getOperation(id: string, opts?: RequestOptions): Promise<Operation> {
    return this.get<Operation>(['operations', id], {}, opts);
  }

  /**
   * Polls `ref.href` (1 s doubling to 10 s, ±20%) until the operation succeeds (resolves) or
   * fails (`OperationFailedError`). An href off the configured origin is refused before any request.
   */
  async waitForOperation(ref: OperationRef, options?: WaitForOperationOptions): Promise<Operation> {
    return pollOperation(this.transport, ref, options);
  }

  // --- plumbing ---------------------------------------------------------------------------

  private async get<T>(
    segments: string[],
    query: Record<string, string | undefined>,
    opts: RequestOptions | undefined,
    expectArray = false,
  ): Promise<T> {
    const env = await this.transport.request<T>({
      method: 'GET',
      path: joinSegments(segments) + queryString(query),
      signal: opts?.signal,
      expectArray,
    });
    return env.data;
  }

  private async send<T>(method: 'POST' | 'PATCH', segments: string[], body: unknown, opts: RequestOptions | undefined): Promise<T> {
    const env = await this.transport.request<T>({ method, path: joinSegments(segments), body, signal: opts?.signal });
    return env.data;
  }

  private async list<T>(segments: string[], page: PageOptions | undefined, opts: RequestOptions | undefined): Promise<Page<T>> {
    const env = await this.transport.request<T[]>({
      method: 'GET',
      path: joinSegments(segments) + queryString({ page_token: page?.pageToken || undefined }),
      signal: opts?.signal ?? page?.signal,
      expectArray: true,
    });
    return toPage(env);
  }
}

function dbPath(db: DbRef): string[] {
  return ['databases', db.owner, db.name];
}

function pullPath(db: DbRef, pullNumber: number | string): string[] {
  return [...dbPath(db), 'pulls', String(pullNumber)];
}

/** Function form of `client.waitForOperation(ref, options)`. */
export function waitForOperation(client: HubClient, ref: OperationRef, options?: WaitForOperationOptions): Promise<Operation> {
  return client.waitForOperation(ref, options);
}

/** Function form of `client.uploadImport(options)`. */
export function uploadImport(client: HubClient, options: UploadImportOptions): Promise<UploadImportResult> {
  return client.uploadImport(options);
}
