// Every SQL statement the review features (history, changes, pull request review, conflict
// preview, row history and blame) send, in Dolt's own dialect, and nothing else. Read
// docs/architecture.md ("Review: history and diffs") before adding one.
//
// Rules kept here, so no view has to know them:
// - Revisions are checked by ./revisions before any text is built (a RevisionError otherwise).
// - Names and values go through ../sql/quote. Dolt's table functions (DOLT_DIFF, DOLT_LOG, ...)
//   take literal arguments only, so their arguments are plain '...' literals; text that would
//   need quote.ts's CAST form (a backslash or a control character) is refused for them.
// - DOLT_LOG takes its revision first: Dolt drops any argument that contains `--` or follows one
//   from its revisions, so a ref containing `--` is refused there (pass its hash instead).
// - Every paged query asks for one row more than the page, so the parser can tell "more" from
//   "exactly full" without a count.
// - Each query says which API `ref` it must be sent at (`at`): the ref itself for queries that read
//   at a ref (dolt_history_<t>, dolt_blame_<t>, dolt_log, DESCRIBE), the new side for table
//   functions (they name their revisions; any existing ref would do).
import type { Cell } from '../../shared/wire';
import { SqlInputError, quoteIdentifier, sqlCount, sqlString, sqlValue } from '../sql/quote';
import { columnClass, type TableColumnInfo } from '../sql/tableQuery';
import { RevisionError, checkPair, isCommitHashText, parsePlainRevision, parseRevision, sendAtFor, type RevisionPair } from './revisions';

export interface DoltQuery {
  sql: string;
  /** The API `ref` to send the query at. */
  at: string;
}

/** A page by offset; the query asks for `pageSize + 1` rows. */
export interface OffsetPage {
  pageSize: number;
  offset?: number;
}

function pageLimit(pageSize: number): string {
  sqlCount(pageSize, 'page size');
  if (pageSize < 1) throw new SqlInputError('A page holds at least one row.');
  return sqlCount(pageSize + 1, 'page size');
}

function limitOffset(page: OffsetPage): string {
  const offset = sqlCount(page.offset ?? 0, 'offset');
  return ` LIMIT ${pageLimit(page.pageSize)}${offset === '0' ? '' : ` OFFSET ${offset}`}`;
}

/** A plain '...' literal for a table-function argument, or an error saying why it cannot be one. */
function literalArg(text: string, what: string): string {
  if (typeof text !== 'string' || text === '') throw new SqlInputError(`The ${what} cannot be empty.`);
  const literal = sqlString(text);
  if (!literal.startsWith("'")) {
    throw new SqlInputError(
      `Dolt's table functions take only plain literals, and the ${what} ${JSON.stringify(text)} holds a backslash or a control character.`,
    );
  }
  return literal;
}

function revisionArg(text: string): string {
  return literalArg(parseRevision(text).text, 'revision');
}

function pairArgs(pair: RevisionPair): string {
  checkPair(pair);
  if (pair.kind === 'twoDot') return `${revisionArg(pair.from)}, ${revisionArg(pair.to)}`;
  return literalArg(`${pair.base}...${pair.head}`, 'revision range');
}

function tableArg(table: string): string {
  return literalArg(table, 'table name');
}

// ---------------------------------------------------------------- history

const LOG_COLUMNS = 'commit_hash, committer, email, date, message, parents';

function logRevisionArg(ref: string): string {
  const r = parseRevision(ref);
  if (r.text.includes('--')) throw new RevisionError(`DOLT_LOG would read "${ref}" as an option (it contains --); use its commit hash.`);
  return literalArg(r.text, 'revision');
}

/** The commits reachable from `ref`, newest first (Dolt's topological order), with parents. */
export function buildLogQuery(ref: string, page: OffsetPage): DoltQuery {
  return {
    sql: `SELECT ${LOG_COLUMNS} FROM DOLT_LOG(${logRevisionArg(ref)}, '--parents')${limitOffset(page)}`,
    at: parseRevision(ref).base,
  };
}

/** The commits reachable from `ref` that changed `table` (Show History on a table). */
export function buildTableLogQuery(ref: string, table: string, page: OffsetPage): DoltQuery {
  // `--tables` takes a comma-separated list, so a comma would split the name.
  if (table.includes(','))
    throw new SqlInputError(`DOLT_LOG cannot filter by the table ${JSON.stringify(table)}: its name contains a comma.`);
  if (table.startsWith('-'))
    throw new SqlInputError(`DOLT_LOG cannot filter by the table ${JSON.stringify(table)}: its name starts with -.`);
  return {
    sql: `SELECT ${LOG_COLUMNS} FROM DOLT_LOG(${logRevisionArg(ref)}, '--parents', '--tables', ${tableArg(table)})${limitOffset(page)}`,
    at: parseRevision(ref).base,
  };
}

