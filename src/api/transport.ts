import { getGlobalDispatcher, type Dispatcher } from 'undici';
import type { Logger } from '../core/logger';
import type { Envelope } from '../shared/wire';
import { ApiError, ClientErrorCodes, RefusedUrlError } from './errors';
import { proxyDescriptionOf } from './proxy';
import { excerptOf, redactText, redactUrl } from './redact';
import {
  errorCode,
  errorFromBody,
  formatBytes,
  headerValue,
  isRetryableNetworkError,
  isTimeout,
  parseEnvelope,
  parseRetryAfter,
  readLimited,
  TooLargeError,
} from './responses';
import { abortReason, jitter, type Timing } from './timing';
import * as l10n from '../shared/l10n';

/** A token, or a function asked before every request (so sign-out takes effect at once). */
export type TokenSource = string | (() => string | undefined | Promise<string | undefined>);

export interface TransportConfig {
  baseUrl: string;
  token: TokenSource | undefined;
  userAgent: string;
  dispatcher: Dispatcher | undefined;
  logger: Logger;
  timing: Timing;
  timeoutMs: number;
  maxResponseBytes: number;
  maxRetries: number;
  maxRetryAfterMs: number;
}

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Escaped path under `/api/v2` (with its query string), e.g. `/databases/a/b/branches?page_token=x`. */
  path?: string;
  /** Instead of `path`: an absolute URL that must be on the configured origin (operation hrefs). */
  url?: string;
  body?: unknown;
  signal?: AbortSignal | undefined;
  timeoutMs?: number;
  /** List endpoints: `data` must be an array, else the answer is malformed. */
  expectArray?: boolean;
  /** A POST that only reads (the SQL endpoint's large-query form) is retried like a GET. */
  idempotent?: boolean;
}

/** Responses kept in memory are capped; 64 MiB is far above any page or 1000-row result. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;

const RETRYABLE_STATUS = new Set([429, 503]);

/** What one attempt ended with: the answer, or an error and whether a retry may help. */
type AttemptOutcome =
  { kind: 'done'; envelope: Envelope<never>; requestId: string | undefined } | { kind: 'error'; error: ApiError; retryable: boolean };

/** One attempt as its log line names it. */
interface Attempt {
  method: string;
  path: string;
  /** The path with secrets in its query redacted. */
  logPath: string;
  started: number;
}

/**
 * One HTTP exchange with the API: auth (configured origin only), timeouts, bounded retries for
 * GET and idempotent POSTs (429/503 after Retry-After, network failures with backoff), size limits, envelope unwrapping, Problem → ApiError, and one debug line per attempt.
 */
export class Transport {
  readonly origin: string;
  /** Path of `/api/v2` under the site root, e.g. `/api/v2` or `/prefix/api/v2`. */
  readonly apiPrefix: string;
  readonly dispatcher: Dispatcher;
  readonly logger: Logger;
  readonly timing: Timing;
  private readonly config: TransportConfig;
  /** Token strings seen so far, scrubbed from anything that is logged or thrown. */
  private readonly knownSecrets = new Set<string>();

  constructor(config: TransportConfig) {
    let site: URL;
    try {
      site = new URL(config.baseUrl);
    } catch {
      throw new TypeError(`Not a valid site URL: ${JSON.stringify(config.baseUrl)}`);
    }
    if (site.protocol !== 'http:' && site.protocol !== 'https:') {
      throw new TypeError(`The site URL must use http or https: ${JSON.stringify(config.baseUrl)}`);
    }
    if (site.username || site.password) {
      throw new TypeError('The site URL must not contain credentials; sign in instead.');
    }
    this.config = config;
    this.origin = site.origin;
    this.apiPrefix = `${site.pathname.replace(/\/+$/, '')}/api/v2`;
    this.dispatcher = config.dispatcher ?? getGlobalDispatcher();
    this.logger = config.logger;
    this.timing = config.timing;
    if (typeof config.token === 'string') this.knownSecrets.add(config.token);
  }

  get defaultTimeoutMs(): number {
    return this.config.timeoutMs;
  }

