// Refs as the user gives them to a SQL target: a branch, a tag or a commit hash. The API
// treats 32 characters of `0-9a-v` as a commit, anything else as a branch, tag or other ref.
import type { Branch, Tag } from '../../shared/wire';

const COMMIT = /^[0-9a-v]{32}$/;

export type RefKind = 'branch' | 'tag' | 'commit' | 'unknown';

export function looksLikeCommit(ref: string): boolean {
  return COMMIT.test(ref);
}

/**
 * Checks a ref typed or pasted into the picker. Returns the trimmed ref or an error message
 * that says what is wrong (a 40-hex Git-style hash is a common paste and is not accepted).
 */
export function validateRefInput(text: string): { ref: string } | { error: string } {
  const ref = text.trim();
  if (!ref) return { error: 'Type a branch, a tag or a 32-character commit hash.' };
  if (/^[0-9a-f]{40}$/i.test(ref)) {
    return { error: 'That looks like a 40-character hex hash; this service shows commits as 32 characters of 0-9 and a-v.' };
  }
  if (/^[0-9a-v]{33,}$/.test(ref)) return { error: 'A commit hash has exactly 32 characters.' };
  if (/\s/.test(ref)) return { error: 'A ref cannot contain spaces.' };
  if (/[\x00-\x1f~^:?*[\\]/.test(ref) || ref.includes('..') || ref.startsWith('/') || ref.endsWith('/')) {
    return { error: 'That is not a valid branch or tag name.' };
  }
  return { ref };
}

export interface RefResolution {
  kind: RefKind;
  /** The commit the ref points at now, when known. */
  commit?: string;
}

/** What a ref names, given the database's branches and tags (a branch wins over a tag, as refs resolve). */
export function resolveRef(ref: string, branches: readonly Branch[], tags: readonly Tag[]): RefResolution {
  const b = branches.find((x) => x.name === ref);
  if (b) return { kind: 'branch', commit: b.head_commit_sha };
  const t = tags.find((x) => x.name === ref);
  if (t) return { kind: 'tag', commit: t.commit_sha };
  if (looksLikeCommit(ref)) return { kind: 'commit', commit: ref };
  return { kind: 'unknown' };
}

/** True when a branch output ran at `ranAt` but the branch now points elsewhere. */
export function branchMoved(ranAt: string | undefined, headNow: string | undefined): boolean {
  return !!ranAt && !!headNow && ranAt !== headNow;
}

export function targetLabel(t: { owner: string; name: string; ref: string }): string {
  const ref = looksLikeCommit(t.ref) ? t.ref.slice(0, 8) : t.ref;
  return `${t.owner}/${t.name} @ ${ref}`;
}
