// DOLT_LOG(...) with Dolt's arguments, built from DoltLite's dolt_log(rev) (one revision, or
// 'a..b') and dolt_commit_ancestors: revisions, ^rev and --not exclusions, 'a..b', 'a...b',
// --parents, --merges, --min-parents, --decorate and --tables; commit_order is the commit's height.
import { hexToDoltHash } from '../doltHash';
import { parseRange } from './revisions';
import { DoltSqlError, valuesSubquery } from './common';
import type { DoltSqlContext } from './common';
import { commitGraph } from './graph';

interface LogRow {
  hex: string;
  committer: unknown;
  email: unknown;
  date: string;
  message: unknown;
}

/** What DOLT_LOG's arguments ask for, revisions resolved to commits. */
interface LogOptions {
  include: string[];
  exclude: string[];
  symmetric: [string, string][];
  parents: boolean;
  minParents: number;
  decorate: 'no' | 'short' | 'full';
  not: boolean;
  tables?: string[];
}

export function buildLog(args: readonly string[], ctx: DoltSqlContext, resolve: (spec: string) => string): string {
  const o = logOptions(args, resolve);
  const picked = pickCommits(ctx, o);
  const sources = o.include.length + o.symmetric.length * 2;
  const { parents: parentMap, heights } = commitGraph(ctx);
  const refMap = o.decorate === 'no' ? new Map<string, string[]>() : refNames(ctx, o.decorate);
  // One log keeps dolt_log's order; several are merged children-first, newest first among equals.
  const ordered = sources > 1 ? topological([...picked.values()], parentMap) : [...picked.values()];
  const changed = o.tables === undefined ? undefined : tableChanges(ctx, o.tables, parentMap);
  const rows = ordered.filter((r) => (parentMap.get(r.hex)?.length ?? 0) >= o.minParents && (changed === undefined || changed(r.hex)));
  const columns = ['commit_hash', 'committer', 'email', 'date', 'message', 'commit_order'];
  if (o.parents) columns.push('parents');
  if (o.decorate !== 'no') columns.push('refs');
  return valuesSubquery(
    columns,
    rows.map((r) => {
      const out: unknown[] = [hexToDoltHash(r.hex), r.committer, r.email, r.date, r.message, heights.get(r.hex) ?? null];
      if (o.parents) out.push((parentMap.get(r.hex) ?? []).map(hexToDoltHash).join(', '));
      if (o.decorate !== 'no') out.push((refMap.get(r.hex) ?? []).join(', '));
      return out;
    }),
  );
}

/** DOLT_LOG's arguments read: options, then revisions, `^rev`, `--not rev`, `a..b` and `a...b`. */
function logOptions(args: readonly string[], resolve: (spec: string) => string): LogOptions {
  const o: LogOptions = { include: [], exclude: [], symmetric: [], parents: false, minParents: 0, decorate: 'no', not: false };
  for (let k = 0; k < args.length; k++) {
    const a = args[k] as string;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const flag = eq >= 0 ? a.slice(0, eq) : a;
      const value = (): string => {
        const v = eq >= 0 ? a.slice(eq + 1) : args[++k];
        if (v === undefined) throw new DoltSqlError(`DOLT_LOG: ${flag} needs a value.`);
        return v;
      };
      logOption(o, flag, value);
      continue;
    }
    if (o.not || a.startsWith('^')) {
      o.exclude.push(resolve(a.startsWith('^') ? a.slice(1) : a));
      continue;
    }
    const r = parseRange(a);
    if (r.kind === 'single') o.include.push(resolve(a));
    else if (r.kind === 'twoDot') {
      o.exclude.push(resolve(r.from));
      o.include.push(resolve(r.to));
    } else o.symmetric.push([resolve(r.from), resolve(r.to)]);
  }
  if (o.include.length === 0 && o.symmetric.length === 0) o.include.push(resolve('HEAD'));
  return o;
}

/** One `--option` of DOLT_LOG; `value()` reads its value (after `=` or the next argument). */
function logOption(o: LogOptions, flag: string, value: () => string): void {
  switch (flag) {
    case '--parents':
      o.parents = true;
      return;
    case '--merges':
      o.minParents = Math.max(o.minParents, 2);
      return;
    case '--min-parents': {
      const v = value();
      if (!/^[0-9]+$/.test(v)) throw new DoltSqlError(`DOLT_LOG: --min-parents takes a whole number, not "${v}".`);
      o.minParents = Number(v);
      return;
    }
    case '--not':
      o.not = true;
      return;
    case '--tables': {
      const names = value()
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== '');
      if (names.length === 0) throw new DoltSqlError('DOLT_LOG: --tables needs at least one table name.');
      o.tables = [...(o.tables ?? []), ...names];
      return;
    }
    case '--decorate': {
      const v = value();
      if (!['short', 'full', 'no', 'auto'].includes(v))
        throw new DoltSqlError(`DOLT_LOG: --decorate takes short, full, no or auto, not "${v}".`);
      o.decorate = v === 'auto' ? 'no' : (v as 'short' | 'full' | 'no');
      return;
    }
    default:
      throw new DoltSqlError(
        `DOLT_LOG: unknown option "${flag}" (this hub supports --parents, --merges, --min-parents, --not, --decorate and --tables).`,
      );
  }
}