  get secrets(): string[] {
    return [...this.knownSecrets];
  }

  /** Resolves the absolute path for a request, refusing URLs off the configured origin. */
  resolvePath(req: Pick<ApiRequest, 'path' | 'url'>): string {
    if (req.url !== undefined) {
      const u = checkSameOrigin(req.url, this.origin);
      return u.pathname + u.search;
    }
    return this.apiPrefix + (req.path ?? '');
  }

  async request<T>(req: ApiRequest): Promise<Envelope<T>> {
    return (await this.exchange<T>(req)).envelope;
  }

  /** Like `request`, with the `X-Request-Id` of the answer (operation polls keep it for support). */
  async exchange<T>(req: ApiRequest): Promise<{ envelope: Envelope<T>; requestId: string | undefined }> {
    const path = this.resolvePath(req);
    const signal = req.signal;
    const retryable = req.method === 'GET' || req.idempotent === true;
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw abortReason(signal);
      const outcome = await this.attempt(
        req.method,
        path,
        req.body,
        signal,
        req.timeoutMs ?? this.config.timeoutMs,
        req.expectArray ?? false,
      );
      if (outcome.kind === 'done') return { envelope: outcome.envelope as Envelope<T>, requestId: outcome.requestId };
      const err = outcome.error;
      const canRetry = retryable && attempt < this.config.maxRetries && outcome.retryable;
      if (!canRetry) throw err;
      let delay = jitter(1000 * 2 ** attempt, 0.2, () => this.timing.random());
      if (err.retryAfterMs !== undefined) {
        if (err.retryAfterMs > this.config.maxRetryAfterMs) throw err;
        delay = err.retryAfterMs;
      }
      this.logger.debug(`${req.method} ${redactUrl(path)} retry ${attempt + 1}/${this.config.maxRetries} in ${delay}ms (${err.code})`);
      await this.timing.sleep(delay, signal);
    }
  }

  private async token(): Promise<string | undefined> {
    const t = this.config.token;
    const value = typeof t === 'function' ? await t() : t;
    if (value && !this.knownSecrets.has(value)) {
      this.knownSecrets.add(value);
      // Refreshed OAuth tokens would grow the set forever; the newest few are what can leak.
      if (this.knownSecrets.size > 8) this.knownSecrets.delete(this.knownSecrets.values().next().value as string);
    }
    return value || undefined;
  }

  private async attempt(
    method: string,
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
    timeoutMs: number,
    expectArray: boolean,
  ): Promise<AttemptOutcome> {
    const at: Attempt = { method, path, logPath: redactUrl(path), started: this.timing.now() };
    const { headers, payload } = await this.requestHeaders(body);
    // The deadline is undici's own: headers within timeoutMs, then no silence in the body longer
    // than timeoutMs. (A timer and AbortController per request cost ~10% on loopback; see bench/.)
    let res: Dispatcher.ResponseData;
    try {
      res = await this.dispatcher.request({
        origin: this.origin,
        path,
        method: method as Dispatcher.HttpMethod,
        headers,
        body: payload ?? null,
        signal: signal ?? null,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (err) {
      if (signal?.aborted) throw abortReason(signal);
      return this.failed(at, this.transportError(err, method, path), isRetryableNetworkError(err));
    }
    const status = res.statusCode;
    const requestId = headerValue(res.headers, 'x-request-id');
    const retryAfterMs = parseRetryAfter(headerValue(res.headers, 'retry-after'), Date.now());
    let text: string;
    try {
      text = await readLimited(res, this.config.maxResponseBytes);
    } catch (err) {
      if (signal?.aborted) throw abortReason(signal);
      if (err instanceof TooLargeError) return this.failed(at, this.tooLargeError(at, status, requestId), false);
      return this.failed(at, this.transportError(err, method, path), isRetryableNetworkError(err));
    }
    if (status >= 200 && status < 300) return this.answered(at, { status, text, requestId, expectArray });
    const error = errorFromBody(status, text, { method, path, requestId, retryAfterMs, secrets: this.secrets });
    return this.failed(at, error, RETRYABLE_STATUS.has(status));
  }

  /** Headers of one attempt: the token (asked anew each time; the origin is the configured one) and the JSON body. */
  private async requestHeaders(body: unknown): Promise<{ headers: Record<string, string>; payload: string | undefined }> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.config.userAgent,
    };
    const token = await this.token();
    // Every request here goes to the configured origin (resolvePath guarantees it).
    if (token) headers['authorization'] = `Bearer ${token}`;
    if (body === undefined) return { headers, payload: undefined };
    headers['content-type'] = 'application/json';
    return { headers, payload: JSON.stringify(body) };
  }

  /** A 2xx answer: its envelope, or a malformed-response error when it has none (or no list where one is due). */
  private answered(at: Attempt, a: { status: number; text: string; requestId: string | undefined; expectArray: boolean }): AttemptOutcome {
    const envelope = parseEnvelope(a.text);
    if (!envelope || (a.expectArray && !Array.isArray(envelope.data))) {
      const error = new ApiError({
        status: a.status,
        code: ClientErrorCodes.malformedResponse,
        title: envelope
          ? l10n.t('The server answered a list request without a list in `data`')
          : l10n.t('The server answered without an API envelope (no `data`)'),
        method: at.method,
        path: at.path,
        isProblem: false,
        excerpt: excerptOf(a.text, this.secrets),
        ...(a.requestId ? { requestId: a.requestId } : {}),
      });
      return this.failed(at, error, false);
    }
    this.logger.debug(
      `${at.method} ${at.logPath} ${a.status} ${Math.round(this.timing.now() - at.started)}ms` +
        (a.requestId ? ` request-id=${a.requestId}` : ''),
    );
    return { kind: 'done', envelope: envelope as Envelope<never>, requestId: a.requestId };
  }

  /** Logs the failed attempt (one debug line, as for a success) and says whether a retry may help. */
  private failed(at: Attempt, error: ApiError, retryable: boolean): AttemptOutcome {
    this.logger.debug(
      `${at.method} ${at.logPath} ${error.status || error.code} ${Math.round(this.timing.now() - at.started)}ms` +
        (error.requestId ? ` request-id=${error.requestId}` : ''),
    );
    return { kind: 'error', error, retryable };
  }

  private tooLargeError(at: Attempt, status: number, requestId: string | undefined): ApiError {
    return new ApiError({
      status,
      code: ClientErrorCodes.responseTooLarge,
      title: l10n.t('The response is larger than the {0} limit', formatBytes(this.config.maxResponseBytes)),
      method: at.method,
      path: at.path,
      isProblem: false,
      ...(requestId ? { requestId } : {}),
    });
  }

  private transportError(err: unknown, method: string, path: string): ApiError {
    // Failures through a proxy name it: the proxy, not the host, is then the first suspect.
    const proxy = proxyDescriptionOf(this.dispatcher, this.origin);
    const via = proxy ? { proxy } : {};
    if (isTimeout(err)) {
      return new ApiError({
        status: 0,
        code: ClientErrorCodes.timeout,
        title: l10n.t('The server did not answer in time'),
        method,
        path,
        isProblem: false,
        ...via,
        cause: err,
      });
    }
    const code = errorCode(err);
    const msg = err instanceof Error ? redactText(err.message, this.secrets) : String(err);
    return new ApiError({
      status: 0,
      code: ClientErrorCodes.network,
      title: proxy ? l10n.t('Could not reach {0} through the proxy {1}', this.origin, proxy) : l10n.t('Could not reach {0}', this.origin),
      ...via,
      detail: code ? `${code}: ${msg}` : msg,
      method,
      path,
      isProblem: false,
      cause: err,
    });
  }
}

/** Parses `url` and checks it is on `origin`; throws RefusedUrlError before anything is sent. */
export function checkSameOrigin(url: string, origin: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new RefusedUrlError(`Refusing to follow an invalid URL: ${JSON.stringify(redactUrl(url))}`, url);
  }
  if (u.origin !== origin) {
    throw new RefusedUrlError(
      `Refusing to follow ${u.origin}: it is not the configured site ${origin}, and it would receive your credentials.`,
      url,
    );
  }
  return u;
}
