// Revisions as the review SQL passes them to Dolt: a branch or tag name or a 32-character base32
// commit hash, optionally followed by ancestry (`~`, `~n`, `^`, `^n`, as in `main~2^2`). `HEAD` is
// refused: it means the head of whatever ref a query is sent at, and review queries always know
// the ref they mean.
// Every revision is checked here before any SQL is built, so a bad one is a typed error and never
// text Dolt has to make sense of. The name rules are Dolt's (those of Git's check-ref-format,
// which Dolt's ref package applies to branches and tags):
// - no ASCII control character, space, `~ ^ : ? * [ \`, no `..`, no `@{`;
// - no component that starts with `.` or ends with `.lock`, no empty component (`//`, a leading
//   or trailing `/`);
// - not `-…`, not exactly `HEAD`, and not 32 characters of `0-9a-v` (that is a commit).
// Revision pairs are built here too: `from..to` (what changed from one revision to another) and
// `base...head` (what `head` changed since it left `base`: the pull request form).
import { SqlInputError } from '../sql/quote';

/** A revision that Dolt would not accept (or would read as something else). */
export class RevisionError extends Error {
  override readonly name = 'RevisionError';
}

/** True for the errors the review SQL builders throw on bad input (a revision, a name, a count). */
export function isReviewInputError(e: unknown): e is RevisionError | SqlInputError {
  return e instanceof RevisionError || e instanceof SqlInputError;
}

const COMMIT_HASH = /^[0-9a-v]{32}$/;
// An ancestry step: `~` or `^`, each with an optional count (`~` alone is `~1`, `^2` is the
// second parent of a merge).
const ANCESTRY = /^((?:[~^][0-9]{0,6})*)$/;

const FORBIDDEN_CHARS = /[\u0000-\u0020\u007f~^:?*[\\]/;

export type RevisionBase = 'commit' | 'name';

export interface Revision {
  /** The whole revision as Dolt receives it, e.g. `main~2`. */
  readonly text: string;
  /** The branch, tag or hash the ancestry steps start from. */
  readonly base: string;
  readonly baseKind: RevisionBase;
  /** The ancestry steps, e.g. `~2^2`; empty for the revision itself. */
  readonly ancestry: string;
}

/** Why `name` is not a valid Dolt branch or tag name, or undefined when it is. */
export function refNameProblem(name: string): string | undefined {
  if (name === '') return 'A branch or tag name cannot be empty.';
  if (name === 'HEAD') return '`HEAD` is not a branch or tag name.';
  if (name.startsWith('-')) return 'A branch or tag name cannot start with `-`.';
  if (COMMIT_HASH.test(name)) return 'A branch or tag name cannot look like a commit hash.';
  if (FORBIDDEN_CHARS.test(name)) return 'A branch or tag name cannot contain spaces, control characters or any of ~ ^ : ? * [ \\.';
  if (name.includes('..')) return 'A branch or tag name cannot contain `..`.';
  if (name.includes('@{')) return 'A branch or tag name cannot contain `@{`.';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//'))
    return 'A branch or tag name cannot have an empty part between slashes.';
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return 'No part of a branch or tag name can start with `.`.';
    if (part.endsWith('.lock')) return 'No part of a branch or tag name can end with `.lock`.';
  }
  return undefined;
}

/** True for a 32-character base32 (`0-9a-v`) commit hash. */
export function isCommitHashText(text: string): boolean {
  return COMMIT_HASH.test(text);
}

/** Parses and checks a revision; throws RevisionError with the reason when Dolt would not take it. */
export function parseRevision(text: string): Revision {
  if (typeof text !== 'string') throw new RevisionError('A revision must be text.');
  const cut = text.search(/[~^]/);
  const base = cut < 0 ? text : text.slice(0, cut);
  const ancestry = cut < 0 ? '' : text.slice(cut);
  if (!ANCESTRY.test(ancestry)) throw new RevisionError(`"${text}" is not a revision: after ~ or ^ only a count may follow.`);
  if (base === 'HEAD') throw new RevisionError('HEAD depends on the ref a query is sent at; give a branch, a tag or a commit hash.');
  if (COMMIT_HASH.test(base)) return { text, base, baseKind: 'commit', ancestry };
  if (/^[0-9a-f]{40}$/i.test(base))
    throw new RevisionError(`"${base}" looks like a 40-character hex hash; Dolt commit hashes are 32 characters of 0-9 and a-v.`);
  const problem = refNameProblem(base);
  if (problem) throw new RevisionError(`"${text}" is not a revision. ${problem}`);
  return { text, base, baseKind: 'name', ancestry };
}

/** A revision that names one fixed point without ancestry: what an API `ref` or `AS OF` takes. */
export function parsePlainRevision(text: string): Revision {
  const r = parseRevision(text);
  if (r.ancestry) throw new RevisionError(`"${text}" must be a branch, a tag or a commit hash, without ~ or ^.`);
  return r;
}

/**
 * Two revisions to compare.
 * - `twoDot`: everything that differs between `from` and `to` (`DOLT_DIFF(from, to, t)`), e.g. a
 *   commit against its first parent, or Compare Refs.
 * - `threeDot`: what `head` changed since its merge base with `base` (`DOLT_DIFF('base...head', t)`),
 *   the pull request diff: `base` is the pull's `to_branch`, `head` its `from_branch`.
 */
export type RevisionPair =
  | { readonly kind: 'twoDot'; readonly from: string; readonly to: string }
  | { readonly kind: 'threeDot'; readonly base: string; readonly head: string };

export function twoDot(from: string, to: string): RevisionPair {
  return { kind: 'twoDot', from, to };
}

export function threeDot(base: string, head: string): RevisionPair {
  return { kind: 'threeDot', base, head };
}

/** The pair with both revisions checked, so later string building cannot fail on them. */
export function checkPair(pair: RevisionPair): RevisionPair {
  if (pair.kind === 'twoDot') {
    parseRevision(pair.from);
    parseRevision(pair.to);
    return pair;
  }
  if (pair.kind === 'threeDot') {
    parseRevision(pair.base);
    parseRevision(pair.head);
    return pair;
  }
  throw new RevisionError(`Unknown revision pair ${String((pair as { kind: unknown }).kind)}.`);
}

/** The revision whose side is "new" in the pair (the `to` of the diff). */
export function newSide(pair: RevisionPair): string {
  return pair.kind === 'twoDot' ? pair.to : pair.head;
}

/**
 * The API `ref` to send a table-function query at. The functions name their revisions
 * themselves, so any ref of the database would do; the new side's base (ancestry such as `~1`
 * dropped) is one that surely exists.
 */
export function sendAtFor(pair: RevisionPair): string {
  return parseRevision(newSide(pair)).base;
}
