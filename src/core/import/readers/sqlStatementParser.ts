// Reads the kinds of statement an SQL import takes, CREATE TABLE and INSERT/REPLACE ... VALUES,
// and DELETE of rows matched by literal values (`DELETE FROM t WHERE k = 1 AND j = 'x'`), from one
// statement's tokens; the rest of a dump (SET, LOCK, DROP ...) is ignored and anything else is
// refused. No generic SQL parser: dumps hold megabyte-long INSERTs, and an AST
// for each would cost far more than the values we need.
import { SqlSyntaxError, type SqlStatement } from './sqlStatements';
import { TokenCursor, tokenize, type Token } from './sqlTokenCursor';

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

/** `DELETE FROM table WHERE column = literal [AND …]`: the rows whose columns equal the values. */
export interface DeleteRows {
  kind: 'delete';
  table: string;
  match: { column: string; value: string | null }[];
}

export type ParsedStatement = CreateTable | InsertRows | DeleteRows | { kind: 'ignored' };

const IGNORED = new Set(['SET', 'LOCK', 'UNLOCK', 'DROP', 'USE', 'START', 'BEGIN', 'COMMIT', 'ROLLBACK']);

export function parseStatement(stmt: SqlStatement): ParsedStatement {
  const tokens = tokenize(stmt.text, stmt.line);
  const p = new TokenCursor(tokens, stmt.line);
  const first = p.peek();
  if (!first) return { kind: 'ignored' };
  if (first.kind !== 'word') throw new SqlSyntaxError(`unexpected "${first.text}" at the start of a statement.`, stmt.line);
  if (first.upper === 'INSERT' || first.upper === 'REPLACE') return parseInsert(p);
  if (first.upper === 'DELETE') return parseDelete(p);
  if (first.upper === 'CREATE') {
    p.next();
    p.acceptWord('TEMPORARY');
    if (!p.acceptWord('TABLE')) return { kind: 'ignored' }; // CREATE DATABASE / INDEX / VIEW …
    return parseCreate(p);
  }
  if (IGNORED.has(first.upper)) return { kind: 'ignored' };
  throw new SqlSyntaxError(
    `the file has a ${first.upper} statement; a SQL import reads only CREATE TABLE, INSERT and DELETE … WHERE column = value statements. Remove it, or run it as SQL after the import.`,
    stmt.line,
    'unsupported',
  );
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

const DELETE_FORM = 'a SQL import deletes rows only as DELETE FROM table WHERE column = value [AND column = value …]';

function parseDelete(p: TokenCursor): DeleteRows {
  p.next(); // DELETE
  while (p.acceptWord('LOW_PRIORITY') || p.acceptWord('QUICK') || p.acceptWord('IGNORE'));
  if (!p.acceptWord('FROM')) throw new SqlSyntaxError(`${DELETE_FORM}; FROM is missing.`, p.line, 'unsupported');
  const table = p.name('a table name');
  if (!p.acceptWord('WHERE'))
    throw new SqlSyntaxError(`${DELETE_FORM}; a DELETE without WHERE would empty ${table}.`, p.line, 'unsupported');
  const match: DeleteRows['match'] = [];
  do {
    const column = p.name('a column name');
    if (!p.acceptPunct('=')) throw new SqlSyntaxError(`${DELETE_FORM}; after ${column} comes "=" and a value.`, p.line, 'unsupported');
    const value = readValue(p, 0, match.length, undefined);
    if (value === null) throw new SqlSyntaxError(`${DELETE_FORM}; "${column} = NULL" matches no row.`, p.line, 'unsupported');
    match.push({ column, value });
  } while (p.acceptWord('AND'));
  if (!p.done()) throw new SqlSyntaxError(`${DELETE_FORM}; the statement goes on after the last value.`, p.line, 'unsupported');
  return { kind: 'delete', table, match };
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
  'NOT',
  'NULL',
  'DEFAULT',
  'PRIMARY',
  'KEY',
  'UNIQUE',
  'AUTO_INCREMENT',
  'AUTOINCREMENT',
  'COMMENT',
  'COLLATE',
  'CHARACTER',
  'CHARSET',
  'REFERENCES',
  'CHECK',
  'GENERATED',
  'AS',
  'ON',
  'CONSTRAINT',
  'VISIBLE',
  'INVISIBLE',
  'SRID',
]);
const CONSTRAINT_START = new Set(['PRIMARY', 'KEY', 'INDEX', 'UNIQUE', 'CONSTRAINT', 'FOREIGN', 'CHECK', 'FULLTEXT', 'SPATIAL']);

function parseCreate(p: TokenCursor): CreateTable {
  if (p.acceptWord('IF')) {
    if (!p.acceptWord('NOT') || !p.acceptWord('EXISTS')) throw p.error('expected IF NOT EXISTS');
  }
  const table = p.name('a table name');
  if (p.acceptWord('LIKE') || p.acceptWord('AS') || p.acceptWord('SELECT')) {
    throw new SqlSyntaxError(
      `CREATE TABLE ${table} must list its columns; CREATE TABLE … LIKE/AS is not read by an import.`,
      p.line,
      'unsupported',
    );
  }
  p.expectPunct('(', 'before the column definitions');
  const columns: string[] = [];
  const types: Record<string, string> = {};
  const primaryKeys: string[] = [];
  do {
    const t = p.peek();
    if (t?.kind === 'word' && CONSTRAINT_START.has(t.upper)) {
      if (p.acceptWord('CONSTRAINT') && !(p.peek()?.kind === 'word' && CONSTRAINT_START.has((p.peek() as { upper: string }).upper)))
        p.name('a constraint name');
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
        typeParts[typeParts.length - 1] +=
          `(${args.map((a) => (a.kind === 'string' ? `'${a.text.replace(/'/g, "''")}'` : a.text)).join(',')})`;
      }
    }
    if (typeParts.length === 0) throw p.error(`expected a type for column ${name}`);
    columns.push(name);
    types[name] = typeParts.join(' ');
    // Column-level PRIMARY KEY, anywhere in the attribute list.
    skipDefinition(p, (a) => {
      if (a.kind === 'word' && a.upper === 'PRIMARY') primaryKeys.push(name);
    });
  } while (p.acceptPunct(','));
  p.expectPunct(')', 'after the column definitions');
  return { kind: 'create', table, columns, types, primaryKeys };
}

/**
 * Skips the rest of one definition (a column's attributes, a table-level constraint), up to the
 * `,` or `)` that ends it, showing each token it skips to `seen`.
 */
function skipDefinition(p: TokenCursor, seen?: (t: Token) => void): void {
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
    seen?.(a);
    p.next();
  }
}
