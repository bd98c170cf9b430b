// Dolt's version-control SQL on DoltLite: finds the Dolt forms in a read-only query and rewrites
// them onto DoltLite's own machinery (dolt_diff_<t>(a, b), dolt_at_<t>(ref), dolt_log(rev),
// dolt_merge_base, dolt_conflicts_<t> on a throwaway copy), turning every commit hash the result
// shows into Dolt's 32-character base32 form. Everything else in the query is left as written.
// The text comes in SQLite's lexical form (mysqlDialect.ts translated the user's MySQL literals).
import {
  applyEdits,
  identifierValue,
  isKeyword,
  quoteSqlIdentifier as qi,
  splitArguments,
  SQLITE_SCAN,
  stringValue,
} from '../../core/sql/sqlTokens';
import type { SqlToken, TextEdit } from '../../core/sql/sqlTokens';
import { hexToDoltHash } from '../doltHash';
import { toDoltHash } from './revisions';
import { HASH_FUNCTION, REVISION_FUNCTION, lit, systemHashColumns } from './forms';
import { buildLog } from './log';
import { pushDiffPage } from './diffPushdown';
import { patchSelectList, pushPatchPage } from './patchPushdown';
import { findEquality } from './whereEquality';
import { DoltSqlError, DoltSqlInterrupted, valuesSubquery } from './common';
import type { DoltSqlContext } from './common';
import { RewriterBase } from './rewriteBase';
import type { DirectPage } from './directPage';

/**
 * The query on DoltLite. When a page of a row diff is served from the engine's copy of the diff
 * (diffPushdown.ts), `sql` reads that page and `describeSql` is the query as it reads the whole
 * diff: its columns (types, keys, source tables) are the ones to describe.
 */
export function rewriteDoltSql(sql: string, ctx: DoltSqlContext): RewrittenSql | { error: string; status: 'error' | 'timeout' } {
  try {
    return new Rewriter(sql, ctx).run();
  } catch (e) {
    // Past the deadline (or with the caller gone) a look-up may have failed for that reason: say so.
    const stopped = e instanceof DoltSqlInterrupted ? e.reason : ctx.interrupted?.();
    if (stopped !== undefined)
      return { error: e instanceof DoltSqlInterrupted ? e.message : new DoltSqlInterrupted(stopped).message, status: 'timeout' };
    if (e instanceof DoltSqlError) return { error: e.message, status: 'error' };
    throw e;
  }
}

/** The query on DoltLite; `direct`: the page's answer, read from the copy without running `sql` (directPage.ts). */
export interface RewrittenSql {
  sql: string;
  describeSql?: string;
  direct?: DirectPage;
}

class Rewriter extends RewriterBase {
  run(): RewrittenSql {
    const toks = this.toks;
    let i = 0;
    while (i < toks.length) {
      this.tick();
      const skip = this.consumed.get(i);
      if (skip !== undefined) {
        i = skip;
        continue;
      }
      const t = toks[i] as SqlToken;
      if (isKeyword(t, 'from') || isKeyword(t, 'join')) this.fromList(i + 1, isKeyword(t, 'from'));
      if (t.kind === 'word' && this.isPunct(i + 1, '(') && !this.isPunct(i - 1, '.')) {
        const close = this.closingParen(i + 1);
        if (close > 0) {
          const resume = this.call(t.text.toLowerCase(), i, close);
          if (resume !== undefined) {
            i = resume;
            continue;
          }
        }
      }
      i++;
    }
    const whole = applyEdits(this.sql, this.edits);
    const pushed = this.pushed;
    if (!pushed) return { sql: whole };
    const sql = applyEdits(this.sql, [...this.edits.filter((e) => e !== pushed.callEdit), ...pushed.edits]);
    return { sql, describeSql: whole, ...(pushed.direct ? { direct: pushed.direct } : {}) };
  }

  // ------------------------------------------------------------ calls

