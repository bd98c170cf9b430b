import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import type { CompletedPart, CreateImportBody, CreateImportUploadBody, ImportFileType, ImportUpload } from '../shared/wire';
import type { DbRef } from './dbRef';
import { UploadError } from './errors';
import { putPart } from './putPart';
import { abortReason } from './timing';
import type { Transport } from './transport';
import { ProgressTracker, type UploadProgress } from './uploadProgress';

export type { UploadProgress } from './uploadProgress';

/** Part size, workers and attempts as the service's own CLI uses them. */
export const DEFAULT_PART_SIZE = 5 * 1024 * 1024;
export const DEFAULT_UPLOAD_CONCURRENCY = 4;
export const DEFAULT_PART_TIMEOUT_MS = 120_000;
/** The service takes import files up to 1 GiB; refusing larger ones up front saves a doomed upload. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024 * 1024;

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
    const plan: PartPlan = {
      source,
      size,
      partSize,
      numParts,
      urls: checkSession(session, numParts),
      headers: flattenHeaders(session.headers),
      method: (session.http_method || 'PUT').toUpperCase(),
      timeoutMs: opts.partTimeoutMs ?? DEFAULT_PART_TIMEOUT_MS,
    };
    const { md5s, completed } = await sendParts(transport, plan, concurrency, opts);
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

/** The file cut into parts, each with its URL, and how every part is sent. */
interface PartPlan {
  source: Source;
  size: number;
  partSize: number;
  numParts: number;
  urls: string[];
  headers: string[];
  method: string;
  timeoutMs: number;
}

/**
 * Sends every part with `concurrency` workers, each taking the next part not yet taken; resolves
 * each part's MD5 and its completed part (ETag), in part order.
 */
async function sendParts(
  transport: Transport,
  plan: PartPlan,
  concurrency: number,
  opts: Pick<UploadImportOptions, 'signal' | 'onProgress'>,
): Promise<{ md5s: string[]; completed: CompletedPart[] }> {
  const md5s: string[] = new Array<string>(plan.numParts);
  const completed: CompletedPart[] = new Array<CompletedPart>(plan.numParts);
  const progress = new ProgressTracker(plan.size, plan.numParts, opts.onProgress);
  progress.emit();

  // First failure stops the other workers; the caller's abort stops all of them.
  const { signal } = opts;
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
    const scratch = (): Buffer => (buffer ??= Buffer.allocUnsafeSlow(Math.min(plan.partSize, plan.size)));
    while (!stop.signal.aborted) {
      const index = next++;
      if (index >= plan.numParts) return;
      const offset = index * plan.partSize;
      const length = Math.min(plan.partSize, plan.size - offset);
      const bytes = await plan.source.read(offset, length, scratch);
      md5s[index] = md5Base64(bytes);
      const etag = await putPart(transport, progress, {
        url: plan.urls[index]!,
        partNumber: index + 1,
        totalParts: plan.numParts,
        method: plan.method,
        headers: plan.headers,
        bytes,
        signal: stop.signal,
        timeoutMs: plan.timeoutMs,
      });
      completed[index] = { part_number: index + 1, etag };
      progress.partDone(index, length);
    }
  };
  const workers = Array.from({ length: Math.min(concurrency, plan.numParts) }, () =>
    worker().catch((err: unknown) => {
      if (firstError === undefined) firstError = err;
      stop.abort(err);
    }),
  );
  await Promise.all(workers);
  signal?.removeEventListener('abort', onOuterAbort);
  if (signal?.aborted) throw abortReason(signal);
  if (firstError !== undefined) throw firstError;
  return { md5s, completed };
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

function formatMiB(n: number): string {
  return n >= 1024 * 1024 * 1024 ? `${(n / 1024 ** 3).toFixed(1)} GiB` : `${(n / 1024 ** 2).toFixed(1)} MiB`;
}
