// The Dolt SQL rewriter's state and the helpers its parts share: the statement's significant
// tokens (SQLite's lexical form) with their parentheses paired once, the edits made so far, the
// deadline checks, and how a call or table reference is replaced (aliases, column names).
import {
  isKeyword,
  matchingParens,
  quoteSqlIdentifier as qi,
  significant,
  splitArguments,
  SQLITE_SCAN,
  stringValue,
  tokenize,
} from '../../core/sql/sqlTokens';
import type { SqlToken, TextEdit } from '../../core/sql/sqlTokens';
import { DoltForms } from './forms';
import { DoltSqlError, DoltSqlInterrupted } from './common';
import type { DoltSqlContext } from './common';
import type { DirectPage } from './directPage';

/** Words that end a table reference instead of naming its alias. */
const NOT_ALIAS = new Set([
  'where',
  'on',
  'using',
  'join',
  'inner',
  'left',
  'right',
  'full',
  'outer',
  'cross',
  'natural',
  'group',
  'order',
  'limit',
  'offset',
  'having',
  'union',
  'except',
  'intersect',
  'window',
  'for',
  'lock',
  'straight_join',
  'as',
  'indexed',
  'not',
  'use',
  'force',
  'ignore',
  'returning',
  'set',
  'values',
  'select',
]);

/** Words before a token that show it is not an item of a SELECT list. */
const NOT_SELECT_LIST = new Set([
  'from',
  'where',
  'on',
  'having',
  'by',
  'limit',
  'join',
  'when',
  'then',
  'else',
  'case',
  'set',
  'values',
  'and',
  'or',
  'not',
  'in',
  'like',
  'between',
  'is',
]);

export abstract class RewriterBase {
  protected readonly toks: SqlToken[];
  protected readonly edits: TextEdit[] = [];
  /** Token ranges already rewritten as a whole: the scan jumps over them. */
  protected readonly consumed = new Map<number, number>();

  protected readonly forms: DoltForms;
  /** For each `(` token, its `)`: computed once, so nested calls cost one pass, not one each. */
  protected readonly closeOf: Int32Array;
  /** Steps since the deadline and the caller were last checked. */
  protected steps = 0;
  /** The diff page served from a copy: the edit of the call it replaces, and its own edits. */
  protected pushed: { callEdit: TextEdit; edits: TextEdit[]; direct?: DirectPage } | undefined;

  constructor(
    protected readonly sql: string,
    protected readonly ctx: DoltSqlContext,
  ) {
    this.toks = significant(tokenize(sql, SQLITE_SCAN));
    this.closeOf = matchingParens(this.toks);
    this.forms = new DoltForms(ctx);
  }

  // ------------------------------------------------------------ helpers

  /**
   * Every step of the scan (and of its backward looks) counts; now and then the clock and the
   * caller are asked, so translation stops at the query's deadline or when its caller went away.
   */
  protected tick(): void {
    if ((++this.steps & 1023) !== 0) return;
    const stopped = this.ctx.interrupted?.();
    if (stopped !== undefined) throw new DoltSqlInterrupted(stopped);
  }

  protected closingParen(open: number): number {
    return this.closeOf[open] ?? -1;
  }

  protected isPunct(i: number, text: string): boolean {
    const t = this.toks[i];
    return t !== undefined && t.kind === 'punct' && t.text === text;
  }

  protected replace(from: number, to: number, text: string): void {
    this.edits.push({ start: (this.toks[from] as SqlToken).start, end: (this.toks[to] as SqlToken).end, text });
  }

  protected insertAfter(i: number, text: string): void {
    const end = (this.toks[i] as SqlToken).end;
    this.edits.push({ start: end, end, text });
  }

  /** Does an alias follow the table reference that ends just before `i`? */
  protected hasAlias(i: number): boolean {
    const t = this.toks[i];
    if (t === undefined) return false;
    if (isKeyword(t, 'as')) return !isKeyword(this.toks[i + 1], 'of');
    if (t.kind === 'bquoted' || t.kind === 'dquoted') return true;
    return t.kind === 'word' && !NOT_ALIAS.has(t.text.toLowerCase());
  }

  /** Index just after the alias (if any) that follows position `i`. */
  protected skipAlias(i: number): number {
    if (isKeyword(this.toks[i], 'as') && !isKeyword(this.toks[i + 1], 'of')) return i + 2;
    return this.hasAlias(i) ? i + 1 : i;
  }

  /** The arguments of the call whose `(` is at `open`, each a literal string (Dolt requires literals). */
  protected literalArgs(fn: string, open: number, close: number): string[] {
    return splitArguments(this.toks, open, close).map((arg, n) => {
      const only = arg[0];
      if (arg.length !== 1 || !only || (only.kind !== 'string' && only.kind !== 'dquoted' && only.kind !== 'number')) {
        throw new DoltSqlError(`${fn}: argument ${n + 1} must be a literal value (a quoted string).`);
      }
      return only.kind === 'number' ? only.text : stringValue(only, SQLITE_SCAN);
    });
  }

  /** Replaces the call `[i, close]` by a subquery, naming it `alias` unless the query names it. */
  protected replaceCallBySubquery(i: number, close: number, subquery: string, alias: string): number {
    this.replace(i, close, this.hasAlias(close + 1) ? subquery : `${subquery} AS ${qi(alias)}`);
    return close + 1;
  }

  /**
   * A call replaced by a constant keeps the column name it had (SQLite names an expression
   * column by its text): when it is a bare item of a SELECT list, name it explicitly.
   */
  protected keepColumnName(i: number, close: number): string {
    const prev = this.toks[i - 1];
    const next = this.toks[close + 1];
    const prevOk =
      prev !== undefined &&
      (isKeyword(prev, 'select') || isKeyword(prev, 'distinct') || isKeyword(prev, 'all') || (prev.kind === 'punct' && prev.text === ','));
    const nextOk =
      next === undefined ||
      isKeyword(next, 'from') ||
      (next.kind === 'punct' && (next.text === ',' || next.text === ';' || next.text === ')'));
    if (!prevOk || !nextOk || !this.inSelectList(i)) return '';
    return ` AS ${qi(this.sql.slice((this.toks[i] as SqlToken).start, (this.toks[close] as SqlToken).end))}`;
  }

  /** Is token `i` in a SELECT list (not inside parentheses of its own, not after FROM)? */
  protected inSelectList(i: number): boolean {
    let depth = 0;
    for (let k = i - 1; k >= 0; k--) {
      this.tick();
      const t = this.toks[k] as SqlToken;
      if (t.kind === 'punct' && t.text === ')') depth++;
      else if (t.kind === 'punct' && t.text === '(') {
        if (depth === 0) return false;
        depth--;
      } else if (depth === 0 && t.kind === 'word') {
        const w = t.text.toLowerCase();
        if (w === 'select') return true;
        if (NOT_SELECT_LIST.has(w)) return false;
      }
    }
    return false;
  }
}
