// Messages between the hub's main thread and its DoltLite worker threads.
import type { QueryResult } from '../shared/wire';

/** A database file: its key (`owner/name`), its path on disk and the version main last wrote. */
export interface DbFile {
  key: string;
  path: string;
  version: number;
}

export interface Author {
  name: string;
  email: string;
}

export type Revision = { branch: string } | { commitHex: string } | { ref: string };

export interface ImportSpec {
  filePath: string;
  fileType: string;
  table: string;
  operation: string;
  primaryKeys: string[];
  columnMap?: Record<string, string>;
  branch: string;
  newBranch?: string;
  commitMessage: string;
}

export type WriteScript =
  | { kind: 'create' }
  | { kind: 'branch'; name: string; from: Revision }
  | { kind: 'tag'; name: string; from: Revision; message?: string }
  | { kind: 'merge'; fromBranch: string; fromFile?: DbFile; toBranch: string; message: string }
  | { kind: 'import'; spec: ImportSpec }
  | { kind: 'sql'; branch: string; statements: string[]; message: string; date?: string };

export type EngineRequest =
  | {
      op: 'query';
      db: DbFile;
      ref: Revision;
      sql: string;
      limit: number;
      timeoutMs: number;
      dbName: string;
      /** Budget of the whole result in bytes of cell text: past it the rows stop early. */
      maxBytes: number;
      /** Largest single value (SQLite's length limit on the connection). */
      maxValueBytes: number;
      /** What the query may allocate besides page caches: past it, it fails (queryMemory.ts). */
      maxMemoryBytes: number;
      /** The rows may come as one JSON text (`rowsJson`: selectRunner.ts), for a response written around it. */
      rawRows?: boolean;
    }
  | { op: 'read'; db: DbFile; what: 'branches' | 'tags' | 'commit'; ref?: Revision }
  | { op: 'write'; db: DbFile; nextVersion: number; author: Author; script: WriteScript };

export interface BranchRow {
  name: string;
  hashHex: string;
  date: string;
}
export interface TagRow {
  name: string;
  hashHex: string;
  message: string;
  date: string;
}

export type WriteResult =
  | { ok: true; commitHex?: string; sizeBytes: number }
  | { ok: false; code: 'CONFLICT' | 'NOT_FOUND' | 'VALIDATION_FAILED' | 'UNPROCESSABLE'; message: string; tables?: string[] };

/**
 * `memoryBytes`: the worker's memory after the job, so main can replace a worker that grew;
 * `dataBytes`: the largest database file it holds and its scratch copies, which that memory may grow with.
 */
export type EngineResponse =
  | {
      id: number;
      ok: true;
      value: QueryResult | BranchRow[] | TagRow[] | { hashHex: string | null } | WriteResult;
      memoryBytes?: number;
      dataBytes?: number;
    }
  | { id: number; ok: false; message: string; memoryBytes?: number; dataBytes?: number };