  /** Rewrites the call of `name` at `i` whose `)` is at `close`; returns where to resume, if handled. */
  private call(name: string, i: number, close: number): number | undefined {
    switch (name) {
      case 'dolt_diff':
        return this.doltDiff(i, close);
      case 'dolt_diff_stat':
      case 'dolt_diff_summary':
      case 'dolt_schema_diff':
      case 'dolt_patch':
        return this.diffFamily(name, i, close);
      case 'dolt_log':
        return this.doltLog(i, close);
      case 'hashof':
      case 'dolt_hashof':
        return this.hashOf(i, close);
      case 'dolt_merge_base':
        return this.mergeBase(i, close);
      case 'dolt_preview_merge_conflicts_summary':
      case 'dolt_preview_merge_conflicts':
        return this.previewConflicts(name, i, close);
    }
    return this.revisionTableCall(name, i, close);
  }

  /** DOLT_DIFF(from, to, t) and its ranges, or DoltLite's dolt_diff() with no arguments. */
  private doltDiff(i: number, close: number): number | undefined {
    const open = i + 1;
    if (close === open + 1) {
      // DoltLite's dolt_diff() (which tables changed per commit): only its hashes change.
      const wrapped = this.forms.hashWrapped('dolt_diff()', ['commit_hash']);
      return wrapped ? this.replaceCallBySubquery(i, close, wrapped, 'dolt_diff') : undefined;
    }
    const fn = 'DOLT_DIFF';
    const args = this.literalArgs(fn, open, close);
    if (args.length < 2 || args.length > 3)
      throw new DoltSqlError(`${fn} takes 2 or 3 arguments (from, to, table or 'from..to', table), got ${args.length}.`);
    const table = args[args.length - 1] as string;
    const { fromHex, toHex, rest } = this.forms.diffRange(fn, args.slice(0, -1));
    if (rest.length > 0) throw new DoltSqlError(`${fn}: "${args[0]}" is a range; give the table as the second argument.`);
    const { source, columns } = this.forms.diffCall(fn, table, fromHex, toHex);
    const shown = this.forms.diffSides(table, fromHex, toHex, columns);
    const resume = this.replaceCallBySubquery(
      i,
      close,
      `(SELECT ${this.forms.diffSelectList(shown, fromHex, toHex, (c) => qi(c))} FROM ${source})`,
      'dolt_diff',
    );
    const page = pushDiffPage(this.sql, this.toks, i, close, this.ctx, this.forms, { table, fromHex, toHex, source, columns, shown });
    if (page) this.pushPage(close, page, 'dolt_diff');
    return resume;
  }

  /** DOLT_DIFF_STAT, DOLT_DIFF_SUMMARY, DOLT_SCHEMA_DIFF and DOLT_PATCH: revisions resolved, hashes as Dolt shows them. */
  private diffFamily(name: string, i: number, close: number): number | undefined {
    const open = i + 1;
    const fn = name.toUpperCase();
    const args = this.literalArgs(fn, open, close);
    if (args.length < 1 || args.length > 3) throw new DoltSqlError(`${fn} takes 1 to 3 arguments, got ${args.length}.`);
    const { fromHex, toHex, rest } = this.forms.diffRange(fn, args);
    if (rest.length > 1) throw new DoltSqlError(`${fn}: too many arguments after the revisions.`);
    const table = rest[0];
    const call = `${name}(${[fromHex, toHex, ...(table !== undefined ? [table] : [])].map(lit).join(', ')})`;
    if (name !== 'dolt_patch') {
      if (table !== undefined) this.forms.columnsOf(fn, call, table);
      this.replace(i, close, call);
      return close + 1;
    }
    this.forms.columnsOf(fn, call, table);
    const p = { table, fromHex, toHex, call, fromHash: lit(hexToDoltHash(fromHex)), toHash: lit(hexToDoltHash(toHex)) };
    const sub = `(SELECT ${patchSelectList(p, (k) => qi(['statement_order', 'table_name', 'diff_type', 'statement'][k] as string))} FROM ${call})`;
    const resume = this.replaceCallBySubquery(i, close, sub, 'dolt_patch');
    const page = pushPatchPage(this.sql, this.toks, i, close, this.ctx, p);
    if (page) this.pushPage(close, page, 'dolt_patch');
    return resume;
  }

