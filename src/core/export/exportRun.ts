// Runs an export: pages from a reader into a writer into a file that appears under its chosen
// name only when every row is written. Cancelling (the signal) or any failure removes the
// partial file and leaves whatever was at the chosen name before untouched.
import { randomBytes } from 'node:crypto';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { CellSource } from '../../shared/columnStore';
import type { ExportSink, ExportWriter } from './exportWriters';

/** A file being written beside its target; `commit` moves it into place, `abort` removes it. */
export interface PendingFile extends ExportSink {
  readonly tempPath: string;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

export async function createPendingFile(target: string): Promise<PendingFile> {
  const tempPath = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.partial`);
  const handle: FileHandle = await open(tempPath, 'wx', 0o644);
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await handle.close();
  };
  return {
    tempPath,
    async write(chunk: string): Promise<void> {
      // Awaiting each write keeps at most one chunk (one page) in memory.
      await handle.write(chunk, null, 'utf8');
    },
    async commit(): Promise<void> {
      await handle.sync();
      await close();
      await rename(tempPath, target);
    },
    async abort(): Promise<void> {
      try {
        await close();
      } finally {
        await unlink(tempPath).catch(() => undefined);
      }
    },
  };
}

export class ExportCancelled extends Error {
  override readonly name = 'ExportCancelled';
  constructor() {
    super('The export was cancelled.');
  }
}

export interface ExportRunOptions {
  /** Pages of rows in order; stops early when the signal aborts. */
  pages: AsyncIterable<CellSource>;
  writer: ExportWriter;
  file: PendingFile;
  signal?: AbortSignal;
  /** Called after each page with the rows written so far. */
  onProgress?: (rows: number) => void;
}

/**
 * Writes every page, then moves the file into place. Resolves with the row count; rejects with
 * `ExportCancelled` when the signal aborted, or with the failure, having removed the partial file.
 * The next page is asked for while this one is written (a page read and a page written overlap;
 * at most two pages are in memory).
 */
export async function runExport(opts: ExportRunOptions): Promise<number> {
  const { writer, file, signal } = opts;
  const pages = opts.pages[Symbol.asyncIterator]();
  let next: Promise<IteratorResult<CellSource>> | undefined;
  try {
    if (signal?.aborted) throw new ExportCancelled();
    await writer.begin();
    next = ask(pages);
    for (let r = await next; !r.done; r = await next) {
      if (signal?.aborted) throw new ExportCancelled();
      next = ask(pages);
      await writer.writeRows(r.value);
      opts.onProgress?.(writer.rowsWritten);
    }
    next = undefined;
    if (signal?.aborted) throw new ExportCancelled();
    await writer.end();
    await file.commit();
    return writer.rowsWritten;
  } catch (e) {
    // The page asked for ahead is not wanted: the source stops.
    if (next) void pages.return?.()?.catch(() => undefined);
    await file.abort();
    throw signal?.aborted && !(e instanceof ExportCancelled) ? new ExportCancelled() : e;
  }
}

/** The next page; a failure that comes while the page before is written is seen when it is awaited. */
function ask(pages: AsyncIterator<CellSource>): Promise<IteratorResult<CellSource>> {
  const p = pages.next();
  p.catch(() => undefined);
  return p;
}
