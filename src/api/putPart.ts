// Import step 2 for one part: the bytes to their pre-signed storage URL, retried as the service's
// own CLI does. Never with Authorization or cookies, and never following a redirect.
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { UploadError } from './errors';
import { excerptOf } from './redact';
import { errorCode, headerValue, parseRetryAfter } from './responses';
import { abortReason, TimeoutController } from './timing';
import type { Transport } from './transport';
import type { ProgressTracker } from './uploadProgress';

export const PART_ATTEMPTS = 4;
/** Delay before attempt 2, 3, 4 of a part. */
export const PART_RETRY_DELAYS_MS = [1000, 2000, 4000] as const;

export interface PartRequest {
  url: string;
  partNumber: number;
  totalParts: number;
  method: string;
  headers: string[];
  bytes: Uint8Array;
  signal: AbortSignal;
  timeoutMs: number;
}

const RETRYABLE_PART_STATUS = new Set([429, 500, 502, 503, 504]);
/** A storage server's Retry-After above this is not waited for: the part URLs expire in 10 minutes. */
const MAX_PART_RETRY_AFTER_MS = 60_000;

/** An attempt that failed in a way another attempt may not: the error, and the wait storage asked for. */
interface RetryableFailure {
  failure: UploadError;
  retryAfterMs?: number | undefined;
}

/** Sends one part (up to PART_ATTEMPTS times) and resolves the ETag storage gave it. */
export async function putPart(transport: Transport, progress: ProgressTracker, part: PartRequest): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    if (part.signal.aborted) throw abortReason(part.signal);
    const outcome = await attemptPart(transport, progress, part);
    if (typeof outcome === 'string') return outcome;
    const { failure, retryAfterMs } = outcome;
    if (attempt >= PART_ATTEMPTS) throw failure;
    if (retryAfterMs !== undefined && retryAfterMs > MAX_PART_RETRY_AFTER_MS) throw failure;
    const delay = retryAfterMs ?? PART_RETRY_DELAYS_MS[attempt - 1] ?? PART_RETRY_DELAYS_MS[PART_RETRY_DELAYS_MS.length - 1];
    await transport.timing.sleep(delay, part.signal);
  }
}

/** One attempt: the ETag, or a failure worth retrying; throws what retrying cannot fix. */
async function attemptPart(transport: Transport, progress: ProgressTracker, part: PartRequest): Promise<string | RetryableFailure> {
  const index = part.partNumber - 1;
  const u = new URL(part.url);
  // Only origin and path are ever logged: the query of a pre-signed URL is a credential.
  const logLine = `${part.method} ${u.origin}${u.pathname} part ${part.partNumber}/${part.totalParts}`;
  const started = transport.timing.now();
  const timer = new TimeoutController(part.timeoutMs, part.signal);
  progress.restart(index);
  try {
    // No Authorization, no cookies, and undici's dispatcher.request never follows redirects.
    const res = await transport.dispatcher.request({
      origin: u.origin,
      path: u.pathname + u.search,
      method: part.method as Dispatcher.HttpMethod,
      // An explicit length: pre-signed storage URLs refuse chunked transfer encoding.
      headers: [...part.headers, 'content-length', String(part.bytes.length)],
      body: countingBody(part.bytes, (n) => progress.sent(index, n)),
      signal: timer.signal,
      headersTimeout: part.timeoutMs,
      bodyTimeout: part.timeoutMs,
    });
    const status = res.statusCode;
    const etag = headerValue(res.headers, 'etag');
    const text = status >= 200 && status < 300 ? (await res.body.dump(), '') : await readSmall(res);
    transport.logger.debug(`${logLine} ${status} ${Math.round(transport.timing.now() - started)}ms`);
    if (status >= 200 && status < 300) return storedEtag(part, status, etag);
    const failure = refusal(part, status, excerptOf(text, transport.secrets, 160));
    return { failure, retryAfterMs: parseRetryAfter(headerValue(res.headers, 'retry-after'), Date.now()) };
  } catch (err) {
    if (err instanceof UploadError) throw err;
    if (part.signal.aborted) throw abortReason(part.signal);
    const code = timer.timedOut ? 'TIMEOUT' : (errorCode(err) ?? 'network error');
    transport.logger.debug(`${logLine} failed (${code})`);
    return {
      failure: new UploadError('failed', `Sending part ${part.partNumber} failed (${code}).`, { partNumber: part.partNumber, cause: err }),
    };
  } finally {
    timer.dispose();
  }
}

function storedEtag(part: PartRequest, status: number, etag: string | undefined): string {
  if (!etag) {
    throw new UploadError('failed', `Storage stored part ${part.partNumber} but returned no ETag; the import cannot be completed.`, {
      partNumber: part.partNumber,
      status,
    });
  }
  return etag;
}

/** Storage's answer other than 2xx: the error to retry on, thrown at once when retrying cannot help. */
function refusal(part: PartRequest, status: number, excerpt: string): UploadError {
  if (status === 400 || status === 403) {
    throw new UploadError('expired', 'The upload expired or was refused by storage; start the import again.', {
      partNumber: part.partNumber,
      status,
    });
  }
  if (status >= 300 && status < 400) {
    throw new UploadError('failed', `Storage redirected part ${part.partNumber} (${status}); redirects are not followed.`, {
      partNumber: part.partNumber,
      status,
    });
  }
  const failure = new UploadError('failed', `Storage refused part ${part.partNumber} with HTTP ${status}${excerpt ? `: ${excerpt}` : ''}`, {
    partNumber: part.partNumber,
    status,
  });
  if (!RETRYABLE_PART_STATUS.has(status)) throw failure;
  return failure;
}

/** The part as a stream of 512 KiB views (no copies), counting what the socket takes. */
function countingBody(bytes: Uint8Array, onChunk: (n: number) => void): Readable {
  // Large enough that the stream costs no measurable CPU over one write (64 KiB cost ~15%).
  const CHUNK = 512 * 1024;
  return Readable.from(
    (function* () {
      for (let o = 0; o < bytes.length; o += CHUNK) {
        const chunk = bytes.subarray(o, Math.min(o + CHUNK, bytes.length));
        onChunk(chunk.length);
        yield chunk;
      }
    })(),
    { objectMode: false },
  );
}

/** Up to 4 KiB of an error body, for the message; the rest is discarded. */
async function readSmall(res: Dispatcher.ResponseData): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.body) {
    const b = chunk as Buffer;
    if (total < 4096) chunks.push(b);
    total += b.length;
  }
  return Buffer.concat(chunks).subarray(0, 4096).toString('utf8');
}
