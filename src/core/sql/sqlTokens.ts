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

/** Sticky: matched at lastIndex without copying the rest of the text. */
const NUMBER = /(?:0x[0-9A-Fa-f]+|[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+\.)/y;

export interface ScanOptions {
  /**
   * MySQL's rule: `--` starts a comment only before whitespace, a control character or the end
   * (so a dump's `5--3` is 5 - -3). Off by default (SQLite takes every `--` as a comment); on in
   * MYSQL_SCAN, which everything reading a user's query uses.
   */
  readonly mysqlDashComments?: boolean;
  /**
   * SQLite's rule: a backslash inside quotes is an ordinary character. Off by default (MySQL reads
   * `\'` as an escaped quote). Reading text both ways shows where the two engines would disagree.
   */
  readonly noBackslashEscapes?: boolean;
}

/**
 * MySQL's lexical rules, as Dolt reads a query: where the client splits a cell into statements
 * (statements.ts), where the hub finds the one statement it runs and reads its literals
 * (src/hub/mysqlDialect.ts), and how an import reads a dump. One set, so they agree.
 */
export const MYSQL_SCAN: ScanOptions = Object.freeze({ mysqlDashComments: true });

/** SQLite's lexical rules: the text the hub hands its engine, after mysqlDialect.ts translated it. */
export const SQLITE_SCAN: ScanOptions = Object.freeze({ noBackslashEscapes: true });

/** The kind of one token and where it ends; `scanToken` is the one lexical rule of this module. */
export interface ScannedToken {
  kind: SqlTokenKind;
  /** Offset just past the token. */
  end: number;
  unterminated: boolean;
}

/**
 * The token that starts at `i` (< sql.length). `previous` is the kind of the token before it (a
 * `.5` after a name is member access, after anything else a number). Everything that reads SQL
 * text goes through here: tokenize() below, the notebook's statement splitter (statements.ts)
 * and the import's streaming statement splitter (src/core/import/readers/sqlStatements.ts).
 * A token's end depends on at most the 3 characters after it (`1e+5`, `<=>`, `-- `), which is
 * what a streaming caller must hold back.
 */
export function scanToken(sql: string, i: number, previous: SqlTokenKind | undefined, options: ScanOptions = {}): ScannedToken {
  // Character codes, not regexes: this runs for every token of megabyte-long dumps.
  const n = sql.length;
  const c = sql.charCodeAt(i);
  const next = sql.charCodeAt(i + 1); // NaN at the end
  if (isSpace(c)) {
    let j = i + 1;
    while (j < n && isSpace(sql.charCodeAt(j))) j++;
    return { kind: 'space', end: j, unterminated: false };
  }
  if ((c === 45 /* - */ && next === 45 && (!options.mysqlDashComments || i + 2 >= n || sql.charCodeAt(i + 2) <= 32)) || c === 35 /* # */) {
    const nl = sql.indexOf('\n', i);
    return { kind: 'comment', end: nl === -1 ? n : nl, unterminated: false };
  }
  if (c === 47 /* / */ && next === 42 /* * */) {
    const close = sql.indexOf('*/', i + 2);
    return { kind: 'comment', end: close === -1 ? n : close + 2, unterminated: close === -1 };
  }
  if (c === 39 /* ' */ || c === 34 /* " */ || c === 96 /* ` */) {
    const { end, unterminated } = quotedEnd(sql, i, sql[i] as string, options.noBackslashEscapes === true);
    return { kind: c === 39 ? 'string' : c === 34 ? 'dquoted' : 'bquoted', end, unterminated };
  }
  if (isWordStart(c)) {
    let j = i + 1;
    while (j < n && isWordPart(sql.charCodeAt(j))) j++;
    return { kind: 'word', end: j, unterminated: false };
  }
  if (isDigit(c) || (c === 46 /* . */ && isDigit(next) && !isName(previous))) {
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(sql);
    return { kind: 'number', end: i + (m ? m[0].length : 1), unterminated: false };
  }
  if (OPERATOR_START.includes(sql[i] as string)) {
    const op = OPERATORS.find((o) => sql.startsWith(o, i));
    if (op) return { kind: 'punct', end: i + op.length, unterminated: false };
  }
  return { kind: 'punct', end: i + 1, unterminated: false };
}

const OPERATOR_START = '<>!|&:-';

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c > 127 && /\s/.test(String.fromCharCode(c)));
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** A letter, _ or any non-ASCII character (that is not a space). */
function isWordStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c > 127;
}

function isWordPart(c: number): boolean {
  return isWordStart(c) || isDigit(c) || c === 36; /* $ */
}

