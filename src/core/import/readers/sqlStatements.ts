// A streaming splitter and a small parser for the SQL an import file holds: CREATE TABLE and
// INSERT/REPLACE ... VALUES, in MySQL's lexical rules (what mysqldump and Dolt's `dolt dump` write).
// Hand-written rather than node-sql-parser because dumps hold megabyte-long INSERTs, and a
// generic AST for each would cost far more than the values we need.

/** Largest single statement read into memory; dumps split inserts far below this. */
export const MAX_SQL_STATEMENT_CHARS = 64 * 1024 * 1024;

export interface SqlStatement {
  text: string;
  /** 1-based line of the statement's first character. */
  line: number;
}

export class SqlSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly kind: 'syntax' | 'unsupported' | 'too-large' = 'syntax',
  ) {
    super(message);
  }
}

const enum S {
  Normal,
  Single,
  Double,
  Backtick,
  LineComment,
  BlockComment,
}

/** Splits a stream of text into statements at top-level `;`, dropping comments. */
export class SqlStatementSplitter {
  private state = S.Normal;
  private escaped = false;
  private buf = '';
  private pending = '';
  private line = 1;
  private startLine = 0; // 0: statement has no non-blank character yet

  push(chunk: string): SqlStatement[] {
    const text = this.pending + chunk;
    // Keep the last two characters back: `-- `, `/*` and `*/` need to see what follows.
    const hold = Math.min(2, text.length);
    this.pending = text.slice(text.length - hold);
    return this.scan(text, text.length - hold);
  }

  end(): SqlStatement[] {
    const out = this.scan(this.pending, this.pending.length);
    this.pending = '';
    if (this.state === S.Single || this.state === S.Double || this.state === S.Backtick) {
      throw new SqlSyntaxError('a quoted string or name is never closed. Close the quote.', this.startLine || this.line);
    }
    if (this.state === S.BlockComment) {
      throw new SqlSyntaxError('a /* comment is never closed. Close it with */.', this.line);
    }
    if (this.startLine !== 0 && this.buf.trim() !== '') out.push({ text: this.buf, line: this.startLine });
    this.buf = '';
    this.startLine = 0;
    return out;
  }

  private scan(text: string, end: number): SqlStatement[] {
    const out: SqlStatement[] = [];
    let seg = 0; // start of the slice still to be appended to buf
    let i = 0;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) this.line++;
      switch (this.state) {
        case S.Normal:
          if (c === 59 /* ; */) {
            this.buf += text.slice(seg, i);
            if (this.startLine !== 0) out.push({ text: this.buf, line: this.startLine });
            this.buf = '';
            this.startLine = 0;
            seg = i + 1;
            continue;
          }
          if (this.startLine === 0 && c > 32) this.startLine = this.line;
          if (c === 39) this.state = S.Single;
          else if (c === 34) this.state = S.Double;
          else if (c === 96) this.state = S.Backtick;
          else if (c === 35 /* # */ || (c === 45 && text.charCodeAt(i + 1) === 45 && isSpaceOrEnd(text, i + 2))) {
            this.buf += text.slice(seg, i) + ' ';
            if (this.buf.trim() === '') this.startLine = 0;
            this.state = S.LineComment;
          } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
            this.buf += text.slice(seg, i) + ' ';
            if (this.buf.trim() === '') this.startLine = 0;
            this.state = S.BlockComment;
            i++;
          }
          break;
        case S.Single:
        case S.Double:
          if (this.escaped) this.escaped = false;
          else if (c === 92) this.escaped = true;
          else if (c === (this.state === S.Single ? 39 : 34)) this.state = S.Normal;
          break;
        case S.Backtick:
          if (c === 96) this.state = S.Normal;
          break;
        case S.LineComment:
          if (c === 10) {
            this.state = S.Normal;
            seg = i + 1;
          }
          break;
        case S.BlockComment:
          if (c === 42 && text.charCodeAt(i + 1) === 47) {
            this.state = S.Normal;
            i++;
            seg = i + 1;
          }
          break;
      }
    }
    if (this.state !== S.LineComment && this.state !== S.BlockComment) this.buf += text.slice(seg, end);
    if (this.buf.length > MAX_SQL_STATEMENT_CHARS) {
      throw new SqlSyntaxError(
        `the statement starting here is over ${MAX_SQL_STATEMENT_CHARS / 1024 / 1024} MiB. Split it into several INSERT statements (mysqldump --net-buffer-length).`,
        this.startLine || this.line,
        'too-large',
      );
    }
    return out;
  }
}

