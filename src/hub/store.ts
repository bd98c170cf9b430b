// The hub's metadata: users, tokens (hashes only), organizations, databases, pulls, comments,
// releases, operations, upload sessions and OAuth clients. Held in memory and written atomically
// after every change (hub.json for the hub's own state, accounts.json for what the CLI also
// edits), so a crash leaves the last complete state.
import { existsSync, mkdirSync, readFileSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { CiRunTarget, DatabaseRef, OperationError, OperationResult, OperationStatus, OperationType } from '../shared/wire';
import { writeFileAtomicSync } from './atomicFile';

export type OrgRole = 'owner' | 'writer' | 'reader';
export const ORG_ROLES: readonly OrgRole[] = ['owner', 'writer', 'reader'];

export interface UserRecord {
  username: string;
  email: string;
  display_name: string;
  /** scrypt hash `salt:hash` (hex), for the OAuth login page. */
  password_hash?: string;
  created_at: string;
}

export interface TokenRecord {
  /** sha256 hex of the token; the token itself is never stored. */
  hash: string;
  username: string;
  kind: 'personal' | 'oauth';
  client_id?: string;
  created_at: string;
}

export interface OrgRecord {
  name: string;
  members: Record<string, OrgRole>;
  created_at: string;
}

export interface DatabaseRecord {
  owner: string;
  name: string;
  description?: string;
  visibility: 'public' | 'private';
  star_count: number;
  created_at: string;
  last_write_at?: string;
  parent?: DatabaseRef;
  network_root?: DatabaseRef;
  next_pull_number: number;
}

export interface PullRecord {
  db: string;
  pull_number: number;
  title: string;
  description?: string;
  state: 'open' | 'closed' | 'merged';
  created_at: string;
  creator: string;
  from_branch: { database: DatabaseRef; branch_name: string };
  to_branch: { database: DatabaseRef; branch_name: string };
}

export interface CommentRecord {
  db: string;
  pull_number: number;
  comment_id: string;
  author: string;
  body: string;
  created_at: string;
  updated_at: string;
}

export interface ReleaseRecord {
  db: string;
  tag: string;
  title: string;
  commit_sha: string;
  description?: string;
  created_at: string;
  updated_at: string;
}

export interface OperationRecord {
  id: string;
  db: string;
  type: OperationType;
  status: OperationStatus;
  created_at: string;
  updated_at: string;
  created_by: string;
  error?: OperationError;
  result?: OperationResult;
  /** svc_ci: what the run checked. */
  ci?: CiRunTarget;
}

export interface UploadRecord {
  token: string;
  db: string;
  contents_key: string;
  content_length: number;
  num_parts: number;
  file_type: string;
  created_by: string;
  expires_at: string;
  /** part number -> etag, filled as parts arrive. */
  parts: Record<string, { etag: string; md5_b64: string; size: number }>;
  consumed?: boolean;
}

export interface OAuthClientRecord {
  client_id: string;
  name: string;
  redirect_uris: string[];
}

export interface HubState {
  version: 1;
  secret: string;
  users: Record<string, UserRecord>;
  tokens: TokenRecord[];
  orgs: Record<string, OrgRecord>;
  databases: Record<string, DatabaseRecord>;
  pulls: PullRecord[];
  comments: CommentRecord[];
  releases: ReleaseRecord[];
  operations: OperationRecord[];
  uploads: Record<string, UploadRecord>;
  oauth_clients: Record<string, OAuthClientRecord>;
  next_job_id: number;
}

export const STATE_FILE = 'hub.json';
/** Users, tokens, organizations and OAuth clients: shared with the CLI, which may change them
 * while the hub runs (e.g. `token create`), so it is its own file with a lock around changes. */
export const ACCOUNTS_FILE = 'accounts.json';
const ACCOUNT_KEYS = ['users', 'tokens', 'orgs', 'oauth_clients'] as const;
type Accounts = Pick<HubState, (typeof ACCOUNT_KEYS)[number]>;

export function emptyState(): HubState {
  return {
    version: 1,
    secret: randomBytes(32).toString('hex'),
    users: {},
    tokens: [],
    orgs: {},
    databases: {},
    pulls: [],
    comments: [],
    releases: [],
    operations: [],
    uploads: {},
    oauth_clients: {},
    next_job_id: 1,
  };
}

export class Store {
  readonly state: HubState;
  private accountsStamp = '';

  constructor(readonly dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    const file = join(dataDir, STATE_FILE);
    if (existsSync(file)) {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as HubState;
      this.state = { ...emptyState(), ...parsed };
    } else {
      this.state = emptyState();
      this.save();
    }
    if (!existsSync(join(dataDir, ACCOUNTS_FILE))) this.mutateAccounts(() => undefined);
    this.refreshAccounts();
  }

  private accountsPath(): string {
    return join(this.dataDir, ACCOUNTS_FILE);
  }

  private stamp(): string {
    try {
      const st = statSync(this.accountsPath());
      return `${st.ino}:${st.mtimeMs}:${st.size}`;
    } catch {
      return '';
    }
  }

  /** Picks up accounts changed by the CLI since we last read or wrote them. Cheap when unchanged. */
  refreshAccounts(): void {
    const st = this.stamp();
    if (st === this.accountsStamp || st === '') return;
    const acc = JSON.parse(readFileSync(this.accountsPath(), 'utf8')) as Partial<Accounts>;
    for (const k of ACCOUNT_KEYS) if (acc[k] !== undefined) (this.state as unknown as Record<string, unknown>)[k] = acc[k];
    this.accountsStamp = st;
  }

  /** Read-modify-write of the accounts file under a lock shared with the CLI. */
  mutateAccounts<T>(fn: (s: HubState) => T): T {
    const lock = join(this.dataDir, '.accounts.lock');
    const started = Date.now();
    for (;;) {
      try {
        mkdirSync(lock);
        break;
      } catch {
        if (Date.now() - started > 10000) {
          // A holder that died left the lock behind; take it over.
          try {
            rmdirSync(lock);
          } catch {
            /* raced with another taker */
          }
        }
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
      }
    }
    try {
      this.accountsStamp = '';
      this.refreshAccounts();
      const r = fn(this.state);
      const acc: Record<string, unknown> = {};
      for (const k of ACCOUNT_KEYS) acc[k] = this.state[k];
      writeFileAtomicSync(this.accountsPath(), JSON.stringify(acc, null, 1));
      this.accountsStamp = this.stamp();
      return r;
    } finally {
      rmdirSync(lock);
    }
  }

  save(): void {
    const out: Record<string, unknown> = { ...this.state };
    for (const k of ACCOUNT_KEYS) delete out[k];
    writeFileAtomicSync(join(this.dataDir, STATE_FILE), JSON.stringify(out, null, 1));
  }

  /** Applies a change to the hub's own state and writes it. */
  mutate<T>(fn: (s: HubState) => T): T {
    const r = fn(this.state);
    this.save();
    return r;
  }

  dbPath(owner: string, name: string): string {
    return join(this.dataDir, 'databases', owner, `${name}.db`);
  }
}

export function dbKey(owner: string, name: string): string {
  return `${owner}/${name}`;
}
