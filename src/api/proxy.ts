import { Agent, Dispatcher, ProxyAgent } from 'undici';
import type { Logger } from '../core/logger';

/**
 * Where API and upload requests go: VS Code's `http.proxy`, `http.noProxy`, `http.proxyStrictSSL`
 * and `http.proxyAuthorization`, or else the HTTPS_PROXY / HTTP_PROXY / NO_PROXY environment.
 * Resolved once into the settings snapshot (src/platform/settings.ts).
 */
export interface ProxySettings {
  /** Proxy for `https:` targets (`http.proxy`, else HTTPS_PROXY, else HTTP_PROXY). */
  readonly httpsProxy: string | undefined;
  /** Proxy for `http:` targets (`http.proxy`, else HTTP_PROXY). */
  readonly httpProxy: string | undefined;
  /** Hosts reached directly: `example.com` (and its subdomains), `.example.com`, `*.example.com`, `host:port`, `*`. */
  readonly noProxy: readonly string[];
  /** False: certificates are not checked on connections that go through the proxy (TLS-inspecting proxies). */
  readonly strictSSL: boolean;
  /** Sent as `Proxy-Authorization` to the proxy only; credentials in the proxy URL are used otherwise. */
  readonly authorization: string | undefined;
}

export const NO_PROXY: ProxySettings = {
  httpsProxy: undefined,
  httpProxy: undefined,
  noProxy: [],
  strictSSL: true,
  authorization: undefined,
};

/** The proxy a request to `target` goes through, or undefined when it goes direct. */
export function proxyFor(target: string | URL, settings: ProxySettings): string | undefined {
  let url: URL;
  try {
    url = typeof target === 'string' ? new URL(target) : target;
  } catch {
    return undefined;
  }
  const proxy = url.protocol === 'https:' ? settings.httpsProxy : url.protocol === 'http:' ? settings.httpProxy : undefined;
  if (!proxy) return undefined;
  const host = url.hostname.toLowerCase();
  // The built-in hub (and anything else on this machine) is never behind a proxy: a proxy cannot
  // reach this machine's loopback interface, and it has no business seeing the local hub's token.
  if (isLoopback(host)) return undefined;
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  if (settings.noProxy.some((entry) => matchesNoProxy(entry, host, port))) return undefined;
  return proxy;
}

/** localhost, *.localhost, 127.0.0.0/8 and ::1 (URL.hostname keeps IPv6 brackets). */
export function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(h) || h === '[::1]' || h === '::1';
}

/**
 * One `noProxy` / NO_PROXY entry against a host, the way curl and undici read them: a leading
 * `.` or `*.` is dropped, a name matches itself and its subdomains, `:port` limits it to that
 * port, `*` matches everything. Not supported: CIDR ranges (an IP entry matches that IP only).
 */
export function matchesNoProxy(entry: string, hostname: string, port: number): boolean {
  const e = entry.trim().toLowerCase();
  if (!e) return false;
  if (e === '*') return true;
  // `host:8080` and `[::1]:8080` carry a port; a bare `[::1]` does not.
  const withPort = /^(.+):(\d+)$/.exec(e);
  const name = (withPort ? withPort[1]! : e).replace(/^\*?\./, '').replace(/\.$/, '');
  if (withPort && Number(withPort[2]) !== port) return false;
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === name || host.endsWith(`.${name}`);
}

/** `http://user:secret@proxy:3128` → `http://proxy:3128/`, for log lines and messages. */
export function describeProxy(proxy: string): string {
  try {
    return new URL(proxy).origin;
  } catch {
    return '(an invalid proxy URL)';
  }
}

/** Checks a proxy URL up front, so a typo in `http.proxy` is one clear message, not a failure per request. */
export function checkProxyUrl(proxy: string): string | undefined {
  let u: URL;
  try {
    u = new URL(proxy);
  } catch {
    return `The proxy ${JSON.stringify(proxy)} is not a URL (expected e.g. http://proxy.example.com:3128).`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    return `The proxy ${describeProxy(proxy)} uses ${u.protocol}; only http:// and https:// proxies are supported.`;
  }
  return undefined;
}