/** The commits the revisions reach, less those the exclusions reach; a symmetric range adds either side's own. */
function pickCommits(ctx: DoltSqlContext, o: LogOptions): Map<string, LogRow> {
  const logs = new Map<string, LogRow[]>();
  const logOf = (hex: string): LogRow[] => {
    let rows = logs.get(hex);
    if (!rows) {
      rows = ctx.rows('SELECT commit_hash, committer, email, date, message FROM dolt_log(?)', [hex]).map((r) => ({
        hex: String(r[0]),
        committer: r[1],
        email: r[2],
        date: String(r[3] ?? ''),
        message: r[4],
      }));
      logs.set(hex, rows);
    }
    return rows;
  };
  const picked = new Map<string, LogRow>();
  for (const hex of o.include) for (const row of logOf(hex)) picked.set(row.hex, row);
  for (const [a, b] of o.symmetric) {
    const inA = new Set(logOf(a).map((r) => r.hex));
    const inB = new Set(logOf(b).map((r) => r.hex));
    for (const row of [...logOf(a), ...logOf(b)]) if (inA.has(row.hex) !== inB.has(row.hex)) picked.set(row.hex, row);
  }
  for (const hex of o.exclude) for (const row of logOf(hex)) picked.delete(row.hex);
  return picked;
}

/** Branch and tag names by commit, as `--decorate short|full` shows them. */
function refNames(ctx: DoltSqlContext, decorate: 'short' | 'full'): Map<string, string[]> {
  const refMap = new Map<string, string[]>();
  for (const [name, hash] of ctx.rows("SELECT name, hash FROM dolt_branches WHERE remote = '' OR remote IS NULL ORDER BY name")) {
    refMap.set(String(hash), [...(refMap.get(String(hash)) ?? []), decorate === 'full' ? `refs/heads/${name}` : String(name)]);
  }
  for (const [name, hash] of ctx.rows('SELECT tag_name, tag_hash FROM dolt_tags ORDER BY tag_name')) {
    refMap.set(String(hash), [...(refMap.get(String(hash)) ?? []), decorate === 'full' ? `refs/tags/${name}` : `tag: ${name}`]);
  }
  return refMap;
}

/**
 * Whether a commit changed any of the named tables (data or schema, created or dropped) against its
 * first parent, as Dolt's --tables means it. DoltLite's dolt_diff table lists that per commit for the
 * history of the connection's HEAD; a commit outside it is compared with its first parent directly.
 */
function tableChanges(ctx: DoltSqlContext, tables: readonly string[], parentMap: Map<string, string[]>): (hex: string) => boolean {
  const wanted = new Set(tables.map((t) => t.toLowerCase()));
  const inHead = new Set(ctx.rows('SELECT commit_hash FROM dolt_log').map((r) => String(r[0])));
  const changedInHead = new Set(
    ctx
      .rows('SELECT commit_hash, table_name FROM dolt_diff')
      .filter((r) => wanted.has(String(r[1]).toLowerCase()))
      .map((r) => String(r[0])),
  );
  return (hex) => {
    if (inHead.has(hex)) return changedInHead.has(hex);
    const parent = parentMap.get(hex)?.[0];
    // A history's first commit is the empty one that initialized the repository.
    if (parent === undefined) return false;
    return ctx
      .rows('SELECT from_table_name, to_table_name FROM dolt_diff_summary(?, ?)', [parent, hex])
      .some((r) => wanted.has(String(r[0]).toLowerCase()) || wanted.has(String(r[1]).toLowerCase()));
  };
}

/** Every commit before its parents; among commits ready at the same time, the newest first. */
function topological(rows: LogRow[], parentMap: Map<string, string[]>): LogRow[] {
  const byHex = new Map(rows.map((r) => [r.hex, r]));
  const children = new Map<string, number>();
  for (const r of rows) for (const p of parentMap.get(r.hex) ?? []) if (byHex.has(p)) children.set(p, (children.get(p) ?? 0) + 1);
  const ready = rows.filter((r) => !children.get(r.hex));
  const out: LogRow[] = [];
  while (ready.length > 0) {
    ready.sort((x, y) => (x.date < y.date ? 1 : x.date > y.date ? -1 : 0));
    const next = ready.shift() as LogRow;
    out.push(next);
    for (const p of parentMap.get(next.hex) ?? []) {
      const left = (children.get(p) ?? 0) - 1;
      children.set(p, left);
      const row = byHex.get(p);
      if (left === 0 && row) ready.push(row);
    }
  }
  return out;
}
