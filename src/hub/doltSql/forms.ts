// SQL for the Dolt forms once their arguments are known: revisions resolved to commits (with
// errors that name the bad one), DoltLite sources with their columns, and hash conversion.
import { quoteSqlIdentifier as qi, quoteSqlString } from '../../core/sql/sqlTokens';
import { hexToDoltHash } from '../doltHash';
import { DoltSqlError } from './common';
import type { DoltSqlContext, ShownColumn } from './common';
import { parseRange, toEngineRevision } from './revisions';
import { commitGraph } from './graph';
import type { FoundRevision } from './whereEquality';

/** SQL functions the rewritten query calls; the engine registers them on the connection. */
export const HASH_FUNCTION = 'dolt_hash32';
export const REVISION_FUNCTION = 'dolt_rev';

export const lit = (v: string): string => quoteSqlString(v, 'sqlite');

/** The user columns of a diff's `prefix` side: `to_<c>` without the commit columns. */
function userColumns(columns: readonly string[], prefix: string): string[] {
  return columns
    .filter((c) => c.startsWith(prefix) && c !== `${prefix}commit` && c !== `${prefix}commit_date`)
    .map((c) => c.slice(prefix.length));
}

/** Hash columns of DoltLite's system tables, by table name. */
export function systemHashColumns(name: string): string[] | undefined {
  switch (name) {
    case 'dolt_log':
    case 'dolt_diff':
      return ['commit_hash'];
    case 'dolt_commit_ancestors':
      return ['commit_hash', 'parent_hash'];
    case 'dolt_branches':
    case 'dolt_remote_branches':
      return ['hash'];
    case 'dolt_tags':
      return ['tag_hash'];
  }
  if (name.startsWith('dolt_history_')) return ['commit_hash'];
  if (name.startsWith('dolt_blame_')) return ['commit'];
  if (name.startsWith('dolt_diff_')) return ['to_commit', 'from_commit'];
  return undefined;
}

export class DoltForms {
  constructor(readonly ctx: DoltSqlContext) {}

  /** The 40-hex commit `spec` names, or an error naming it. */
  resolve(fn: string, spec: string): string {
    if (spec.trim() === '') throw new DoltSqlError(`${fn}: a revision is empty.`);
    const hex = this.ctx.resolve(toEngineRevision(spec));
    if (!hex) throw new DoltSqlError(`${fn}: no branch, tag or commit named "${spec}".`);
    return hex;
  }

  /** The commit a WHERE clause compares with (whereEquality.ts): a revision or a merge base. */
  revision(fn: string, found: FoundRevision): string {
    if ('spec' in found) return this.resolve(fn, found.spec);
    const [a, b] = found.mergeBase;
    return this.mergeBase(fn, this.resolve(fn, a), this.resolve(fn, b), a, b);
  }

  mergeBase(fn: string, aHex: string, bHex: string, a: string, b: string): string {
    const base = this.ctx.mergeBase(aHex, bHex);
    if (!base) throw new DoltSqlError(`${fn}: "${a}" and "${b}" have no common ancestor.`);
    return base;
  }

  /** from/to commits of a diff-like call: (from, to, ...) or ('from..to' | 'from...to', ...). */
  diffRange(fn: string, args: string[]): { fromHex: string; toHex: string; rest: string[] } {
    const first = args[0] ?? '';
    const range = parseRange(first);
    if (range.kind === 'single') {
      if (args.length < 2) throw new DoltSqlError(`${fn} needs two revisions: ${fn}(from, to, ...) or ${fn}('from..to', ...).`);
      return { fromHex: this.resolve(fn, first), toHex: this.resolve(fn, args[1] as string), rest: args.slice(2) };
    }
    const fromHex = this.resolve(fn, range.from);
    const toHex = this.resolve(fn, range.to);
    if (range.kind === 'twoDot') return { fromHex, toHex, rest: args.slice(1) };
    return { fromHex: this.mergeBase(fn, fromHex, toHex, range.from, range.to), toHex, rest: args.slice(1) };
  }

  columnsOf(fn: string, source: string, table?: string): string[] {
    const cols = this.ctx.columns(`SELECT * FROM ${source}`);
    if (Array.isArray(cols)) return cols;
    if (table !== undefined && /no such table/i.test(cols.error)) throw new DoltSqlError(`${fn}: table not found: ${table}`);
    throw new DoltSqlError(`${fn}: ${cols.error}`);
  }

