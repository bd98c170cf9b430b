import type { Sqlite3Db } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import type { ImportSpec, WriteResult } from './engineProtocol';

export async function runImport(_conn: Sqlite3Db, _spec: ImportSpec, _author: string): Promise<WriteResult> {
  return { ok: false, code: 'UNPROCESSABLE', message: 'imports are not available yet' };
}
