import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import { listenOnLoopback } from './loopback';

/** What the proxy was asked to do: a CONNECT tunnel (https targets) or a forwarded request (http targets). */
export interface ProxiedRequest {
  kind: 'connect' | 'forward';
  method: string;
  /** `host:port` for CONNECT, the absolute URL for a forwarded request. */
  target: string;
  headers: IncomingHttpHeaders;
}

export interface TestProxy {
  /** `http://127.0.0.1:PORT` */
  url: string;
  seen: ProxiedRequest[];
  /** Every byte the client sent into CONNECT tunnels (to check nothing readable went through). */
  tunnelledBytes(): Buffer;
  close(): Promise<void>;
}

export interface TestProxyOptions {
  /** Answer 407 unless the request carries exactly this Proxy-Authorization. */
  requireAuthorization?: string;
  /**
   * Where the proxy connects for a target host and port. Default: 127.0.0.1 and the same port,
   * so tests name hosts the client could not resolve itself (`api.example.test`) and only the
   * proxy reaches them.
   */
  route?: (host: string, port: number) => { host: string; port: number };
}

/**
 * A small forwarding + CONNECT proxy on 127.0.0.1, like a corporate proxy: plain-http requests
 * arrive in absolute form and are forwarded; https targets get a CONNECT tunnel.
 */
export async function startProxy(options: TestProxyOptions = {}): Promise<TestProxy> {
  const seen: ProxiedRequest[] = [];
  const tunnelled: Buffer[] = [];
  const sockets = new Set<Socket>();
  const route = options.route ?? ((_host: string, port: number) => ({ host: '127.0.0.1', port }));
  const authorized = (headers: IncomingHttpHeaders): boolean =>
    options.requireAuthorization === undefined || headers['proxy-authorization'] === options.requireAuthorization;

  const server: Server = createServer((req, res) => {
    seen.push({ kind: 'forward', method: req.method ?? '', target: req.url ?? '', headers: req.headers });
    if (!authorized(req.headers)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' });
      res.end();
      return;
    }
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400);
      res.end('absolute-form request expected');
      return;
    }
    const to = route(target.hostname, Number(target.port) || 80);
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest(
      { host: to.host, port: to.port, method: req.method, path: target.pathname + target.search, headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502);
      res.end('bad gateway');
    });
    req.pipe(upstream);
  });

  server.on('connect', (req, client: Socket, head: Buffer) => {
    seen.push({ kind: 'connect', method: 'CONNECT', target: req.url ?? '', headers: req.headers });
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (!authorized(req.headers)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n');
      return;
    }
    const m = /^(.+):(\d+)$/.exec(req.url ?? '');
    if (!m) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const to = route(m[1]!, Number(m[2]));
    const upstream = connect(to.port, to.host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) {
        tunnelled.push(head);
        upstream.write(head);
      }
      client.on('data', (chunk: Buffer) => tunnelled.push(chunk));
      client.pipe(upstream);
      upstream.pipe(client);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    tunnelledBytes: () => Buffer.concat(tunnelled),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The host name of the test-only self-signed certificate in test/helpers/tls/. */
export const TEST_TLS_HOST = 'api.example.test';

/** Read on first use, so a bundled suite that only needs the proxy does not look for the files. */
function testTls(): { cert: Buffer; key: Buffer } {
  return {
    cert: readFileSync(join(__dirname, 'tls', `${TEST_TLS_HOST}.crt`)),
    key: readFileSync(join(__dirname, 'tls', `${TEST_TLS_HOST}.key`)),
  };
}

/** An https server on 127.0.0.1 presenting the `api.example.test` certificate (self-signed). */
export async function startHttpsLoopback(handler: RequestListener): Promise<{ port: number; server: HttpsServer; close(): Promise<void> }> {
  const server = createHttpsServer(testTls(), handler);
  return { ...(await listenOnLoopback(server)), server };
}
