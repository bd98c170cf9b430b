// Oversized request lines and headers get a Problem like every other refusal. Node's parser
// accepts up to MAX_HEAD_BYTES, so a URL past MAX_URL_BYTES (414) or headers past
// MAX_HEADER_BYTES (431) are refused by the hub with a Problem on a connection that stays
// usable. Past MAX_HEAD_BYTES the parser itself fails; the hub then answers a 431 Problem and
// closes the connection, since the parser cannot find where the next request starts.
import type { IncomingMessage, Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import { HttpProblem, newRequestId, problemBody } from './http';

export const MAX_URL_BYTES = 32 * 1024;
export const MAX_HEADER_BYTES = 32 * 1024;
export const MAX_HEAD_BYTES = 256 * 1024;

export const SERVER_OPTIONS: ServerOptions = { maxHeaderSize: MAX_HEAD_BYTES };

/** A 414 or 431 Problem for a request whose URL or headers pass the hub's limits. */
export function checkRequestHead(req: IncomingMessage): HttpProblem | undefined {
  const url = req.url ?? '';
  if (url.length > MAX_URL_BYTES) {
    return new HttpProblem(
      414,
      'VALIDATION_FAILED',
      `The URL is ${url.length} bytes; the hub takes at most ${MAX_URL_BYTES}. Send long SQL with POST /sql.`,
    );
  }
  let size = 0;
  for (let i = 0; i < req.rawHeaders.length; i++) size += (req.rawHeaders[i] as string).length + 2;
  if (size > MAX_HEADER_BYTES) {
    return new HttpProblem(431, 'VALIDATION_FAILED', `The request headers are ${size} bytes; the hub takes at most ${MAX_HEADER_BYTES}.`);
  }
  return undefined;
}

/** Answers requests Node's parser refuses (oversized head, malformed HTTP) with a Problem. */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || (err as { code?: string }).code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const detail = tooLarge
      ? `The request line and headers are larger than ${MAX_HEAD_BYTES} bytes.`
      : 'The request is not valid HTTP/1.1.';
    const requestId = newRequestId();
    const text = JSON.stringify(problemBody(status, 'VALIDATION_FAILED', detail, '', requestId));
    const reason = tooLarge ? 'Request Header Fields Too Large' : 'Bad Request';
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
        `X-Request-Id: ${requestId}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${text}`,
    );
  });
}