export function tokenize(sql: string, options: ScanOptions = {}): SqlToken[] {
  const out: SqlToken[] = [];
  let i = 0;
  while (i < sql.length) {
    const { kind, end, unterminated } = scanToken(sql, i, out[out.length - 1]?.kind, options);
    const t: SqlToken = { kind, text: sql.slice(i, end), start: i, end };
    if (unterminated) t.unterminated = true;
    out.push(t);
    i = end;
  }
  return out;
}

/**
 * Whether `sql` has more than `max` tokens that carry meaning (spaces and comments not counted),
 * found without building them: a bound to check before tokenize() holds a token object for each.
 */
export function hasMoreTokensThan(sql: string, max: number, options: ScanOptions = {}): boolean {
  let count = 0;
  let previous: SqlTokenKind | undefined;
  for (let i = 0; i < sql.length;) {
    const { kind, end } = scanToken(sql, i, previous, options);
    if (kind !== 'space' && kind !== 'comment' && ++count > max) return true;
    previous = kind;
    i = end;
  }
  return false;
}

/** A `.5` after a name is member access (`t.5` is not valid anyway); after anything else a number. */
function isName(kind: SqlTokenKind | undefined): boolean {
  return kind === 'word' || kind === 'bquoted' || kind === 'dquoted';
}

function quotedEnd(sql: string, start: number, quote: string, noBackslashEscapes: boolean): { end: number; unterminated: boolean } {
  const q = quote.charCodeAt(0);
  const n = sql.length;
  let i = start + 1;
  while (i < n) {
    const c = sql.charCodeAt(i);
    if (c === 92 /* \\ */ && q !== 96 /* ` */ && !noBackslashEscapes) {
      i += 2;
      continue;
    }
    if (c === q) {
      if (sql.charCodeAt(i + 1) === q) {
        i += 2;
        continue;
      }
      return { end: i + 1, unterminated: false };
    }
    i++;
  }
  return { end: n, unterminated: true };
}

/** Tokens that carry meaning: no spaces, no comments. */
export function significant(tokens: readonly SqlToken[]): SqlToken[] {
  return tokens.filter((t) => t.kind !== 'space' && t.kind !== 'comment');
}

const ESCAPES: Record<string, string> = { '0': '\0', b: '\b', n: '\n', r: '\r', t: '\t', Z: '\x1a' };

/**
 * The value of a '…' or "…" token: quotes removed, doubled quotes and \ escapes undone (MySQL's
 * rules; with `noBackslashEscapes`, SQLite's: a backslash is an ordinary character).
 */
export function stringValue(tok: SqlToken, options: ScanOptions = {}): string {
  const q = tok.text[0] as string;
  const body = tok.text.slice(1, tok.unterminated ? undefined : -1);
  if (options.noBackslashEscapes === true) return body.split(q + q).join(q);
  if (!body.includes('\\') && !body.includes(q)) return body;
  let out = '';
  let seg = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === '\\' && i + 1 < body.length) {
      const e = body[i + 1] as string;
      // MySQL keeps the backslash before % and _ (they are LIKE escapes).
      out += body.slice(seg, i) + (ESCAPES[e] ?? (e === '%' || e === '_' ? `\\${e}` : e));
      seg = ++i + 1;
    } else if (c === q && body[i + 1] === q) {
      out += body.slice(seg, i + 1);
      seg = ++i + 1;
    }
  }
  return out + body.slice(seg);
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
 * a replaced range lands before the replacement. Linear in the text and the edits: a query with
 * tens of thousands of rewritten calls is not copied once per edit.
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  // Ascending by start; at one position, insertions (empty ranges) before a replacement, and
  // among equal ranges the later-given edit first (as applying them from the end would).
  const sorted = edits
    .map((e, n) => ({ e, n }))
    .sort((a, b) => a.e.start - b.e.start || a.e.end - b.e.end || b.n - a.n)
    .map((x) => x.e);
  const out: string[] = [];
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) throw new Error('overlapping edits');
    out.push(text.slice(at, e.start), e.text);
    at = e.end;
  }
  out.push(text.slice(at));
  return out.join('');
}

/** For each `(` among `toks`, the index of its `)` (-1 when never closed); other entries -1. One pass. */
export function matchingParens(toks: readonly SqlToken[]): Int32Array {
  const close = new Int32Array(toks.length).fill(-1);
  const open: number[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i] as SqlToken;
    if (t.kind !== 'punct') continue;
    if (t.text === '(') open.push(i);
    else if (t.text === ')') {
      const o = open.pop();
      if (o !== undefined) close[o] = i;
    }
  }
  return close;
}
