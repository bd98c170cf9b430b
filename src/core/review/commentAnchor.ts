// A pull comment anchored to a row or a cell (issue #25). The API keeps top-level comments only, so
// the anchor travels inside the comment's markdown body:
//
//   [vdb-anchor]: https://anchor.invalid/v1/<base64url of the anchor's JSON>
//   **suppliers** · `id` = 3 · `rating`
//
//   The comment's own text…
//
// The first line is a CommonMark link reference definition: every markdown renderer (the service's
// web page, GitHub, markdown-it with raw HTML off as in our views) drops it from the output, and
// nothing in it needs escaping (base64url is letters, digits, - and _). Its destination is an https
// URL because renderers that check links (ours: src/core/markdown.ts) refuse a definition with any
// other, and then show it as text; `.invalid` is a name that never resolves. An HTML comment would show
// as text wherever raw HTML is off. It comes first so no user text (an unclosed code fence) can
// swallow it. The second line is what a reader on the web sees: table, key and column, escaped.
// The JSON holds the exact values: keys of any type and text (quotes, unicode, newlines, very long).
// A body whose first line is not a valid anchor is an ordinary comment, shown as the text it is.
import type { Cell } from '../../shared/wire';
import type { PullTarget } from '../targets';
import { isCommitHashText } from './revisions';

export interface CommentAnchor {
  table: string;
  /** The row's primary-key values by column name. */
  key: Record<string, Cell>;
  /** The cell's column; absent for a comment on the whole row. */
  column?: string;
  /** The pull's head commit the comment was written at. */
  commit: string;
  /** A reply: the comment id of the thread's first comment. */
  replyTo?: string;
  /** A suggested new value for the cell (only with `column`). */
  suggestion?: { value: Cell };
  /** Records that the suggestion of this comment id was applied (as commit `commit`). */
  applied?: string;
}

/** Comment on a row or a cell of a pull's Changes view: where, and the head commit it shows. */
export interface RowCommentRequest {
  pull: PullTarget;
  anchor: Pick<CommentAnchor, 'table' | 'key' | 'column' | 'commit'>;
  /** Suggest a Value… on the cell: the value the grid shows there now (the prompt starts from it). */
  suggest?: { value: Cell };
}

const PREFIX = '[vdb-anchor]: https://anchor.invalid/v1/';
const LINE = /^\[vdb-anchor\]: https:\/\/anchor\.invalid\/v1\/([A-Za-z0-9_-]+)[ \t]*$/;
/** Longest key value, column or table shown in the readable line; the anchor keeps them whole. */
const SHOWN_MAX = 40;

function toBase64Url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

