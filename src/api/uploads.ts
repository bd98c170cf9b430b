import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { CompletedPart, CreateImportBody, CreateImportUploadBody, ImportFileType, ImportUpload } from '../shared/wire';
import type { DbRef } from './dbRef';
import { UploadError } from './errors';
import { excerptOf } from './redact';
import { abortReason, TimeoutController, type Timing } from './timing';
import { errorCode, headerValue, parseRetryAfter } from './responses';
import type { Transport } from './transport';

/** Part size, workers and attempts as the service's own CLI uses them. */
export const DEFAULT_PART_SIZE = 5 * 1024 * 1024;
export const DEFAULT_UPLOAD_CONCURRENCY = 4;
export const PART_ATTEMPTS = 4;
/** Delay before attempt 2, 3, 4 of a part. */
export const PART_RETRY_DELAYS_MS = [1000, 2000, 4000] as const;
export const DEFAULT_PART_TIMEOUT_MS = 120_000;
/** The service takes import files up to 1 GiB; refusing larger ones up front saves a doomed upload. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024 * 1024;

export interface UploadProgress {
  /** Bytes handed to the network so far (never decreases, also across part retries). */
  bytesSent: number;
  totalBytes: number;
  partsDone: number;
  totalParts: number;
}

export interface UploadImportOptions {
  db: DbRef;
  /** A file path (read part by part, never whole) or the bytes themselves. */
  file: string | Uint8Array;
  fileType: ImportFileType;
  /** Bytes per part; default 5 MiB. */
  partSize?: number;
  /** Parts in flight at once; default 4. */
  concurrency?: number;
  /** Largest file accepted before anything is sent; default 1 GiB, the service's limit. */
  maxFileBytes?: number;
  /** Deadline of one part attempt; default 120 s. */
  partTimeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (progress: UploadProgress) => void;
}

/** The fields of `createImport`'s body that the upload produced; spread them into it. */
export type UploadImportResult = Pick<
  CreateImportBody,
  'token' | 'contents_key' | 'completed_parts' | 'file_parts_md5' | 'file_size' | 'file_type'
>;

type CreateSession = (body: CreateImportUploadBody, signal: AbortSignal | undefined) => Promise<ImportUpload>;

interface Source {
  size: number;
  /**
   * The bytes of [offset, offset + length): read into `scratch` for files (one buffer per
   * worker, reused part after part), a view without copying for bytes.
   */
  read(offset: number, length: number, scratch: () => Buffer): Promise<Uint8Array>;
  close(): Promise<void>;
}