/** The parents of one commit, first parent first (none for the first commit). */
export function buildParentsQuery(commit: string): DoltQuery {
  if (!isCommitHashText(commit)) throw new RevisionError(`"${commit}" is not a 32-character commit hash.`);
  return {
    sql: `SELECT parent_hash, parent_index FROM dolt_commit_ancestors WHERE commit_hash = ${sqlString(commit)} ORDER BY parent_index`,
    at: commit,
  };
}

/** The commit a revision points at now. */
export function buildHashOfQuery(revision: string): DoltQuery {
  return { sql: `SELECT HASHOF(${revisionArg(revision)}) AS commit_hash`, at: parseRevision(revision).base };
}

/** The best common ancestor of two revisions. */
export function buildMergeBaseQuery(a: string, b: string): DoltQuery {
  return { sql: `SELECT DOLT_MERGE_BASE(${revisionArg(a)}, ${revisionArg(b)}) AS merge_base`, at: parseRevision(b).base };
}

/**
 * Both ends of a pair as commit hashes (`from_commit`, `to_commit`): a three-dot pair becomes the
 * two-dot pair merge base → head. Pin a pair once, then page with the hashes, so a branch that
 * moves while the view is open cannot mix two diffs in one scroll.
 */
export function buildPinPairQuery(pair: RevisionPair): DoltQuery {
  checkPair(pair);
  const at = sendAtFor(pair);
  if (pair.kind === 'twoDot')
    return { sql: `SELECT HASHOF(${revisionArg(pair.from)}) AS from_commit, HASHOF(${revisionArg(pair.to)}) AS to_commit`, at };
  return {
    sql: `SELECT DOLT_MERGE_BASE(${revisionArg(pair.base)}, ${revisionArg(pair.head)}) AS from_commit, HASHOF(${revisionArg(pair.head)}) AS to_commit`,
    at,
  };
}

/**
 * Which of `commits` are reachable from `ref` (dolt_log at that ref). Used for a cross-fork pull:
 * the fork's log of the pull's head, asked of the target's branch, finds the merge base.
 */
export function buildReachableQuery(ref: string, commits: readonly string[]): DoltQuery {
  const r = parsePlainRevision(ref);
  if (commits.length === 0) throw new SqlInputError('Give at least one commit to look for.');
  for (const c of commits) if (!isCommitHashText(c)) throw new RevisionError(`"${c}" is not a 32-character commit hash.`);
  return { sql: `SELECT commit_hash FROM dolt_log WHERE commit_hash IN (${commits.map((c) => sqlString(c)).join(', ')})`, at: r.text };
}

// ---------------------------------------------------------------- which tables changed

/** Rows added, modified and removed per table with data changes (keyless tables: added/removed only). */
export function buildDiffStatQuery(pair: RevisionPair, table?: string): DoltQuery {
  const t = table === undefined ? '' : `, ${tableArg(table)}`;
  return {
    sql: `SELECT table_name, rows_unmodified, rows_added, rows_deleted, rows_modified, cells_added, cells_deleted, cells_modified, old_row_count, new_row_count FROM DOLT_DIFF_STAT(${pairArgs(pair)}${t})`,
    at: sendAtFor(pair),
  };
}

/** Every changed table: added, dropped, modified or renamed, and whether data and schema changed. */
export function buildDiffSummaryQuery(pair: RevisionPair, table?: string): DoltQuery {
  const t = table === undefined ? '' : `, ${tableArg(table)}`;
  return {
    sql: `SELECT from_table_name, to_table_name, diff_type, data_change, schema_change FROM DOLT_DIFF_SUMMARY(${pairArgs(pair)}${t})`,
    at: sendAtFor(pair),
  };
}

/** The CREATE statement of each table whose schema changed, on both sides. */
export function buildSchemaDiffQuery(pair: RevisionPair, table?: string): DoltQuery {
  const t = table === undefined ? '' : `, ${tableArg(table)}`;
  return {
    sql: `SELECT from_table_name, to_table_name, from_create_statement, to_create_statement FROM DOLT_SCHEMA_DIFF(${pairArgs(pair)}${t})`,
    at: sendAtFor(pair),
  };
}