function fromBase64Url(b64: string): string | undefined {
  const bytes = Buffer.from(b64, 'base64url');
  const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  try {
    return text.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Markdown-escapes text for the readable line: ASCII punctuation backslashed, line breaks shown as ⏎. */
export function markdownText(text: string, max = SHOWN_MAX): string {
  const chars = Array.from(text.replace(/\r\n|\r|\n/g, '⏎'));
  const cut = chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
  return cut.replace(/[\\`*_{}[\]()#+\-.!|<>~&"'=:$^@%;,/?]/g, (c) => `\\${c}`);
}

/** The readable line: **table** · column = value … · column (escaped markdown). */
export function anchorLabel(a: Pick<CommentAnchor, 'table' | 'key' | 'column'>): string {
  const key = Object.entries(a.key)
    .map(([c, v]) => `${markdownText(c)} \\= ${v === null ? 'NULL' : markdownText(v)}`)
    .join(', ');
  return [`**${markdownText(a.table)}**`, key, a.column !== undefined ? `column ${markdownText(a.column)}` : 'row'].join(' · ');
}

/** Longest suggested value shown whole in the readable block; the anchor keeps it whole. */
const SUGGESTION_SHOWN_MAX = 1000;

/**
 * What a web reader sees of a suggested value, right after the readable line (before the comment's
 * own text, so an unclosed code fence there cannot swallow it): NULL and empty text in words, any
 * other value in a fenced code block longer than any backtick run in it, so it shows literally.
 */
export function suggestionBlock(value: Cell): string {
  if (value === null) return 'Suggested value: *NULL*';
  if (value === '') return 'Suggested value: *empty text*';
  const chars = Array.from(value);
  const shown = chars.length > SUGGESTION_SHOWN_MAX ? chars.slice(0, SUGGESTION_SHOWN_MAX).join('') : value;
  const longest = Math.max(0, ...(shown.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const cut = shown === value ? '' : `\n*(the first ${SUGGESTION_SHOWN_MAX} of ${chars.length} characters)*`;
  return `Suggested value:\n\n${fence}text\n${shown.replace(/\r\n?/g, '\n')}\n${fence}${cut}`;
}

/** A comment body carrying `anchor` before `text`. */
export function anchoredBody(anchor: CommentAnchor, text: string): string {
  const json = JSON.stringify(anchor);
  const suggestion = anchor.suggestion !== undefined ? `\n\n${suggestionBlock(anchor.suggestion.value)}` : '';
  const lead = anchor.applied !== undefined ? 'Applied the suggestion on ' : anchor.replyTo !== undefined ? 'Reply on ' : '';
  return `${PREFIX}${toBase64Url(json)}\n${lead}${anchorLabel(anchor)}${suggestion}\n\n${text}`.trimEnd();
}

function isCell(v: unknown): v is Cell {
  return v === null || typeof v === 'string';
}

/** The anchor's JSON, checked field by field; undefined for anything else. */
export function readAnchor(raw: unknown): CommentAnchor | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const r = raw as Record<string, unknown>;
  const { table, key, column, commit, replyTo, suggestion, applied } = r;
  if (typeof table !== 'string' || table === '' || typeof commit !== 'string' || !isCommitHashText(commit)) return undefined;
  if (typeof key !== 'object' || key === null || Array.isArray(key)) return undefined;
  const entries = Object.entries(key as Record<string, unknown>);
  if (entries.length === 0 || !entries.every(([, v]) => isCell(v))) return undefined;
  if (column !== undefined && (typeof column !== 'string' || column === '')) return undefined;
  if (replyTo !== undefined && typeof replyTo !== 'string') return undefined;
  if (applied !== undefined && typeof applied !== 'string') return undefined;
  let s: CommentAnchor['suggestion'];
  if (suggestion !== undefined) {
    if (typeof suggestion !== 'object' || suggestion === null || !('value' in suggestion)) return undefined;
    const value = (suggestion as { value: unknown }).value;
    if (!isCell(value) || column === undefined) return undefined;
    s = { value };
  }
  return {
    table,
    key: Object.fromEntries(entries) as Record<string, Cell>,
    ...(column !== undefined ? { column } : {}),
    commit,
    ...(replyTo !== undefined ? { replyTo } : {}),
    ...(s ? { suggestion: s } : {}),
    ...(applied !== undefined ? { applied } : {}),
  };
}

export interface ParsedComment {
  /** Undefined for an ordinary comment, or one whose anchor does not parse. */
  anchor: CommentAnchor | undefined;
  /** The comment's text without the anchor and readable lines (the whole body when unanchored). */
  text: string;
}

/** Splits a comment body into its anchor and its text. */
export function parseAnchoredBody(body: string): ParsedComment {
  const nl = body.indexOf('\n');
  const first = nl < 0 ? body : body.slice(0, nl);
  const m = LINE.exec(first.replace(/\r$/, ''));
  if (!m) return { anchor: undefined, text: body };
  const json = fromBase64Url(m[1] as string);
  let anchor: CommentAnchor | undefined;
  try {
    anchor = json === undefined ? undefined : readAnchor(JSON.parse(json));
  } catch {
    anchor = undefined;
  }
  if (!anchor) return { anchor: undefined, text: body };
  // The readable line, a suggestion's block and the blank line after them are ours.
  const rest = nl < 0 ? '' : body.slice(nl + 1);
  const nl2 = rest.indexOf('\n');
  let after = nl2 < 0 ? '' : rest.slice(nl2 + 1);
  const block = anchor.suggestion !== undefined ? `\n${suggestionBlock(anchor.suggestion.value)}\n` : undefined;
  if (block !== undefined && (after.startsWith(block) || `${after}\n` === block)) after = after.slice(block.length);
  return { anchor, text: after.replace(/^\r?\n/, '') };
}

/** The same row (and cell, when both name one): table, key values and column equal. */
export function sameTarget(
  a: Pick<CommentAnchor, 'table' | 'key' | 'column'>,
  b: Pick<CommentAnchor, 'table' | 'key' | 'column'>,
): boolean {
  if (a.table !== b.table || a.column !== b.column) return false;
  const ka = Object.keys(a.key);
  return ka.length === Object.keys(b.key).length && ka.every((k) => k in b.key && a.key[k] === b.key[k]);
}