  /** Reads the call just replaced as one page from the engine's copy (diffPushdown.ts, patchPushdown.ts), keeping the whole for DESCRIBE. */
  private pushPage(close: number, page: { subquery: string; offsetAt?: number; direct?: DirectPage }, name: string): void {
    const callEdit = this.edits[this.edits.length - 1] as TextEdit;
    const edits: TextEdit[] = [
      { start: callEdit.start, end: callEdit.end, text: this.hasAlias(close + 1) ? page.subquery : `${page.subquery} AS ${qi(name)}` },
    ];
    const offset = page.offsetAt === undefined ? undefined : this.toks[page.offsetAt];
    if (offset) edits.push({ start: offset.start, end: offset.end, text: '0' });
    this.pushed = { callEdit, edits, ...(page.direct ? { direct: page.direct } : {}) };
  }

  /** DOLT_LOG(…): the commits as a subquery (log.ts). */
  private doltLog(i: number, close: number): number | undefined {
    const open = i + 1;
    const args = this.literalArgs('DOLT_LOG', open, close);
    const sub = buildLog(args, this.ctx, (spec) => this.forms.resolve('DOLT_LOG', spec));
    return this.replaceCallBySubquery(i, close, sub, 'dolt_log');
  }

  /** HASHOF('rev'): a constant for a literal revision, else the engine's with the revision converted. */
  private hashOf(i: number, close: number): number | undefined {
    const open = i + 1;
    const args = splitArguments(this.toks, open, close);
    if (args.length !== 1) throw new DoltSqlError(`HASHOF takes 1 argument, got ${args.length}.`);
    const arg = args[0] as SqlToken[];
    if (arg.length === 1 && (arg[0]?.kind === 'string' || arg[0]?.kind === 'dquoted')) {
      this.replace(
        i,
        close,
        lit(hexToDoltHash(this.forms.resolve('HASHOF', stringValue(arg[0], SQLITE_SCAN)))) + this.keepColumnName(i, close),
      );
      return close + 1;
    }
    this.replace(i, i, `${HASH_FUNCTION}(dolt_hashof`);
    this.edits.push({
      start: (this.toks[open] as SqlToken).end,
      end: (this.toks[open] as SqlToken).end,
      text: `${REVISION_FUNCTION}(`,
    });
    this.edits.push({ start: (this.toks[close] as SqlToken).start, end: (this.toks[close] as SqlToken).start, text: ')' });
    this.insertAfter(close, ')');
    return i + 2;
  }

  /** DOLT_MERGE_BASE(a, b): a constant for literal revisions, else the engine's with them converted. */
  private mergeBase(i: number, close: number): number | undefined {
    const open = i + 1;
    const args = splitArguments(this.toks, open, close);
    if (args.length !== 2) throw new DoltSqlError(`DOLT_MERGE_BASE takes 2 arguments, got ${args.length}.`);
    const literal = args.every((a) => a.length === 1 && (a[0]?.kind === 'string' || a[0]?.kind === 'dquoted'));
    if (literal) {
      const [a, b] = args.map((a) => stringValue(a[0] as SqlToken, SQLITE_SCAN)) as [string, string];
      const base = this.ctx.mergeBase(this.forms.resolve('DOLT_MERGE_BASE', a), this.forms.resolve('DOLT_MERGE_BASE', b));
      this.replace(i, close, (base ? lit(hexToDoltHash(base)) : 'NULL') + this.keepColumnName(i, close));
      return close + 1;
    }
    this.replace(i, i, `${HASH_FUNCTION}(dolt_merge_base`);
    for (const arg of args) {
      const first = arg[0];
      const last = arg[arg.length - 1];
      if (!first || !last) throw new DoltSqlError('DOLT_MERGE_BASE: an argument is empty.');
      this.edits.push({ start: first.start, end: first.start, text: `${REVISION_FUNCTION}(` });
      this.edits.push({ start: last.end, end: last.end, text: ')' });
    }
    this.insertAfter(close, ')');
    return i + 2;
  }