/** One page of the SQL patch of a table, in statement order, after statement `afterOrder`. */
export function buildPatchQuery(pair: RevisionPair, table: string, page: { pageSize: number; afterOrder?: number }): DoltQuery {
  const after = page.afterOrder === undefined ? '' : ` WHERE statement_order > ${sqlCount(page.afterOrder, 'statement order')}`;
  return {
    sql: `SELECT statement_order, statement FROM DOLT_PATCH(${pairArgs(pair)}, ${tableArg(table)})${after} ORDER BY statement_order LIMIT ${pageLimit(page.pageSize)}`,
    at: sendAtFor(pair),
  };
}

/**
 * The columns of a table at a branch, tag or commit (Field, Type, Null, Key, Default, Extra): a
 * plain DESCRIBE sent at that ref. A missing table is an `error` answer: no columns on that side.
 */
export function buildColumnsQuery(table: string, ref: string): DoltQuery {
  return { sql: `DESCRIBE ${quoteIdentifier(table)}`, at: parsePlainRevision(ref).text };
}

// ---------------------------------------------------------------- row diff

export type RowDiffKind = 'added' | 'modified' | 'removed';
export const ROW_DIFF_KINDS: readonly RowDiffKind[] = ['added', 'modified', 'removed'];

/** A table on both sides of a diff: its columns at `from` and at `to` ([] where it does not exist). */
export interface DiffTableSpec {
  table: string;
  fromColumns: readonly TableColumnInfo[];
  toColumns: readonly TableColumnInfo[];
}

export interface DiffKeyColumn {
  name: string;
  /** The SQL that reads the key of any diff row, whichever side it exists on. */
  expr: string;
  column: TableColumnInfo;
}

function keyNames(columns: readonly TableColumnInfo[]): string[] {
  return columns.filter((c) => c.primaryKey).map((c) => c.name);
}

/**
 * The key a diff is ordered and paged by: the primary key the table has on both sides (an added
 * row has only `to_` values, a removed one only `from_`, so each key column reads
 * COALESCE(to_k, from_k)). Empty when the table is keyless or its key changed between the sides:
 * such a diff is paged by offset in Dolt's own (fixed) order.
 */
export function diffKey(spec: DiffTableSpec): DiffKeyColumn[] {
  const from = keyNames(spec.fromColumns);
  const to = keyNames(spec.toColumns);
  const side = (name: string, prefix: 'from_' | 'to_'): string => quoteIdentifier(`${prefix}${name}`);
  if (spec.toColumns.length > 0 && spec.fromColumns.length > 0) {
    if (to.length === 0 || to.join('\u0000') !== from.join('\u0000')) return [];
    return to.map((name) => ({
      name,
      expr: `COALESCE(${side(name, 'to_')}, ${side(name, 'from_')})`,
      column: spec.toColumns.find((c) => c.name === name) as TableColumnInfo,
    }));
  }
  const only = spec.toColumns.length > 0 ? spec.toColumns : spec.fromColumns;
  const prefix = spec.toColumns.length > 0 ? 'to_' : 'from_';
  return keyNames(only).map((name) => ({ name, expr: side(name, prefix), column: only.find((c) => c.name === name) as TableColumnInfo }));
}

/** Whether pages of this diff can be found by keyset (an exact, non-float key on both sides). */
export function diffKeysetSupported(spec: DiffTableSpec): boolean {
  const key = diffKey(spec);
  return key.length > 0 && key.every((k) => columnClass(k.column.type) !== 'inexact');
}

/** Where a row diff page starts: the first row, after the key of a row, or at an offset. */
export type DiffPagePosition = { kind: 'first' } | { kind: 'after'; key: readonly Cell[] } | { kind: 'offset'; offset: number };

export interface RowDiffPageOptions {
  /** Only these kinds (all when omitted or all three). */
  kinds?: readonly RowDiffKind[];
  position: DiffPagePosition;
  pageSize: number;
}

function kindFilter(kinds: readonly RowDiffKind[] | undefined): string[] {
  if (!kinds) return [];
  const wanted = ROW_DIFF_KINDS.filter((k) => kinds.includes(k));
  for (const k of kinds) if (!ROW_DIFF_KINDS.includes(k)) throw new SqlInputError(`Unknown kind of row change ${String(k)}.`);
  if (wanted.length === 0) throw new SqlInputError('Choose at least one kind of row change.');
  if (wanted.length === ROW_DIFF_KINDS.length) return [];
  return [
    wanted.length === 1 ? `diff_type = ${sqlString(wanted[0] as string)}` : `diff_type IN (${wanted.map((k) => sqlString(k)).join(', ')})`,
  ];
}

