// Typed builders for API v2 wire objects (src/shared/wire.ts), as vscode-pull-request-github's
// test builders: a test names only the fields it is about, the builder fills the others the API
// requires with plain defaults, and the compiler checks every field against the wire types. Optional
// fields stay absent unless given, so a builder adds nothing a test did not ask for.
import type {
  Branch,
  Database,
  DatabaseRef,
  Operation,
  Pull,
  PullComment,
  PullSummary,
  QueryResult,
  Release,
  Tag,
} from '../../src/shared/wire';

/** A 32-character commit hash in the API's base32 alphabet, distinct per seed. */
export function aHash(seed: string | number = 0): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuv';
  const text = String(seed);
  let out = '';
  for (let i = 0; out.length < 32; i++) out += alphabet[(text.charCodeAt(i % text.length) + i * 7) % 32];
  return out;
}

export const aDatabaseRef = (o: Partial<DatabaseRef> = {}): DatabaseRef => ({ owner: 'alice', name: 'inventory', ...o });

export const aDatabase = (o: Partial<Database> = {}): Database => ({
  owner: 'alice',
  name: 'inventory',
  visibility: 'public',
  fork_network_count: 0,
  star_count: 0,
  size_bytes: 0,
  ...o,
});

export const aBranch = (o: Partial<Branch> = {}): Branch => ({ name: 'main', head_commit_sha: aHash(o.name ?? 'main'), ...o });

export const aTag = (o: Partial<Tag> = {}): Tag => ({ name: 'v1', commit_sha: aHash(o.name ?? 'v1'), ...o });

export const aRelease = (o: Partial<Release> = {}): Release => ({
  tag: 'v1',
  title: 'Version 1',
  commit_sha: aHash(o.tag ?? 'v1'),
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
  ...o,
});

export const aPullSummary = (o: Partial<PullSummary> = {}): PullSummary => ({
  pull_number: 1,
  title: 'A pull request',
  state: 'open',
  created_at: '2026-11-21T09:00:00Z',
  creator: 'bob',
  ...o,
});

export const aPull = (o: Partial<Pull> = {}): Pull => ({
  ...aPullSummary(o),
  from_branch: { database: aDatabaseRef(), branch_name: 'feature' },
  to_branch: { database: aDatabaseRef(), branch_name: 'main' },
  ...o,
});

export const aPullComment = (o: Partial<PullComment> = {}): PullComment => ({
  comment_id: '1',
  author: 'bob',
  body: 'Looks good.',
  created_at: '2026-11-21T10:00:00Z',
  updated_at: '2026-11-21T10:00:00Z',
  ...o,
});

export const anOperation = (o: Partial<Operation> = {}): Operation => ({
  id: 'op-1',
  type: 'merge',
  status: 'running',
  created_at: '2026-11-21T09:00:00Z',
  cancelable: false,
  ...o,
});

/** A finished SQL result; `rows` are cells as the API sends them (text or null). */
export const aQueryResult = (o: Partial<QueryResult> = {}): QueryResult => ({ columns: [], rows: [], status: 'success', ...o });
