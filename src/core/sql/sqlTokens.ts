// A lossless SQL tokenizer: every character of the input belongs to exactly one token, so
// joining the tokens' text gives the input back. Rewriters find what they need among the
// significant tokens (no spaces, no comments) and splice replacements in by offset, without
// ever looking inside strings, quoted identifiers or comments.
//
// The lexical rules are MySQL's (what people type at a Dolt server): '…' strings with \ escapes
// and doubled quotes, "…" (a string in MySQL, an identifier in SQLite: kept apart as
// 'dquoted'), `…` identifiers, comments `-- `, `#` and `/* */`.

export type SqlTokenKind =
  | 'space'
  | 'comment'
  /** '…' */
  | 'string'
  /** "…" */
  | 'dquoted'
  /** `…` */
  | 'bquoted'
  /** identifiers and keywords: a letter or _ then letters, digits, _ or $ */
  | 'word'
  | 'number'
  /** ( ) , ; . and any other single character, or a multi-character operator (<=, <>, !=, ||, ::) */
  | 'punct';

export interface SqlToken {
  kind: SqlTokenKind;
  text: string;
  /** [start, end) in the input. */
  start: number;
  end: number;
  /** A quoted token whose closing quote is missing. */
  unterminated?: boolean;
}

const OPERATORS = ['<=>', '<=', '>=', '<>', '!=', '||', '&&', '<<', '>>', '::', ':=', '->>', '->'];

export function tokenize(sql: string): SqlToken[] {
  const out: SqlToken[] = [];
  const n = sql.length;
  let i = 0;
  const push = (kind: SqlTokenKind, end: number, unterminated = false): void => {
    const t: SqlToken = { kind, text: sql.slice(i, end), start: i, end };
    if (unterminated) t.unterminated = true;
    out.push(t);
    i = end;
  };
  while (i < n) {
    const ch = sql[i] as string;
    const next = sql[i + 1];
    if (/\s/.test(ch)) {
      let j = i + 1;
      while (j < n && /\s/.test(sql[j] as string)) j++;
      push('space', j);
    } else if ((ch === '-' && next === '-') || ch === '#') {
      const nl = sql.indexOf('\n', i);
      push('comment', nl === -1 ? n : nl);
    } else if (ch === '/' && next === '*') {
      const close = sql.indexOf('*/', i + 2);
      push('comment', close === -1 ? n : close + 2, close === -1);
    } else if (ch === "'" || ch === '"' || ch === '`') {
      const end = quotedEnd(sql, i, ch);
      push(ch === "'" ? 'string' : ch === '"' ? 'dquoted' : 'bquoted', end.end, end.unterminated);
    } else if (/[A-Za-z_\u0080-\uffff]/.test(ch)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[j] as string)) j++;
      push('word', j);
    } else if (/[0-9]/.test(ch) || (ch === '.' && next !== undefined && /[0-9]/.test(next) && !prevIsName(out))) {
      const m = /^(?:0x[0-9A-Fa-f]+|[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+\.)/.exec(sql.slice(i));
      push('number', i + (m ? m[0].length : 1));
    } else {
      const op = OPERATORS.find((o) => sql.startsWith(o, i));
      push('punct', i + (op ? op.length : 1));
    }
  }
  return out;
}

/** A `.5` after a name is member access (`t.5` is not valid anyway); after anything else a number. */
function prevIsName(out: SqlToken[]): boolean {
  const last = out[out.length - 1];
  return last !== undefined && (last.kind === 'word' || last.kind === 'bquoted' || last.kind === 'dquoted');
}

function quotedEnd(sql: string, start: number, quote: string): { end: number; unterminated: boolean } {
  let i = start + 1;
  while (i < sql.length) {
    const c = sql[i];
    if (c === '\\' && quote !== '`') {
      i += 2;
      continue;
    }
    if (c === quote) {
      if (sql[i + 1] === quote) {
        i += 2;
        continue;
      }
      return { end: i + 1, unterminated: false };
    }
    i++;
  }
  return { end: sql.length, unterminated: true };
}

/** Tokens that carry meaning: no spaces, no comments. */
export function significant(tokens: readonly SqlToken[]): SqlToken[] {
  return tokens.filter((t) => t.kind !== 'space' && t.kind !== 'comment');
}

const ESCAPES: Record<string, string> = { '0': '\0', b: '\b', n: '\n', r: '\r', t: '\t', Z: '\x1a' };

/** The value of a '…' or "…" token: quotes removed, doubled quotes and \ escapes undone. */
export function stringValue(tok: SqlToken): string {
  const q = tok.text[0] as string;
  const body = tok.text.slice(1, tok.unterminated ? undefined : -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === '\\' && i + 1 < body.length) {
      const e = body[++i] as string;
      out += ESCAPES[e] ?? e;
    } else if (c === q && body[i + 1] === q) {
      out += q;
      i++;
    } else {
      out += c;
    }
  }
  return out;
}

/** The name a word, `…` or "…" token stands for. */
export function identifierValue(tok: SqlToken): string {
  if (tok.kind === 'word') return tok.text;
  if (tok.kind === 'bquoted') return tok.text.slice(1, tok.unterminated ? undefined : -1).replace(/``/g, '`');
  if (tok.kind === 'dquoted') return tok.text.slice(1, tok.unterminated ? undefined : -1).replace(/""/g, '"');
  throw new Error(`not an identifier: ${tok.text}`);
}

/**
 * A string literal that reads back as `value`. MySQL treats a backslash as an escape and SQLite
 * does not, so the dialect says which reader the text is for.
 */
export function quoteSqlString(value: string, dialect: 'mysql' | 'sqlite'): string {
  const body = value.replace(/'/g, "''");
  return `'${dialect === 'mysql' ? body.replace(/\\/g, '\\\\') : body}'`;
}

/** An identifier quoted with double quotes (SQLite's standard form). */
export function quoteSqlIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Is `tok` the keyword `kw` (case-insensitive)? */
export function isKeyword(tok: SqlToken | undefined, kw: string): boolean {
  return tok !== undefined && tok.kind === 'word' && tok.text.toLowerCase() === kw.toLowerCase();
}

/** Index of the `)` that closes the `(` at `open` among `toks`, or -1. */
export function closingParen(toks: readonly SqlToken[], open: number): number {
  let depth = 0;
  for (let i = open; i < toks.length; i++) {
    const t = toks[i] as SqlToken;
    if (t.kind !== 'punct') continue;
    if (t.text === '(') depth++;
    else if (t.text === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Splits the tokens between `(` at `open` and its `)` at `close` into arguments at top-level commas. */
export function splitArguments(toks: readonly SqlToken[], open: number, close: number): SqlToken[][] {
  const args: SqlToken[][] = [];
  let cur: SqlToken[] = [];
  let depth = 0;
  for (let i = open + 1; i < close; i++) {
    const t = toks[i] as SqlToken;
    if (t.kind === 'punct' && t.text === '(') depth++;
    if (t.kind === 'punct' && t.text === ')') depth--;
    if (depth === 0 && t.kind === 'punct' && t.text === ',') {
      args.push(cur);
      cur = [];
    } else {
      cur.push(t);
    }
  }
  if (cur.length > 0 || args.length > 0) args.push(cur);
  return args;
}

export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * Applies non-overlapping edits (any order) to `text`. An insertion (start = end) at the start of
 * a replaced range lands before the replacement.
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  let limit = Infinity;
  for (const e of sorted) {
    if (e.end > limit) throw new Error('overlapping edits');
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
    limit = e.start;
  }
  return out;
}