  /** DOLT_PREVIEW_MERGE_CONFLICTS[_SUMMARY]: a trial merge's conflicts as a subquery of values. */
  private previewConflicts(name: string, i: number, close: number): number | undefined {
    const open = i + 1;
    const summary = name === 'dolt_preview_merge_conflicts_summary';
    const fn = name.toUpperCase();
    const args = this.literalArgs(fn, open, close);
    const want = summary ? 2 : 3;
    if (args.length !== want)
      throw new DoltSqlError(`${fn} takes ${want} arguments (${summary ? 'base, merge' : 'base, merge, table'}), got ${args.length}.`);
    const baseHex = this.forms.resolve(fn, args[0] as string);
    const mergeHex = this.forms.resolve(fn, args[1] as string);
    const preview = this.ctx.previewMerge(baseHex, mergeHex, summary ? undefined : (args[2] as string));
    if ('error' in preview) throw new DoltSqlError(`${fn}: ${preview.error}`);
    const { columns, rows } = summary ? preview.summary : (preview.table as { columns: string[]; rows: unknown[][] });
    return this.replaceCallBySubquery(
      i,
      close,
      valuesSubquery(
        columns,
        rows.map((r) => r.map(toDoltHash)),
      ),
      name,
    );
  }

  /** `dolt_at_<t>(rev)` and `dolt_diff_<t>(from, to)` as table functions: revisions resolved. */
  private revisionTableCall(name: string, i: number, close: number): number | undefined {
    const open = i + 1;
    const at = /^dolt_at_(.+)$/.exec(name);
    if (at) {
      const args = this.literalArgs('dolt_at', open, close);
      if (args.length !== 1) throw new DoltSqlError(`${name} takes 1 argument (a revision), got ${args.length}.`);
      this.replace(open + 1, close - 1, lit(this.forms.resolve(name, args[0] as string)));
      return close + 1;
    }
    const diff = /^dolt_diff_(.+)$/.exec(name);
    if (diff) {
      const args = this.literalArgs(name, open, close);
      const { fromHex, toHex, rest } = this.forms.diffRange(name, args);
      if (rest.length > 0) throw new DoltSqlError(`${name} takes two revisions or one range, got ${args.length} arguments.`);
      return this.replaceCallBySubquery(
        i,
        close,
        this.forms.diffSource(name, identifierValue(this.toks[i] as SqlToken).slice('dolt_diff_'.length), fromHex, toHex),
        name,
      );
    }
    return undefined;
  }

  // ------------------------------------------------------------ FROM lists

  /** Walks the table references of a FROM (comma list) or JOIN starting at `j`. */
  private fromList(j: number, commaList: boolean): void {
    for (;;) {
      const end = this.tableRef(j);
      if (end === undefined || !commaList || !this.isPunct(end, ',')) return;
      j = end + 1;
    }
  }

  /** Handles the table reference at `j`; returns the index after it (alias included). */
  private tableRef(j: number): number | undefined {
    const toks = this.toks;
    const t = toks[j];
    if (t === undefined) return undefined;
    if (t.kind === 'punct' && t.text === '(') {
      const close = this.closingParen(j);
      return close < 0 ? undefined : this.skipAlias(close + 1);
    }
    if (t.kind !== 'word' && t.kind !== 'bquoted' && t.kind !== 'dquoted') return undefined;
    let nameAt = j;
    if (this.isPunct(j + 1, '.') && toks[j + 2] !== undefined) nameAt = j + 2; // db.table
    if (this.isPunct(nameAt + 1, '(')) {
      const close = this.closingParen(nameAt + 1);
      return close < 0 ? undefined : this.skipAlias(close + 1);
    }
    const name = identifierValue(toks[nameAt] as SqlToken);
    let after = nameAt + 1;
    if (isKeyword(toks[after], 'as') && isKeyword(toks[after + 1], 'of')) {
      after = this.asOf(j, name, after + 2);
    } else {
      this.systemTable(j, nameAt, name);
    }
    return this.skipAlias(after);
  }