function isSpaceOrEnd(text: string, i: number): boolean {
  if (i >= text.length) return true;
  const c = text.charCodeAt(i);
  return c <= 32;
}

// ---------------------------------------------------------------------------------------------
// Tokens

type Token =
  | { kind: 'word'; text: string; upper: string } // keyword or bare identifier
  | { kind: 'quoted'; text: string } // `name`
  | { kind: 'string'; text: string }
  | { kind: 'number'; text: string }
  | { kind: 'punct'; text: string };

export function tokenize(sql: string, line: number): Token[] {
  const tokens: Token[] = [];
  const n = sql.length;
  let i = 0;
  while (i < n) {
    const c = sql.charCodeAt(i);
    if (c <= 32) {
      i++;
      continue;
    }
    if (c === 39 || c === 34) {
      const [text, next] = readString(sql, i, c, line);
      tokens.push({ kind: 'string', text });
      i = next;
      continue;
    }
    if (c === 96) {
      let text = '';
      let j = i + 1;
      for (;;) {
        const k = sql.indexOf('`', j);
        if (k < 0) throw new SqlSyntaxError('a `quoted name` is never closed.', line);
        text += sql.slice(j, k);
        if (sql.charCodeAt(k + 1) === 96) {
          text += '`';
          j = k + 2;
          continue;
        }
        i = k + 1;
        break;
      }
      tokens.push({ kind: 'quoted', text });
      continue;
    }
    if (isDigit(c) || (c === 46 && isDigit(sql.charCodeAt(i + 1)))) {
      const m = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(sql.slice(i, i + 400));
      const text = m ? m[0] : sql[i]!;
      const after = sql.charCodeAt(i + text.length);
      if (isWordChar(after)) {
        // 0x1F, 1e (bad), 123abc: an identifier or hex literal, read as a word
        const w = readWord(sql, i);
        tokens.push({ kind: 'word', text: w, upper: w.toUpperCase() });
        i += w.length;
        continue;
      }
      tokens.push({ kind: 'number', text });
      i += text.length;
      continue;
    }
    if (isWordChar(c)) {
      const w = readWord(sql, i);
      tokens.push({ kind: 'word', text: w, upper: w.toUpperCase() });
      i += w.length;
      continue;
    }
    tokens.push({ kind: 'punct', text: sql[i]! });
    i++;
  }
  return tokens;
}

function readWord(sql: string, i: number): string {
  let j = i;
  while (j < sql.length && isWordChar(sql.charCodeAt(j))) j++;
  return sql.slice(i, j);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c > 127;
}

const ESCAPES: Record<string, string> = { '0': '\0', b: '\b', n: '\n', r: '\r', t: '\t', Z: '\x1a' };

function readString(sql: string, start: number, quote: number, line: number): [string, number] {
  let out = '';
  let i = start + 1;
  let seg = i;
  for (;;) {
    if (i >= sql.length) throw new SqlSyntaxError('a quoted string is never closed. Close the quote.', line);
    const c = sql.charCodeAt(i);
    if (c === 92) {
      out += sql.slice(seg, i);
      const e = sql[i + 1] ?? '';
      // MySQL keeps the backslash before % and _ (they are LIKE escapes).
      out += ESCAPES[e] ?? (e === '%' || e === '_' ? '\\' + e : e);
      i += 2;
      seg = i;
      continue;
    }
    if (c === quote) {
      if (sql.charCodeAt(i + 1) === quote) {
        out += sql.slice(seg, i + 1);
        i += 2;
        seg = i;
        continue;
      }
      out += sql.slice(seg, i);
      return [out, i + 1];
    }
    i++;
  }
}

