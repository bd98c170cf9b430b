// What an engine worker needs of its files: where the WASM binary is, a database file's bytes as
// the glue takes them, and how much page cache a kept connection gets for a file of a given size.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

export function locateWasm(file: string): string {
  const beside = join(__dirname, file);
  if (existsSync(beside)) return beside;
  try {
    // Running from the sources (tests under tsx): the package's own copy.
    return createRequire(__filename).resolve(`@dolthub/doltlite-wasm/${file}`);
  } catch {
    throw new Error(`${file} is missing: it must sit beside ${__filename} (npm run build copies it into dist/).`);
  }
}

export function fileBytes(path: string): Uint8Array {
  const b = readFileSync(path);
  // The glue accepts plain typed arrays only, not Buffer.
  return new Uint8Array(b.buffer, b.byteOffset, b.length);
}

/** Bytes of page cache a kept connection may use: the file and a quarter, at least DoltLite's default. */
export function cacheBytesFor(fileBytes: number): number {
  return Math.min(MAX_CACHE_BYTES, Math.max(DEFAULT_CACHE_BYTES, Math.ceil(fileBytes * 1.25)));
}

const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;
const MAX_CACHE_BYTES = 512 * 1024 * 1024;
/** Room for a page cache besides its file's pages (a query's room, queryRoom). */
export const CACHE_SLACK_BYTES = 8 * 1024 * 1024;