  /** `t AS OF <revision>` -> `"dolt_at_t"('<hex>') AS t`. */
  private asOf(j: number, table: string, exprAt: number): number {
    const toks = this.toks;
    const e = toks[exprAt];
    let spec: string | undefined;
    let end = exprAt;
    if (e && (e.kind === 'string' || e.kind === 'dquoted')) {
      spec = stringValue(e, SQLITE_SCAN);
    } else if (e && e.kind === 'word' && this.isPunct(exprAt + 1, '(') && ['hashof', 'dolt_hashof'].includes(e.text.toLowerCase())) {
      const close = this.closingParen(exprAt + 1);
      const args = close > 0 ? this.literalArgs('HASHOF', exprAt + 1, close) : [];
      if (args.length !== 1) throw new DoltSqlError('AS OF HASHOF(...) takes one literal revision.');
      spec = args[0];
      end = close;
    }
    if (spec === undefined) throw new DoltSqlError(`AS OF after "${table}" takes a branch, tag or commit as a quoted string.`);
    const hex = this.forms.resolve('AS OF', spec);
    const source = `${qi(`dolt_at_${table}`)}(${lit(hex)})`;
    this.forms.columnsOf('AS OF', source, table);
    this.replace(j, end, this.hasAlias(end + 1) ? source : `${source} AS ${qi(table)}`);
    this.consumed.set(j, end + 1);
    return end + 1;
  }

  /** System tables whose rows carry commit hashes are read through a converting subquery. */
  private systemTable(j: number, nameAt: number, name: string): void {
    const lower = name.toLowerCase();
    const commitDiff = /^dolt_commit_diff_(.+)$/.exec(lower);
    if (commitDiff) {
      this.commitDiff(j, nameAt, name.slice('dolt_commit_diff_'.length));
      return;
    }
    const hashCols = systemHashColumns(lower);
    if (!hashCols) return;
    const wrapped = lower === 'dolt_log' ? this.forms.logTable(qi(name)) : this.forms.hashWrapped(qi(name), hashCols);
    if (!wrapped) return; // not a table here: the engine says so
    this.replace(j, nameAt, this.hasAlias(nameAt + 1) ? wrapped : `${wrapped} AS ${qi(name)}`);
    this.consumed.set(j, nameAt + 1);
  }

  /** `dolt_commit_diff_<t>` needs `from_commit = …` and `to_commit = …` in the WHERE clause. */
  private commitDiff(j: number, nameAt: number, table: string): void {
    const fn = `dolt_commit_diff_${table}`;
    const from = findEquality(this.toks, 'from_commit', nameAt + 1);
    const to = findEquality(this.toks, 'to_commit', nameAt + 1);
    if (!from || !to)
      throw new DoltSqlError(
        `${fn} needs both from_commit and to_commit in WHERE, e.g. WHERE from_commit = HASHOF('main~1') AND to_commit = HASHOF('main').`,
      );
    const fromHex = this.forms.revision(fn, from);
    const toHex = this.forms.revision(fn, to);
    const source = this.forms.diffSource(fn, table, fromHex, toHex);
    this.replace(j, nameAt, this.hasAlias(nameAt + 1) ? source : `${source} AS ${qi(fn)}`);
    this.consumed.set(j, nameAt + 1);
    // The filters then compare with the hashes the rows carry, whatever form they were written in.
    for (const [found, hex] of [
      [from, fromHex],
      [to, toHex],
    ] as const) {
      if (found.literalAt !== undefined) {
        this.replace(found.literalAt, found.literalAt, lit(hexToDoltHash(hex)));
        this.consumed.set(found.literalAt, found.literalAt + 1);
      }
    }
  }
}