// ---------------------------------------------------------------------------------------------
// Statements

export interface CreateTable {
  kind: 'create';
  table: string;
  columns: string[];
  types: Record<string, string>;
  primaryKeys: string[];
}

export interface InsertRows {
  kind: 'insert';
  table: string;
  /** The statement's column list, when it has one. */
  columns: string[] | undefined;
  tuples: (string | null)[][];
}

export type ParsedStatement = CreateTable | InsertRows | { kind: 'ignored' };

const IGNORED = new Set(['SET', 'LOCK', 'UNLOCK', 'DROP', 'USE', 'START', 'BEGIN', 'COMMIT', 'ROLLBACK']);

export function parseStatement(stmt: SqlStatement): ParsedStatement {
  const tokens = tokenize(stmt.text, stmt.line);
  const p = new TokenCursor(tokens, stmt.line);
  const first = p.peek();
  if (!first) return { kind: 'ignored' };
  if (first.kind !== 'word') throw new SqlSyntaxError(`unexpected "${first.text}" at the start of a statement.`, stmt.line);
  if (first.upper === 'INSERT' || first.upper === 'REPLACE') return parseInsert(p);
  if (first.upper === 'CREATE') {
    p.next();
    p.acceptWord('TEMPORARY');
    if (!p.acceptWord('TABLE')) return { kind: 'ignored' }; // CREATE DATABASE / INDEX / VIEW …
    return parseCreate(p);
  }
  if (IGNORED.has(first.upper)) return { kind: 'ignored' };
  throw new SqlSyntaxError(
    `the file has a ${first.upper} statement; a SQL import reads only CREATE TABLE and INSERT statements. Remove it, or run it as SQL after the import.`,
    stmt.line,
    'unsupported',
  );
}

class TokenCursor {
  private i = 0;
  constructor(
    private readonly tokens: Token[],
    readonly line: number,
  ) {}
  peek(offset = 0): Token | undefined {
    return this.tokens[this.i + offset];
  }
  next(): Token | undefined {
    return this.tokens[this.i++];
  }
  done(): boolean {
    return this.i >= this.tokens.length;
  }
  acceptWord(upper: string): boolean {
    const t = this.peek();
    if (t?.kind === 'word' && t.upper === upper) {
      this.i++;
      return true;
    }
    return false;
  }
  acceptPunct(text: string): boolean {
    const t = this.peek();
    if (t?.kind === 'punct' && t.text === text) {
      this.i++;
      return true;
    }
    return false;
  }
  expectPunct(text: string, what: string): void {
    if (!this.acceptPunct(text)) throw this.error(`expected "${text}" ${what}`);
  }
  error(problem: string): SqlSyntaxError {
    const t = this.peek();
    return new SqlSyntaxError(`${problem}, found ${t ? `"${t.text}"` : 'the end of the statement'}.`, this.line);
  }
  /** A name, possibly qualified (`db`.`t` → t). */
  name(what: string): string {
    let t = this.next();
    if (!t || (t.kind !== 'word' && t.kind !== 'quoted' && t.kind !== 'string')) {
      this.i--;
      throw this.error(`expected ${what}`);
    }
    while (this.acceptPunct('.')) {
      const n = this.next();
      if (!n || (n.kind !== 'word' && n.kind !== 'quoted')) throw this.error(`expected ${what} after "."`);
      t = n;
    }
    return t.text;
  }
  nameList(what: string): string[] {
    this.expectPunct('(', `before the ${what} list`);
    const names: string[] = [];
    do {
      names.push(this.name(what));
      // index prefix lengths: KEY (name(10))
      if (this.acceptPunct('(')) this.skipGroup();
      this.acceptWord('ASC') || this.acceptWord('DESC');
    } while (this.acceptPunct(','));
    this.expectPunct(')', `after the ${what} list`);
    return names;
  }
  /** Skips to the `)` that closes an already-opened `(`. */
  skipGroup(): Token[] {
    const inner: Token[] = [];
    let depth = 1;
    for (;;) {
      const t = this.next();
      if (!t) throw this.error('expected ")"');
      if (t.kind === 'punct' && t.text === '(') depth++;
      if (t.kind === 'punct' && t.text === ')' && --depth === 0) return inner;
      inner.push(t);
    }
  }
}

