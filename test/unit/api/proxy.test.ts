// Every API request and part upload goes through the proxy VS Code's settings (or the environment)
// name, over real HTTP through a real forwarding/CONNECT proxy: https targets in a CONNECT tunnel
// the proxy cannot read (no Authorization reaches it), http targets forwarded, `noProxy` hosts and
// the local hub (loopback) straight to the server.
import { strict as assert } from 'node:assert';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import {
  ApiError,
  HubClient,
  NO_PROXY,
  ProxyDispatcher,
  isLoopback,
  matchesNoProxy,
  proxyFor,
  type ProxySettings,
} from '../../../src/api/index';
import { describeError } from '../../../src/core/errorMessages';
import { readProxySettings } from '../../../src/platform/settings';
import { readBody, sendJson, startLoopback, type Loopback } from '../../helpers/loopback';
import { startHttpsLoopback, startProxy, TEST_TLS_HOST, type TestProxy } from '../../helpers/proxy';
import { RecordingLogger } from './fakes';

const TOKEN = 'pat_proxy_SECRET_token_77';
const user = { username: 'alice', email: 'alice@example.com' };

/** Resolves every `*.example.test` name to 127.0.0.1, so a request that bypasses the proxy still lands on a loopback server. */
type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
function exampleTestLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  if (hostname.endsWith('.example.test')) {
    if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
    return;
  }
  (dnsLookup as unknown as (h: string, o: LookupOptions, cb: LookupCallback) => void)(hostname, options, callback);
}

const settings = (proxy: string, extra: Partial<ProxySettings> = {}): ProxySettings => ({
  ...NO_PROXY,
  httpsProxy: proxy,
  httpProxy: proxy,
  ...extra,
});

describe('proxy routing (which requests go through the proxy)', () => {
  const s = settings('http://proxy.corp:3128', { noProxy: ['internal.corp', '.intra.example', 'db.example.com:8443'] });

  it('sends https and http targets through the proxy', () => {
    assert.equal(proxyFor('https://www.example.com/api/v2/user', s), 'http://proxy.corp:3128');
    assert.equal(proxyFor('http://www.example.com:8080/', s), 'http://proxy.corp:3128');
  });

  it('never proxies loopback: the local hub, localhost, 127.0.0.0/8, ::1', () => {
    for (const u of ['http://127.0.0.1:8787', 'http://localhost:9/', 'https://hub.localhost/', 'http://127.1.2.3/', 'http://[::1]:8787/']) {
      assert.equal(proxyFor(u, s), undefined, u);
    }
    assert.ok(!isLoopback('128.0.0.1'));
    assert.ok(!isLoopback('localhost.example.com'));
  });

  it('honours noProxy: a name and its subdomains, a leading dot, a port, and *', () => {
    assert.equal(proxyFor('https://internal.corp/', s), undefined);
    assert.equal(proxyFor('https://api.internal.corp/', s), undefined);
    assert.equal(proxyFor('https://notinternal.corp/', s), 'http://proxy.corp:3128', 'a suffix that is not a subdomain');
    assert.equal(proxyFor('https://a.intra.example/', s), undefined);
    assert.equal(proxyFor('https://db.example.com:8443/', s), undefined);
    assert.equal(proxyFor('https://db.example.com/', s), 'http://proxy.corp:3128', 'the entry names port 8443 only');
    assert.ok(matchesNoProxy('*', 'anything', 443));
    assert.ok(matchesNoProxy('*.Example.COM', 'www.example.com', 443));
    assert.ok(!matchesNoProxy('', 'www.example.com', 443));
  });

  it('uses the https proxy for https targets and the http proxy for http targets', () => {
    const split: ProxySettings = { ...NO_PROXY, httpsProxy: 'http://tls-proxy:1', httpProxy: 'http://plain-proxy:2' };
    assert.equal(proxyFor('https://x.example/', split), 'http://tls-proxy:1');
    assert.equal(proxyFor('http://x.example/', split), 'http://plain-proxy:2');
    assert.equal(proxyFor('https://x.example/', NO_PROXY), undefined);
  });
});