/** Rows whose key sorts after `key` (key columns are never NULL). */
function afterKey(key: readonly DiffKeyColumn[], values: readonly Cell[]): string {
  if (values.length !== key.length) throw new SqlInputError(`A diff cursor needs ${key.length} values, got ${values.length}.`);
  const lits = key.map((k, i) => {
    const v = values[i];
    if (v === null || v === undefined) throw new SqlInputError(`The key column ${k.name} of a cursor cannot be NULL.`);
    const c = columnClass(k.column.type);
    return sqlValue(v, c === 'integer' || c === 'decimal');
  });
  const alternatives: string[] = [];
  for (let i = 0; i < key.length; i++) {
    const equal = key.slice(0, i).map((k, j) => `${k.expr} = ${lits[j]}`);
    const gt = `${(key[i] as DiffKeyColumn).expr} > ${lits[i]}`;
    alternatives.push(equal.length ? `(${[...equal, gt].join(' AND ')})` : gt);
  }
  return alternatives.length === 1 ? (alternatives[0] as string) : `(${alternatives.join(' OR ')})`;
}

/** The select list of a row diff: the change kind, then every column on each side that has it. */
export function rowDiffSelectList(spec: DiffTableSpec): string {
  if (spec.fromColumns.length === 0 && spec.toColumns.length === 0)
    throw new SqlInputError(`The table ${spec.table} has no columns on either side.`);
  const cols = [...spec.fromColumns.map((c) => `from_${c.name}`), ...spec.toColumns.map((c) => `to_${c.name}`)];
  return ['diff_type', ...cols.map((c) => quoteIdentifier(c))].join(', ');
}

/** One page of a table's row diff, keyed and ordered by primary key. */
export function buildRowDiffPageQuery(pair: RevisionPair, spec: DiffTableSpec, options: RowDiffPageOptions): DoltQuery {
  const head = `SELECT ${rowDiffSelectList(spec)} FROM DOLT_DIFF(${pairArgs(pair)}, ${tableArg(spec.table)})`;
  const key = diffKey(spec);
  const where = kindFilter(options.kinds);
  const limit = pageLimit(options.pageSize);
  const orderBy = key.length ? ` ORDER BY ${key.map((k) => `${k.expr} ASC`).join(', ')}` : '';
  let tail = '';
  switch (options.position.kind) {
    case 'first':
      break;
    case 'after':
      if (!diffKeysetSupported(spec))
        throw new SqlInputError(`The diff of ${spec.table} is paged by offset: it has no exact primary key on both sides.`);
      where.push(afterKey(key, options.position.key));
      break;
    case 'offset': {
      const offset = sqlCount(options.position.offset, 'offset');
      if (offset !== '0') tail = ` OFFSET ${offset}`;
      break;
    }
    default:
      throw new SqlInputError(`Unknown page position ${String((options.position as { kind: unknown }).kind)}.`);
  }
  const whereSql = where.length ? ` WHERE ${where.join(' AND ')}` : '';
  return { sql: `${head}${whereSql}${orderBy} LIMIT ${limit}${tail}`, at: sendAtFor(pair) };
}

/**
 * The table's whole diff in no order, `pageSize` rows and one more to tell whether there are
 * more: one pass over the diff, with no sort (a sort at a commit can cost the server a copy).
 */
export function buildRowDiffUnorderedQuery(pair: RevisionPair, spec: DiffTableSpec, pageSize: number): DoltQuery {
  const sql = `SELECT ${rowDiffSelectList(spec)} FROM DOLT_DIFF(${pairArgs(pair)}, ${tableArg(spec.table)}) LIMIT ${pageLimit(pageSize)}`;
  return { sql, at: sendAtFor(pair) };
}

/** How many rows of each kind the table's diff has (`diff_type`, `row_count`). */
export function buildRowDiffCountQuery(pair: RevisionPair, table: string): DoltQuery {
  return {
    sql: `SELECT diff_type, COUNT(*) AS row_count FROM DOLT_DIFF(${pairArgs(pair)}, ${tableArg(table)}) GROUP BY diff_type`,
    at: sendAtFor(pair),
  };
}

/**
 * Which columns (on both sides) hold a different value in at least one modified row of the whole
 * diff: one scan, `changed_<i>` is 1 or 0 for `columns[i]` ("hide unchanged columns").
 */