function parseInsert(p: TokenCursor): InsertRows {
  p.next(); // INSERT | REPLACE
  while (p.acceptWord('LOW_PRIORITY') || p.acceptWord('DELAYED') || p.acceptWord('HIGH_PRIORITY') || p.acceptWord('IGNORE'));
  p.acceptWord('INTO');
  const table = p.name('a table name');
  let columns: string[] | undefined;
  if (p.peek()?.kind === 'punct' && p.peek()?.text === '(') columns = p.nameList('column');
  if (!p.acceptWord('VALUES') && !p.acceptWord('VALUE')) {
    throw new SqlSyntaxError(
      `INSERT INTO ${table} must use VALUES (...); INSERT ... SELECT and INSERT ... SET are not read by an import.`,
      p.line,
      'unsupported',
    );
  }
  const tuples: (string | null)[][] = [];
  do {
    p.expectPunct('(', 'to start a row of values');
    const tuple: (string | null)[] = [];
    if (!p.acceptPunct(')')) {
      do {
        tuple.push(readValue(p, tuples.length, tuple.length, columns));
      } while (p.acceptPunct(','));
      p.expectPunct(')', 'to end a row of values');
    }
    tuples.push(tuple);
  } while (p.acceptPunct(','));
  if (p.acceptWord('ON')) {
    // ON DUPLICATE KEY UPDATE …: the import operation decides how rows meet existing ones.
    while (!p.done()) p.next();
  }
  if (!p.done()) throw p.error('expected the end of the INSERT statement');
  return { kind: 'insert', table, columns, tuples };
}

/** Thrown for a value that is not a literal; the reader adds row and column. */
export class SqlValueError extends Error {
  constructor(
    message: string,
    readonly tupleIndex: number,
    readonly valueIndex: number,
    readonly line: number,
    /** From the INSERT's column list, when it has one. */
    readonly column: string | undefined,
  ) {
    super(message);
  }
}

function readValue(p: TokenCursor, tupleIndex: number, valueIndex: number, columns: string[] | undefined): string | null {
  const fail = (message: string): SqlValueError => new SqlValueError(message, tupleIndex, valueIndex, p.line, columns?.[valueIndex]);
  let t = p.next();
  let sign = '';
  if (t?.kind === 'punct' && (t.text === '-' || t.text === '+')) {
    sign = t.text === '-' ? '-' : '';
    t = p.next();
    if (t?.kind !== 'number') throw fail('expected a number after the sign');
  }
  if (!t) throw fail('expected a value');
  if (t.kind === 'number') return sign + t.text;
  if (t.kind === 'string') return t.text;
  if (t.kind === 'word') {
    if (t.upper === 'NULL') return null;
    if (t.upper === 'TRUE') return '1';
    if (t.upper === 'FALSE') return '0';
    // A charset introducer: _utf8mb4'text'
    if (t.text.startsWith('_') && p.peek()?.kind === 'string') return p.next()!.text;
  }
  throw fail(
    `the value starting "${t.text}" is not a literal (a string, number, NULL, TRUE or FALSE). An import reads values, not expressions: replace it with its value`,
  );
}

