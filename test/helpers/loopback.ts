import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

/** What a loopback server saw of one request: the raw path as it arrived, headers, body size. */
export interface SeenRequest {
  method: string;
  /** Exactly as on the request line (no normalisation). */
  rawPath: string;
  headers: IncomingMessage['headers'];
  /** Raw header list, to see repeated headers in order. */
  rawHeaders: string[];
}

export type LoopbackHandler = (req: IncomingMessage, res: ServerResponse, seen: SeenRequest) => void | Promise<void>;

export interface Loopback {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  requests: SeenRequest[];
  server: Server;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 with an ephemeral port, for what only the wire can show. */
export async function startLoopback(handler: LoopbackHandler): Promise<Loopback> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const seen: SeenRequest = { method: req.method ?? '', rawPath: req.url ?? '', headers: req.headers, rawHeaders: req.rawHeaders };
    requests.push(seen);
    Promise.resolve(handler(req, res, seen)).catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return { origin: `http://127.0.0.1:${port}`, requests, server, close };
}

/** Listens on 127.0.0.1 with an ephemeral port; `close` also drops kept-alive connections. */
export async function listenOnLoopback(server: Server | HttpsServer): Promise<{ port: number; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads a request body fully (small bodies only). */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