  /** `"dolt_diff_<t>"('from', 'to')` and its columns. */
  diffCall(fn: string, table: string, fromHex: string, toHex: string): { source: string; columns: string[] } {
    const source = `${qi(`dolt_diff_${table}`)}(${lit(fromHex)}, ${lit(toHex)})`;
    return { source, columns: this.columnsOf(fn, source, table) };
  }

  /**
   * DOLT_DIFF's columns as Dolt documents them: `to_<c>` for the table's columns at `toHex`,
   * `from_<c>` for those at `fromHex`, each read from DoltLite's diff (`columns`, named after the
   * queried ref's schema) where it has them. A column of either commit the queried ref's schema
   * lacks has no values there: it shows NULL (query at a ref whose schema has it to see them).
   */
  diffSides(table: string, fromHex: string, toHex: string, columns: readonly string[]): ShownColumn[] {
    const at = (hex: string): string[] => this.ctx.columnsAt?.(hex, table) ?? userColumns(columns, 'to_');
    const side = (prefix: 'to_' | 'from_', cols: readonly string[]): ShownColumn[] =>
      [...cols.map((c) => prefix + c), `${prefix}commit`, `${prefix}commit_date`].map((name) => ({ name, k: columns.indexOf(name) }));
    return [...side('to_', at(toHex)), ...side('from_', at(fromHex)), { name: 'diff_type', k: columns.indexOf('diff_type') }];
  }

  /**
   * The diff's select list with the commit hashes as constants (Dolt's base32), every other column
   * read by `cell(name, index)`; a column without a source (k = -1) is NULL.
   */
  diffSelectList(shown: readonly ShownColumn[], fromHex: string, toHex: string, cell: (c: string, k: number) => string): string {
    return shown
      .map(({ name: c, k }) => {
        if (c === 'from_commit') return `${lit(hexToDoltHash(fromHex))} AS from_commit`;
        if (c === 'to_commit') return `${lit(hexToDoltHash(toHex))} AS to_commit`;
        return k < 0 ? `NULL AS ${qi(c)}` : cell(c, k);
      })
      .join(', ');
  }

  /** `(SELECT …, '<hash>' AS from_commit, … FROM "dolt_diff_<t>"('from', 'to'))`: hashes are constants per call. */
  diffSource(fn: string, table: string, fromHex: string, toHex: string): string {
    const { source, columns } = this.diffCall(fn, table, fromHex, toHex);
    const shown = columns.map((name, k) => ({ name, k }));
    return `(SELECT ${this.diffSelectList(shown, fromHex, toHex, (c) => qi(c))} FROM ${source})`;
  }

  /** `(SELECT …, dolt_hash32(col) AS col, … FROM source)` for the given hash columns. */
  /** The dolt_log system table as Dolt shows it: base32 hashes and commit_order (the commit's height). */
  logTable(source: string): string | undefined {
    const cols = this.ctx.columns(`SELECT * FROM ${source}`);
    if (!Array.isArray(cols)) return undefined;
    const { heights } = commitGraph(this.ctx);
    const select = cols
      .filter((c) => c !== 'commit_order')
      .map((c) => (c === 'commit_hash' ? `${HASH_FUNCTION}(l."commit_hash") AS "commit_hash"` : `l.${qi(c)}`));
    const values =
      heights.size > 0
        ? `(VALUES ${[...heights].map(([h, n]) => `(${lit(h)}, ${n})`).join(', ')})`
        : '(SELECT NULL AS column1, NULL AS column2 LIMIT 0)';
    return `(SELECT ${select.join(', ')}, h.column2 AS commit_order FROM ${source} AS l LEFT JOIN ${values} AS h ON h.column1 = l."commit_hash")`;
  }

  hashWrapped(source: string, hashCols: readonly string[]): string | undefined {
    const cols = this.ctx.columns(`SELECT * FROM ${source}`);
    if (!Array.isArray(cols)) return undefined;
    const set = new Set(hashCols);
    return `(SELECT ${cols.map((c) => (set.has(c) ? `${HASH_FUNCTION}(${qi(c)}) AS ${qi(c)}` : qi(c))).join(', ')} FROM ${source})`;
  }
}
