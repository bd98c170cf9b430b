// API v2 wire types, exactly as they travel (snake_case), from ../shared/seed-api-v2.md.
// Used by the client (src/api), the local hub (src/hub) and the grid renderer (src/renderer).
// Enumerations are open: a value the spec does not list (e.g. the live service's `dolt_ci`)
// must be kept, never rejected, so each enum type is `Known | (string & {})`.
import { IMPORT_FILE_KINDS, type ImportFileKind } from './importFormats';

/** Keeps autocompletion for known values while accepting any string. */
export type Open<T extends string> = T | (string & {});

export interface Envelope<T> {
  data: T;
  meta?: Meta;
}

export interface Meta {
  next_page_token?: string;
}

export interface DatabaseRef {
  owner: string;
  name: string;
}

export type Visibility = Open<'public' | 'private'>;

export interface Database {
  owner: string;
  name: string;
  description?: string;
  visibility: Visibility;
  fork_network_count: number;
  star_count: number;
  size_bytes: number;
  last_write_at?: string;
  parent?: DatabaseRef;
  network_root?: DatabaseRef;
}

export interface CreateDatabaseBody {
  owner: string;
  name: string;
  description?: string;
  visibility: Visibility;
}

export interface Branch {
  name: string;
  head_commit_sha: string;
  last_updated_at?: string;
}

export interface Tag {
  name: string;
  commit_sha: string;
  message?: string;
  tagged_at?: string;
}

export interface Release {
  tag: string;
  title: string;
  commit_sha: string;
  description?: string;
  created_at: string;
  updated_at: string;
}

export interface CreateReleaseBody {
  tag: string;
  title: string;
  commit_sha: string;
  description?: string;
  create_tag_if_not_exists?: boolean;
}

/** The `from` of branch and tag creation: exactly one of `branch` or `commit`. */
export type RevisionSource = { branch: string; commit?: never } | { commit: string; branch?: never };

export interface CreateBranchBody {
  name: string;
  from: RevisionSource;
}

export interface CreateTagBody {
  name: string;
  from: RevisionSource;
  message?: string;
}

export interface CreateForkBody {
  owner: string;
}

export interface BranchRef {
  database: DatabaseRef;
  branch_name: string;
}

export type PullState = Open<'open' | 'closed' | 'merged'>;

export interface PullSummary {
  pull_number: number;
  title: string;
  description?: string;
  state: PullState;
  created_at: string;
  creator: string;
}

export interface Pull extends PullSummary {
  from_branch: BranchRef;
  to_branch: BranchRef;
}

export interface CreatePullBody {
  title: string;
  description?: string;
  from_branch: BranchRef;
  to_branch: BranchRef;
}

export interface UpdatePullBody {
  title?: string;
  description?: string;
  state?: PullState;
}

export interface PullComment {
  comment_id: string;
  author: string;
  body: string;
  created_at: string;
  updated_at: string;
}

export interface CreatePullCommentBody {
  body: string;
}

export interface QueryColumn {
  name: string;
  type: string;
  is_primary_key?: boolean;
  source_table?: string;
}

export type QueryStatus = Open<'success' | 'error' | 'timeout' | 'row_limit' | 'not_workspace'>;

/** A cell: non-NULL values are strings whatever the SQL type; BLOBs are the string `<binary>`. */
export type Cell = string | null;

export const BINARY_CELL = '<binary>' as const;

export interface QueryResult {
  columns: QueryColumn[];
  rows: Cell[][];
  status: QueryStatus;
  message?: string;
  warnings?: unknown[];
}

export interface SqlQueryBody {
  ref: string;
  q: string;
  limit?: number;
  timeout_ms?: number;
}

export type OperationType = Open<'import' | 'merge' | 'sql_write' | 'fork' | 'svc_ci'>;
export type OperationStatus = Open<'queued' | 'running' | 'succeeded' | 'failed'>;

export interface OperationError {
  status: number;
  code: Open<ErrorCode>;
  title: string;
  detail?: string;
}

export interface Operation {
  id: string;
  type: OperationType;
  status: OperationStatus;
  created_at: string;
  cancelable: boolean;
  error?: OperationError;
  /** import/merge: `{ pull_id }`; sql_write: `{ commit_sha }`; fork: `{ database }`; others unknown. */
  result?: OperationResult;
  /**
   * `svc_ci` only, and only from the local hub: the branch and commit the run checked. The contract
   * does not show where the service says this, so a client treats a CI operation without it as
   * the database's, branch unknown.
   */
  ci?: CiRunTarget;
}

export interface CiRunTarget {
  branch: string;
  commit_sha: string;
  workflow: string;
}

export interface OperationResult {
  pull_id?: number | string;
  commit_sha?: string;
  database?: DatabaseRef;
  [key: string]: unknown;
}

export interface OperationRef {
  id: string;
  href: string;
}

export type ImportFileType = Open<ImportFileKind>;
/** The file types the API names: the formats of importFormats.ts. */
export const IMPORT_FILE_TYPES: readonly ImportFileKind[] = IMPORT_FILE_KINDS;

export type ImportOperation = Open<'create' | 'overwrite' | 'update' | 'replace'>;
export const IMPORT_OPERATIONS = ['create', 'overwrite', 'update', 'replace'] as const;

export interface CreateImportUploadBody {
  content_length: number;
  num_parts: number;
  file_type: ImportFileType;
}

export interface ImportUploadPart {
  part_number: number;
  url: string;
}

export interface ImportUpload {
  token: string;
  contents_key: string;
  parts: ImportUploadPart[];
  http_method: string;
  headers: Record<string, string[]>;
}

export interface CompletedPart {
  part_number: number;
  etag: string;
}

export interface CreateImportBody {
  branch_name: string;
  table_name: string;
  file_name: string;
  file_size: number;
  file_type: ImportFileType;
  import_operation: ImportOperation;
  token: string;
  contents_key: string;
  completed_parts: CompletedPart[];
  file_parts_md5: string;
  primary_keys: string[];
  commit_message?: string;
  pull_request_branch_name?: string;
  column_map?: Record<string, string>;
}

export interface EmailAddress {
  address: string;
  is_primary: boolean;
  is_verified: boolean;
}

export interface User {
  username: string;
  display_name?: string;
  bio?: string;
  location?: string;
  website_url?: string;
  profile_pic_url?: string;
  email_addresses: EmailAddress[];
}

export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'UNAUTHENTICATED'
  | 'PERMISSION_DENIED'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'UNPROCESSABLE'
  | 'RATE_LIMITED'
  | 'INTERNAL'
  | 'SERVICE_UNAVAILABLE'
  | 'OPERATION_FAILED';

export interface Problem {
  type?: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  code: Open<ErrorCode>;
  request_id: string;
}