export function buildChangedColumnsQuery(pair: RevisionPair, table: string, columns: readonly string[]): DoltQuery {
  if (columns.length === 0) throw new SqlInputError('Name at least one column to check.');
  const list = columns.map((c, i) => {
    const f = quoteIdentifier(`from_${c}`);
    const t = quoteIdentifier(`to_${c}`);
    return `MAX(CASE WHEN diff_type <> 'modified' THEN 0 WHEN ${f} IS NULL AND ${t} IS NULL THEN 0 WHEN ${f} IS NULL OR ${t} IS NULL OR ${f} <> ${t} THEN 1 ELSE 0 END) AS changed_${i}`;
  });
  return { sql: `SELECT ${list.join(', ')} FROM DOLT_DIFF(${pairArgs(pair)}, ${tableArg(table)})`, at: sendAtFor(pair) };
}

// ---------------------------------------------------------------- one row: history and blame

/** `k1 = v1 AND …` for the primary key, literals typed by column (numbers unquoted). */
export function keyWhere(columns: readonly TableColumnInfo[], key: readonly Cell[], alias?: string): string {
  const keyCols = columns.filter((c) => c.primaryKey);
  if (keyCols.length === 0) throw new SqlInputError('Row history needs a table with a primary key.');
  if (key.length !== keyCols.length) throw new SqlInputError(`The key has ${keyCols.length} columns, got ${key.length} values.`);
  return keyCols
    .map((c, i) => {
      const v = key[i];
      if (v === null || v === undefined) throw new SqlInputError(`The key column ${c.name} cannot be NULL.`);
      const k = columnClass(c.type);
      return `${alias ? `${alias}.` : ''}${quoteIdentifier(c.name)} = ${sqlValue(v, k === 'integer' || k === 'decimal')}`;
    })
    .join(' AND ');
}

/**
 * The row with primary key `key` at every commit reachable from `ref` that has it, newest commit
 * first (dolt_history_<table> read at `ref`), up to `limit` commits. Newest by the commit graph:
 * dolt_log's commit_order (a commit's height, higher than all its parents'), never by date or hash,
 * which put commits made in the same second in any order. Columns are qualified: a table may have
 * columns named like dolt_log's (date, message, email).
 */
export function buildRowHistoryQuery(
  ref: string,
  table: string,
  columns: readonly TableColumnInfo[],
  key: readonly Cell[],
  limit: number,
): DoltQuery {
  const r = parsePlainRevision(ref);
  if (columns.length === 0) throw new SqlInputError(`The table ${table} has no columns to read.`);
  const select = [...columns.map((c) => `h.${quoteIdentifier(c.name)}`), 'h.commit_hash', 'h.committer', 'h.commit_date'].join(', ');
  return {
    sql:
      `SELECT ${select} FROM ${quoteIdentifier(`dolt_history_${table}`)} AS h JOIN dolt_log AS l ON l.commit_hash = h.commit_hash` +
      ` WHERE ${keyWhere(columns, key, 'h')} ORDER BY l.commit_order DESC, h.commit_date DESC, h.commit_hash ASC LIMIT ${pageLimit(limit)}`,
    at: r.text,
  };
}

/** The last commit that changed the row with primary key `key` at `ref` (dolt_blame_<table>). */
export function buildRowBlameQuery(ref: string, table: string, columns: readonly TableColumnInfo[], key: readonly Cell[]): DoltQuery {
  const r = parsePlainRevision(ref);
  return {
    sql: `SELECT ${quoteIdentifier('commit')}, commit_date, committer, email, message FROM ${quoteIdentifier(`dolt_blame_${table}`)} WHERE ${keyWhere(columns, key)}`,
    at: r.text,
  };
}

// ---------------------------------------------------------------- merge conflict preview

/**
 * Per table, how many data and schema conflicts merging `merge` into `base` would make. For a
 * pull request `base` is the pull's `to_branch` (ours) and `merge` its `from_branch` (theirs).
 */
export function buildConflictSummaryQuery(base: string, merge: string): DoltQuery {
  return {
    sql: `SELECT ${quoteIdentifier('table')}, num_data_conflicts, num_schema_conflicts FROM DOLT_PREVIEW_MERGE_CONFLICTS_SUMMARY(${revisionArg(base)}, ${revisionArg(merge)})`,
    at: parseRevision(base).base,
  };
}

/**
 * One page of the rows of `table` that would conflict: base_<c>, our_<c>, their_<c> for every
 * column, our_diff_type, their_diff_type and dolt_conflict_id (Dolt's conflict table schema,
 * which depends on the table's columns on each side, hence `*`).
 */
export function buildConflictRowsQuery(base: string, merge: string, table: string, page: OffsetPage): DoltQuery {
  return {
    sql: `SELECT * FROM DOLT_PREVIEW_MERGE_CONFLICTS(${revisionArg(base)}, ${revisionArg(merge)}, ${tableArg(table)})${limitOffset(page)}`,
    at: parseRevision(base).base,
  };
}