describe('proxy settings (VS Code settings, then the environment)', () => {
  const config = (values: Record<string, unknown>) => ({ get: <T>(key: string): T | undefined => values[key] as T | undefined });

  it('http.proxy applies to both schemes and wins over the environment; noProxy merges setting and NO_PROXY', () => {
    const p = readProxySettings(
      config({
        'http.proxy': ' http://corp:3128 ',
        'http.noProxy': ['git.corp'],
        'http.proxyStrictSSL': false,
        'http.proxyAuthorization': 'Basic abc',
      }),
      { HTTPS_PROXY: 'http://env:1', NO_PROXY: 'a.example, b.example' },
    );
    assert.deepEqual(p, {
      httpsProxy: 'http://corp:3128',
      httpProxy: 'http://corp:3128',
      noProxy: ['git.corp', 'a.example', 'b.example'],
      strictSSL: false,
      authorization: 'Basic abc',
    });
  });

  it('without http.proxy: HTTPS_PROXY for https (falling back to HTTP_PROXY), HTTP_PROXY for http, lower case first', () => {
    assert.deepEqual(
      [readProxySettings(config({}), { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:1', HTTP_PROXY: 'http://plain:2' })].map(
        (p) => [p.httpsProxy, p.httpProxy],
      ),
      [['http://lower:1', 'http://plain:2']],
    );
    const onlyHttp = readProxySettings(config({}), { HTTP_PROXY: 'http://plain:2' });
    assert.equal(onlyHttp.httpsProxy, 'http://plain:2');
    assert.equal(onlyHttp.strictSSL, true);
    assert.equal(readProxySettings(config({}), {}).httpsProxy, undefined);
  });

  it('http.proxySupport "off" turns the proxy off', () => {
    const p = readProxySettings(config({ 'http.proxy': 'http://corp:3128', 'http.proxySupport': 'off' }), { HTTPS_PROXY: 'http://env:1' });
    assert.equal(p.httpsProxy, undefined);
    assert.equal(p.httpProxy, undefined);
  });
});

describe('API requests through a real proxy', function () {
  this.timeout(15_000);
  let proxy: TestProxy | undefined;
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    await proxy?.close();
    proxy = undefined;
  });

  async function httpsApi(): Promise<{ port: number; authorizations: (string | undefined)[] }> {
    const authorizations: (string | undefined)[] = [];
    const api = await startHttpsLoopback((req, res) => {
      authorizations.push(req.headers.authorization);
      sendJson(res, 200, { data: user }, { 'x-request-id': 'req-https-1' });
    });
    closers.push(() => api.close());
    return { port: api.port, authorizations };
  }

  async function httpApi(): Promise<Loopback> {
    const api = await startLoopback((_req, res) => sendJson(res, 200, { data: user }));
    closers.push(() => api.close());
    return api;
  }

  function client(baseUrl: string, s: ProxySettings, logger = new RecordingLogger()): HubClient {
    const dispatcher = new ProxyDispatcher(s, { logger, agent: { connect: { lookup: exampleTestLookup } } });
    closers.push(() => dispatcher.close());
    return new HubClient({ baseUrl, token: TOKEN, dispatcher, logger, maxRetries: 0 });
  }

  it('https: a CONNECT tunnel to the host; the proxy never sees the token, the server does', async () => {
    const api = await httpsApi();
    proxy = await startProxy();
    // A TLS-inspecting corporate proxy is why people turn http.proxyStrictSSL off; here it lets the
    // test's self-signed certificate through.
    const me = await client(`https://${TEST_TLS_HOST}:${api.port}`, settings(proxy.url, { strictSSL: false })).getCurrentUser();
    assert.equal(me.username, 'alice');
    assert.deepEqual(
      proxy.seen.map((r) => [r.kind, r.target]),
      [['connect', `${TEST_TLS_HOST}:${api.port}`]],
    );
    assert.equal(proxy.seen[0]!.headers.authorization, undefined, 'the CONNECT request carries no Authorization');
    assert.ok(!proxy.tunnelledBytes().includes(TOKEN), 'the token crossed the proxy only inside TLS');
    assert.deepEqual(api.authorizations, [`Bearer ${TOKEN}`]);
  });

  it('https with http.proxyStrictSSL on: an untrusted certificate is refused, and the error names the proxy', async () => {
    const api = await httpsApi();
    proxy = await startProxy();
    const err = await client(`https://${TEST_TLS_HOST}:${api.port}`, settings(proxy.url))
      .getCurrentUser()
      .then(
        () => assert.fail('a self-signed certificate must not be accepted'),
        (e: unknown) => e,
      );
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 0);
    assert.equal(err.proxy, proxy.url);
    assert.deepEqual(api.authorizations, [], 'nothing reached the server');
    assert.match(describeError(err, { hostLabel: 'Work' })!.message, new RegExp(`through the proxy ${proxy.url}.*http\\.proxy`));
  });

  it('proxy authentication: http.proxyAuthorization goes to the proxy (CONNECT) and a refusal is an error naming the proxy', async () => {
    const api = await httpsApi();
    proxy = await startProxy({ requireAuthorization: 'Basic dXNlcjpwdw==' });
    const base = `https://${TEST_TLS_HOST}:${api.port}`;
    const ok = await client(base, settings(proxy.url, { strictSSL: false, authorization: 'Basic dXNlcjpwdw==' })).getCurrentUser();
    assert.equal(ok.username, 'alice');
    const refused = await client(base, settings(proxy.url, { strictSSL: false }))
      .getCurrentUser()
      .then(
        () => assert.fail('the proxy answered 407'),
        (e: unknown) => e as ApiError,
      );
    assert.equal(refused.code, 'NETWORK_ERROR');
    assert.match(refused.message, /through the proxy http:\/\/127\.0\.0\.1:\d+/);
    assert.ok(!refused.message.includes('dXNlcjpwdw'), 'proxy credentials are not in the message');
  });

  it('http: forwarded in absolute form (as curl does), with a warning in the log that it is unencrypted', async () => {
    const api = await httpApi();
    proxy = await startProxy({ route: () => ({ host: '127.0.0.1', port: Number(new URL(api.origin).port) }) });
    const logger = new RecordingLogger();
    const me = await client('http://svc.example.test:8080', settings(proxy.url), logger).getCurrentUser();
    assert.equal(me.username, 'alice');
    assert.deepEqual(
      proxy.seen.map((r) => [r.kind, r.method, r.target]),
      [['forward', 'GET', 'http://svc.example.test:8080/api/v2/user']],
    );
    assert.equal(api.requests.length, 1);
    assert.ok(
      logger.lines.some((l) => /warn.*svc\.example\.test:8080.*unencrypted/.test(l)),
      logger.lines.join('\n'),
    );
    assert.ok(!logger.lines.some((l) => l.includes(TOKEN)));
  });

  it('a proxy setting that is not an http(s) URL fails the proxied requests with a clear message, and only those', async () => {
    const api = await httpApi();
    for (const [proxyUrl, problem] of [
      ['proxy.corp 3128', /is not a URL/],
      ['ftp://proxy.corp', /only http:\/\/ and https:\/\/ proxies/],
    ] as const) {
      const err = await client('https://api.example.test', settings(proxyUrl))
        .getCurrentUser()
        .then(
          () => assert.fail('an unusable proxy cannot carry the request'),
          (e: unknown) => e as ApiError,
        );
      assert.equal(err.code, 'NETWORK_ERROR');
      assert.match(err.message, problem);
      assert.equal((await client(api.origin, settings(proxyUrl)).getCurrentUser()).username, 'alice', 'the local hub still answers');
    }
  });

  it('noProxy hosts and the local hub go straight to the server', async () => {
    const api = await httpApi();
    const port = Number(new URL(api.origin).port);
    proxy = await startProxy();
    const s = settings(proxy.url, { noProxy: ['example.test'] });
    assert.equal((await client(`http://svc.example.test:${port}`, s).getCurrentUser()).username, 'alice');
    assert.equal((await client(api.origin, settings(proxy.url)).getCurrentUser()).username, 'alice');
    assert.equal((await client(`http://localhost:${port}`, settings(proxy.url)).getCurrentUser()).username, 'alice');
    assert.deepEqual(proxy.seen, [], 'the proxy saw none of them');
    assert.equal(api.requests.length, 3);
  });

  it('import part uploads to pre-signed storage URLs go through the proxy too, without Authorization', async () => {
    const storage = await startLoopback(async (req, res) => {
      await readBody(req);
      res.writeHead(200, { etag: '"e1"' });
      res.end();
    });
    closers.push(() => storage.close());
    const hub = await startLoopback(async (req, res) => {
      await readBody(req);
      sendJson(res, 200, {
        data: {
          token: 'upload-token',
          contents_key: 'k',
          http_method: 'PUT',
          parts: [{ part_number: 1, url: `http://storage.example.test:9000/bucket/part-1?X-Sig=SIGNATURE` }],
        },
      });
    });
    closers.push(() => hub.close());
    const ports: Record<string, number> = {
      'api.example.test': Number(new URL(hub.origin).port),
      'storage.example.test': Number(new URL(storage.origin).port),
    };
    proxy = await startProxy({ route: (host) => ({ host: '127.0.0.1', port: ports[host]! }) });
    const result = await client('http://api.example.test:8080', settings(proxy.url)).uploadImport({
      db: { owner: 'acme', name: 'inv' },
      file: new TextEncoder().encode('id,name\n1,a\n'),
      fileType: 'csv',
    });
    assert.deepEqual(result.completed_parts, [{ part_number: 1, etag: '"e1"' }]);
    const put = proxy.seen.find((r) => r.method === 'PUT');
    assert.equal(put?.target, 'http://storage.example.test:9000/bucket/part-1?X-Sig=SIGNATURE');
    assert.equal(put?.headers.authorization, undefined, 'no token on a part upload');
    assert.equal(storage.requests.length, 1);
  });
});