async function openSource(file: string | Uint8Array): Promise<Source> {
  if (typeof file !== 'string') {
    return { size: file.byteLength, read: async (o, l) => file.subarray(o, o + l), close: async () => undefined };
  }
  let fh: FileHandle;
  try {
    fh = await open(file, 'r');
  } catch (err) {
    throw new UploadError('invalid', `Cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
  const { size } = await fh.stat();
  return {
    size,
    read: async (offset, length, scratch) => {
      const buf = scratch().subarray(0, length);
      let got = 0;
      while (got < length) {
        const { bytesRead } = await fh.read(buf, got, length - got, offset + got);
        if (bytesRead === 0) throw new UploadError('invalid', `${file} became shorter while it was being uploaded; start again.`);
        got += bytesRead;
      }
      return buf;
    },
    close: () => fh.close(),
  };
}

/** base64 of the MD5 of `bytes`. */
export function md5Base64(bytes: Uint8Array | string): string {
  return createHash('md5').update(bytes).digest('base64');
}

/** What the service checks: base64( MD5( concatenation of each part's base64 MD5 ) ). */
export function filePartsMd5(partMd5sBase64: readonly string[]): string {
  return md5Base64(partMd5sBase64.join(''));
}

/**
 * Import steps 1–2: create the upload session, send every part (parallel, retried, never with
 * Authorization or cookies, never following redirects), and return what `createImport` needs.
 */
export async function uploadImportParts(
  transport: Transport,
  createSession: CreateSession,
  opts: UploadImportOptions,
): Promise<UploadImportResult> {
  const partSize = opts.partSize ?? DEFAULT_PART_SIZE;
  const concurrency = opts.concurrency ?? DEFAULT_UPLOAD_CONCURRENCY;
  if (!Number.isInteger(partSize) || partSize < 1) throw new RangeError(`partSize must be a positive integer, got ${partSize}`);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  const { signal } = opts;
  if (signal?.aborted) throw abortReason(signal);

  const source = await openSource(opts.file);
  try {
    const size = source.size;
    if (size === 0) throw new UploadError('invalid', 'The file is empty; there is nothing to import.');
    const maxBytes = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    if (size > maxBytes) {
      throw new UploadError('invalid', `The file is ${formatMiB(size)}; imports take files up to ${formatMiB(maxBytes)}.`);
    }
    const numParts = Math.ceil(size / partSize);
    const session = await createSession({ content_length: size, num_parts: numParts, file_type: opts.fileType }, signal);
    const urls = checkSession(session, numParts);
    const extraHeaders = flattenHeaders(session.headers);
    const method = (session.http_method || 'PUT').toUpperCase();

    const md5s: string[] = new Array<string>(numParts);
    const completed: CompletedPart[] = new Array<CompletedPart>(numParts);
    const progress = new ProgressTracker(size, numParts, opts.onProgress);
    progress.emit();

    // First failure stops the other workers; the caller's abort stops all of them.
    const stop = new AbortController();
    const onOuterAbort = (): void => stop.abort(abortReason(signal));
    signal?.addEventListener('abort', onOuterAbort, { once: true });
    let firstError: unknown;
    let next = 0;
    const worker = async (): Promise<void> => {
      // Memory stays at partSize × concurrency whatever the file size: each worker reads every
      // part into the same buffer. It is reused only after storage has answered 2xx for the
      // previous part, i.e. after the whole body was sent.
      let buffer: Buffer | undefined;
      const scratch = (): Buffer => (buffer ??= Buffer.allocUnsafeSlow(Math.min(partSize, size)));
      while (!stop.signal.aborted) {
        const index = next++;
        if (index >= numParts) return;
        const offset = index * partSize;
        const length = Math.min(partSize, size - offset);
        const bytes = await source.read(offset, length, scratch);
        md5s[index] = md5Base64(bytes);
        const etag = await putPart(transport.dispatcher, transport.timing, transport, progress, {
          url: urls[index]!,
          partNumber: index + 1,
          totalParts: numParts,
          method,
          headers: extraHeaders,
          bytes,
          signal: stop.signal,
          timeoutMs: opts.partTimeoutMs ?? DEFAULT_PART_TIMEOUT_MS,
        });
        completed[index] = { part_number: index + 1, etag };
        progress.partDone(index, length);
      }
    };
    const workers = Array.from({ length: Math.min(concurrency, numParts) }, () =>
      worker().catch((err: unknown) => {
        if (firstError === undefined) firstError = err;
        stop.abort(err);
      }),
    );
    await Promise.all(workers);
    signal?.removeEventListener('abort', onOuterAbort);
    if (signal?.aborted) throw abortReason(signal);
    if (firstError !== undefined) throw firstError;

    return {
      token: session.token,
      contents_key: session.contents_key,
      completed_parts: completed,
      file_parts_md5: filePartsMd5(md5s),
      file_size: size,
      file_type: opts.fileType,
    };
  } finally {
    await source.close();
  }
}

function checkSession(session: ImportUpload, numParts: number): string[] {
  const parts = Array.isArray(session?.parts) ? session.parts : [];
  if (parts.length !== numParts) {
    throw new UploadError('invalid', `The upload session has ${parts.length} part URLs for a file of ${numParts} parts.`);
  }
  const urls: string[] = new Array<string>(numParts);
  for (const p of parts) {
    const n = p.part_number;
    if (!Number.isInteger(n) || n < 1 || n > numParts || urls[n - 1] !== undefined) {
      throw new UploadError('invalid', `The upload session has an unexpected part number ${String(n)}.`);
    }
    let u: URL;
    try {
      u = new URL(p.url);
    } catch {
      throw new UploadError('invalid', `The upload session gave part ${n} an invalid URL.`);
    }
    if (u.protocol !== 'https:' && u.protocol !== 'http:') {
      throw new UploadError('invalid', `The upload session gave part ${n} a ${u.protocol} URL; only http(s) is used.`);
    }
    urls[n - 1] = p.url;
  }
  if (typeof session.token !== 'string' || typeof session.contents_key !== 'string') {
    throw new UploadError('invalid', 'The upload session has no token or contents key.');
  }
  return urls;
}

/** Headers undici computes itself, or that would change the connection, are not copied. */
const NOT_COPIED = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'authorization', 'cookie']);

/** Every value of every header the session lists, as a flat [name, value, ...] list. */
function flattenHeaders(headers: Record<string, string[] | string> | undefined): string[] {
  const flat: string[] = [];
  for (const [name, values] of Object.entries(headers ?? {})) {
    if (NOT_COPIED.has(name.toLowerCase())) continue;
    for (const v of Array.isArray(values) ? values : [values]) flat.push(name, String(v));
  }
  return flat;
}

/**
 * Progress in bytes while parts stream out, reported at most every 256 KiB (and at each finished
 * part) so a slow link still shows movement inside a 5 MiB part. A retried part restarts its own
 * count, but the reported total never goes back.
 */
class ProgressTracker {
  private confirmed = 0;
  private partsDone = 0;
  private readonly inFlight = new Map<number, number>();
  private reported = -1;

  constructor(
    private readonly totalBytes: number,
    private readonly totalParts: number,
    private readonly onProgress: ((p: UploadProgress) => void) | undefined,
  ) {}

  sent(index: number, bytes: number): void {
    this.inFlight.set(index, (this.inFlight.get(index) ?? 0) + bytes);
    if (this.current() - this.reported >= 256 * 1024) this.emit();
  }

  restart(index: number): void {
    this.inFlight.delete(index);
  }

  partDone(index: number, length: number): void {
    this.inFlight.delete(index);
    this.confirmed += length;
    this.partsDone += 1;
    this.emit(true);
  }

  emit(force = false): void {
    const now = Math.max(this.current(), this.reported);
    if (!force && now === this.reported) return;
    this.reported = now;
    this.onProgress?.({ bytesSent: now, totalBytes: this.totalBytes, partsDone: this.partsDone, totalParts: this.totalParts });
  }

  private current(): number {
    let n = this.confirmed;
    for (const v of this.inFlight.values()) n += v;
    return Math.min(n, this.totalBytes);
  }
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

interface PartRequest {
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

async function putPart(
  dispatcher: Dispatcher,
  timing: Timing,
  transport: Transport,
  progress: ProgressTracker,
  part: PartRequest,
): Promise<string> {
  const index = part.partNumber - 1;
  const u = new URL(part.url);
  // Only origin and path are ever logged: the query of a pre-signed URL is a credential.
  const logUrl = `${u.origin}${u.pathname}`;
  for (let attempt = 1; ; attempt++) {
    if (part.signal.aborted) throw abortReason(part.signal);
    const started = timing.now();
    const timer = new TimeoutController(part.timeoutMs, part.signal);
    progress.restart(index);
    let failure: UploadError;
    let retryAfterMs: number | undefined;
    try {
      // No Authorization, no cookies, and undici's dispatcher.request never follows redirects.
      const res = await dispatcher.request({
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
      transport.logger.debug(
        `${part.method} ${logUrl} part ${part.partNumber}/${part.totalParts} ${status} ${Math.round(timing.now() - started)}ms`,
      );
      if (status >= 200 && status < 300) {
        if (!etag) {
          throw new UploadError('failed', `Storage stored part ${part.partNumber} but returned no ETag; the import cannot be completed.`, {
            partNumber: part.partNumber,
            status,
          });
        }
        return etag;
      }
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
      const excerpt = excerptOf(text, transport.secrets, 160);
      failure = new UploadError('failed', `Storage refused part ${part.partNumber} with HTTP ${status}${excerpt ? `: ${excerpt}` : ''}`, {
        partNumber: part.partNumber,
        status,
      });
      if (!RETRYABLE_PART_STATUS.has(status)) throw failure;
      retryAfterMs = parseRetryAfter(headerValue(res.headers, 'retry-after'), Date.now());
    } catch (err) {
      if (err instanceof UploadError) throw err;
      if (part.signal.aborted) throw abortReason(part.signal);
      const code = timer.timedOut ? 'TIMEOUT' : (errorCode(err) ?? 'network error');
      transport.logger.debug(`${part.method} ${logUrl} part ${part.partNumber}/${part.totalParts} failed (${code})`);
      failure = new UploadError('failed', `Sending part ${part.partNumber} failed (${code}).`, { partNumber: part.partNumber, cause: err });
    } finally {
      timer.dispose();
    }
    if (attempt >= PART_ATTEMPTS) throw failure;
    if (retryAfterMs !== undefined && retryAfterMs > MAX_PART_RETRY_AFTER_MS) throw failure;
    const delay = retryAfterMs ?? PART_RETRY_DELAYS_MS[attempt - 1] ?? PART_RETRY_DELAYS_MS[PART_RETRY_DELAYS_MS.length - 1];
    await timing.sleep(delay, part.signal);
  }
}

function formatMiB(n: number): string {
  return n >= 1024 * 1024 * 1024 ? `${(n / 1024 ** 3).toFixed(1)} GiB` : `${(n / 1024 ** 2).toFixed(1)} MiB`;
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