const TYPE_STOP = new Set([
  'NOT', 'NULL', 'DEFAULT', 'PRIMARY', 'KEY', 'UNIQUE', 'AUTO_INCREMENT', 'AUTOINCREMENT', 'COMMENT', 'COLLATE',
  'CHARACTER', 'CHARSET', 'REFERENCES', 'CHECK', 'GENERATED', 'AS', 'ON', 'CONSTRAINT', 'VISIBLE', 'INVISIBLE', 'SRID',
]);
const CONSTRAINT_START = new Set(['PRIMARY', 'KEY', 'INDEX', 'UNIQUE', 'CONSTRAINT', 'FOREIGN', 'CHECK', 'FULLTEXT', 'SPATIAL']);

function parseCreate(p: TokenCursor): CreateTable {
  if (p.acceptWord('IF')) {
    if (!p.acceptWord('NOT') || !p.acceptWord('EXISTS')) throw p.error('expected IF NOT EXISTS');
  }
  const table = p.name('a table name');
  if (p.acceptWord('LIKE') || p.acceptWord('AS') || p.acceptWord('SELECT')) {
    throw new SqlSyntaxError(`CREATE TABLE ${table} must list its columns; CREATE TABLE … LIKE/AS is not read by an import.`, p.line, 'unsupported');
  }
  p.expectPunct('(', 'before the column definitions');
  const columns: string[] = [];
  const types: Record<string, string> = {};
  const primaryKeys: string[] = [];
  do {
    const t = p.peek();
    if (t?.kind === 'word' && CONSTRAINT_START.has(t.upper)) {
      if (p.acceptWord('CONSTRAINT') && !(p.peek()?.kind === 'word' && CONSTRAINT_START.has((p.peek() as { upper: string }).upper))) p.name('a constraint name');
      if (p.acceptWord('PRIMARY')) {
        p.acceptWord('KEY');
        primaryKeys.push(...p.nameList('primary key column'));
      }
      skipDefinition(p);
      continue;
    }
    const name = p.name('a column name');
    const typeParts: string[] = [];
    while (p.peek()?.kind === 'word' && !TYPE_STOP.has((p.peek() as { upper: string }).upper)) {
      typeParts.push((p.next() as { text: string }).text.toLowerCase());
      if (p.acceptPunct('(')) {
        const args = p.skipGroup().filter((x) => !(x.kind === 'punct' && x.text === ','));
        typeParts[typeParts.length - 1] += `(${args.map((a) => (a.kind === 'string' ? `'${a.text.replace(/'/g, "''")}'` : a.text)).join(',')})`;
      }
    }
    if (typeParts.length === 0) throw p.error(`expected a type for column ${name}`);
    columns.push(name);
    types[name] = typeParts.join(' ');
    // Column-level PRIMARY KEY, anywhere in the attribute list.
    let depth = 0;
    for (;;) {
      const a = p.peek();
      if (!a) break;
      if (a.kind === 'punct' && a.text === '(') depth++;
      if (a.kind === 'punct' && a.text === ')') {
        if (depth === 0) break;
        depth--;
      }
      if (depth === 0 && a.kind === 'punct' && a.text === ',') break;
      if (a.kind === 'word' && a.upper === 'PRIMARY') primaryKeys.push(name);
      p.next();
    }
  } while (p.acceptPunct(','));
  p.expectPunct(')', 'after the column definitions');
  return { kind: 'create', table, columns, types, primaryKeys };
}

/** Skips the rest of one table-level definition, up to the `,` or `)` that ends it. */
function skipDefinition(p: TokenCursor): void {
  let depth = 0;
  for (;;) {
    const a = p.peek();
    if (!a) return;
    if (a.kind === 'punct' && a.text === '(') depth++;
    if (a.kind === 'punct' && a.text === ')') {
      if (depth === 0) return;
      depth--;
    }
    if (depth === 0 && a.kind === 'punct' && a.text === ',') return;
    p.next();
  }
}
