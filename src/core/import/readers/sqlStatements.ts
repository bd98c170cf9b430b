// A streaming splitter and a small parser for the SQL an import file holds: CREATE TABLE and
// INSERT/REPLACE ... VALUES, in MySQL's lexical rules (what mysqldump and Dolt's `dolt dump` write).
// Where quotes and comments begin and end is decided by the one SQL tokenizer,
// src/core/sql/sqlTokens.ts (with MySQL's `-- ` rule); this file only splits its tokens into
// statements and reads CREATE TABLE and INSERT from them. No generic SQL parser: dumps hold
// megabyte-long INSERTs, and an AST for each would cost far more than the values we need.
import { scanToken, stringValue, identifierValue, tokenize as tokenizeSql, type ScanOptions, type SqlTokenKind } from '../../sql/sqlTokens';

const MYSQL: ScanOptions = { mysqlDashComments: true };

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

/**
 * How many characters after a token can change where it ends (`1e+5`, `<=>`, `-- `; see
 * scanToken): a token ending closer than this to the end of the text read so far waits for more.
 */
const LOOKAHEAD = 4;

/** Splits a stream of text into statements at top-level `;`, dropping comments. */
export class SqlStatementSplitter {
  /** Text not yet split into final tokens. */
  private text = '';
  /** The current statement's final tokens (comments as a space). */
  private parts: string[] = [];
  private partsLength = 0;
  /** Line at the start of `text`. */
  private line = 1;
  private startLine = 0; // 0: statement has no non-blank character yet
  private previous: SqlTokenKind | undefined;
  /**
   * When one token (a long string) spans chunks, it is scanned again only once the text has
   * doubled, so a huge or never-closed string costs linear time, not quadratic.
   */
  private waitFor = 0;

  push(chunk: string): SqlStatement[] {
    this.text += chunk;
    if (this.text.length < this.waitFor) {
      this.checkSize();
      return [];
    }
    return this.scan(false);
  }

  end(): SqlStatement[] {
    const out = this.scan(true);
    if (this.startLine !== 0 && this.parts.join('').trim() !== '') out.push({ text: this.parts.join(''), line: this.startLine });
    this.parts = [];
    this.partsLength = 0;
    this.startLine = 0;
    return out;
  }

  private scan(final: boolean): SqlStatement[] {
    const out: SqlStatement[] = [];
    const text = this.text;
    const limit = final ? text.length : text.length - LOOKAHEAD;
    // Lines are counted up to `counted` only when one is needed, so a long line is walked once.
    let counted = 0;
    const lineAt = (p: number): number => {
      for (; counted < p; counted++) if (text.charCodeAt(counted) === 10) this.line++;
      return this.line;
    };
    let i = 0;
    let seg = 0; // start of the text still to be appended to the statement
    while (i < text.length) {
      const t = scanToken(text, i, this.previous, MYSQL);
      if (t.end > limit && !final) break;
      if (t.unterminated) {
        this.append(text.slice(seg, i));
        if (t.kind === 'comment') throw new SqlSyntaxError('a /* comment is never closed. Close it with */.', lineAt(t.end));
        throw new SqlSyntaxError('a quoted string or name is never closed. Close the quote.', this.startLine || lineAt(i));
      }
      if (t.kind === 'punct' && t.end === i + 1 && text.charCodeAt(i) === 59 /* ; */) {
        this.append(text.slice(seg, i));
        if (this.startLine !== 0) out.push({ text: this.parts.join(''), line: this.startLine });
        this.parts = [];
        this.partsLength = 0;
        this.startLine = 0;
        seg = t.end;
      } else if (t.kind === 'comment') {
        this.append(text.slice(seg, i) + ' ');
        seg = t.end;
      } else if (this.startLine === 0 && t.kind !== 'space') {
        this.startLine = lineAt(i);
      }
      this.previous = t.kind;
      i = t.end;
    }
    this.append(text.slice(seg, i));
    lineAt(i);
    this.text = text.slice(i);
    this.waitFor = 2 * this.text.length;
    this.checkSize();
    return out;
  }

  private append(part: string): void {
    if (part === '') return;
    this.parts.push(part);
    this.partsLength += part.length;
  }

  private checkSize(): void {
    if (this.partsLength + this.text.length > MAX_SQL_STATEMENT_CHARS) {
      throw new SqlSyntaxError(
        `the statement starting here is over ${MAX_SQL_STATEMENT_CHARS / 1024 / 1024} MiB. Split it into several INSERT statements (mysqldump --net-buffer-length).`,
        this.startLine || this.line,
        'too-large',
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Tokens

type Token =
  | { kind: 'word'; text: string; upper: string } // keyword or bare identifier
  | { kind: 'quoted'; text: string } // `name`
  | { kind: 'string'; text: string }
  | { kind: 'number'; text: string }
  | { kind: 'punct'; text: string };

/** One statement's tokens as the parser reads them: no spaces or comments, strings and names decoded. */
export function tokenize(sql: string, line: number): Token[] {
  const tokens: Token[] = [];
  const all = tokenizeSql(sql, MYSQL);
  for (let k = 0; k < all.length; k++) {
    const t = all[k]!;
    switch (t.kind) {
      case 'space':
      case 'comment':
        break;
      case 'string':
      case 'dquoted': // a string in MySQL
        if (t.unterminated) throw new SqlSyntaxError('a quoted string is never closed. Close the quote.', line);
        tokens.push({ kind: 'string', text: stringValue(t) });
        break;
      case 'bquoted':
        if (t.unterminated) throw new SqlSyntaxError('a `quoted name` is never closed.', line);
        tokens.push({ kind: 'quoted', text: identifierValue(t) });
        break;
      case 'number': {
        // 0x1F, 123abc, 1e (bad): a hex literal or a name, read as a word (a value must be a plain number).
        const after = all[k + 1];
        if (/^0x/i.test(t.text) || (after?.kind === 'word' && after.start === t.end)) {
          let text = t.text;
          while (all[k + 1]?.start === all[k]!.end && (all[k + 1]!.kind === 'word' || all[k + 1]!.kind === 'number')) text += all[++k]!.text;
          tokens.push({ kind: 'word', text, upper: text.toUpperCase() });
        } else {
          tokens.push({ kind: 'number', text: t.text });
        }
        break;
      }
      case 'word':
        tokens.push({ kind: 'word', text: t.text, upper: t.text.toUpperCase() });
        break;
      case 'punct':
        // Single characters, as the parser reads them (the tokenizer joins operators such as `<=`).
        for (const ch of t.text) tokens.push({ kind: 'punct', text: ch });
        break;
    }
  }
  return tokens;
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