export interface ProxyDispatcherOptions {
  logger?: Logger;
  /** Options for every connection (tests point DNS lookups at loopback with `connect.lookup`). */
  agent?: Agent.Options;
}

/**
 * The dispatcher every API client and part upload uses: per request origin, straight to the
 * server (loopback, `noProxy`, no proxy configured) or through the proxy.
 *
 * Through the proxy, `https:` targets use a CONNECT tunnel: the proxy learns only host and port,
 * never the Authorization header or anything else inside TLS. `http:` targets are forwarded in
 * absolute form (`GET http://host/path`), as curl and browsers do and as proxies that allow
 * CONNECT only to port 443 require: the proxy sees those requests, token included, exactly as
 * every other hop on a plain-http path does. Use https for a host that is reached through a proxy.
 */
export class ProxyDispatcher extends Dispatcher {
  private readonly direct: Agent;
  private readonly proxies = new Map<string, ProxyAgent>();
  private readonly warnedPlainHttp = new Set<string>();

  constructor(
    readonly settings: ProxySettings,
    private readonly options: ProxyDispatcherOptions = {},
  ) {
    super();
    this.direct = new Agent(options.agent);
  }

  /** The proxy a request to `origin` goes through (credentials removed), or undefined. For messages. */
  proxyDescriptionFor(origin: string): string | undefined {
    const proxy = proxyFor(origin, this.settings);
    return proxy === undefined ? undefined : describeProxy(proxy);
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const origin = String(options.origin ?? '');
    const proxy = proxyFor(origin, this.settings);
    if (proxy === undefined) return this.direct.dispatch(options, handler);
    if (origin.startsWith('http:') && !this.warnedPlainHttp.has(origin)) {
      this.warnedPlainHttp.add(origin);
      this.options.logger?.warn(
        `requests to ${origin} go through the proxy ${describeProxy(proxy)} unencrypted (the host is http://, not https://)`,
      );
    }
    return this.agentFor(proxy).dispatch(options, handler);
  }

  private agentFor(proxy: string): ProxyAgent {
    let agent = this.proxies.get(proxy);
    if (!agent) {
      // Checked here, not up front: a typo in http.proxy fails only the requests that would use
      // the proxy (with this message), never the local hub or noProxy hosts.
      const problem = checkProxyUrl(proxy);
      if (problem) throw new TypeError(problem);
      const tls = this.settings.strictSSL ? {} : { rejectUnauthorized: false };
      agent = new ProxyAgent({
        ...this.options.agent,
        uri: proxy,
        ...(this.settings.authorization ? { token: this.settings.authorization } : {}),
        // CONNECT only for https targets; plain-http targets are forwarded (see the class comment).
        proxyTunnel: false,
        requestTls: tls,
        proxyTls: tls,
      });
      this.proxies.set(proxy, agent);
      this.options.logger?.debug(
        `proxy ${describeProxy(proxy)} in use${this.settings.strictSSL ? '' : ' (certificates not checked: http.proxyStrictSSL is off)'}`,
      );
    }
    return agent;
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const done = Promise.all([this.direct.close(), ...[...this.proxies.values()].map((a) => a.close())]).then(() => undefined);
    if (callback) {
      void done.then(callback, callback);
      return;
    }
    return done;
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(a?: Error | null | (() => void), b?: () => void): Promise<void> | void {
    const err = typeof a === 'function' ? null : (a ?? null);
    const callback = typeof a === 'function' ? a : b;
    const done = Promise.all([this.direct.destroy(err), ...[...this.proxies.values()].map((p) => p.destroy(err))]).then(() => undefined);
    if (callback) {
      void done.then(callback, callback);
      return;
    }
    return done;
  }
}

/** The proxy `dispatcher` sends requests for `origin` through, if it is a ProxyDispatcher (duck-typed: no `instanceof` across bundles). */
export function proxyDescriptionOf(dispatcher: unknown, origin: string): string | undefined {
  const d = dispatcher as { proxyDescriptionFor?: unknown };
  return typeof d?.proxyDescriptionFor === 'function' ? (d.proxyDescriptionFor as (o: string) => string | undefined)(origin) : undefined;
}
