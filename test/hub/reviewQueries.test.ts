// Every review SQL builder (src/core/review/doltQueries.ts) sent through the real hub's SQL
// endpoint on the seeded data, its answer read by the review parsers, and checked against
// independent plain reads: SELECT * FROM t at each ref, the plain dolt_log at each ref, and the
// branch and tag lists of the REST API. Nothing here trusts another review builder for its
// expectations.
import assert from 'node:assert/strict';
import { startHub, type HubHandle } from '../helpers/hub';
import type { Cell, QueryResult } from '../../src/shared/wire';
import {
  buildChangedColumnsQuery,
  buildColumnsQuery,
  buildConflictRowsQuery,
  buildConflictSummaryQuery,
  buildDiffStatQuery,
  buildDiffSummaryQuery,
  buildHashOfQuery,
  buildLogQuery,
  buildMergeBaseQuery,
  buildParentsQuery,
  buildPatchQuery,
  buildPinPairQuery,
  buildReachableQuery,
  buildRowBlameQuery,
  buildRowDiffCountQuery,
  buildRowDiffPageQuery,
  buildRowHistoryQuery,
  buildSchemaDiffQuery,
  buildTableLogQuery,
  type DiffPagePosition,
  type DiffTableSpec,
  type DoltQuery,
  type RowDiffKind,
} from '../../src/core/review/doltQueries';
import {
  firstReachable,
  parseCommitPage,
  parseHashOf,
  parseMergeBase,
  parseParents,
  parsePinnedPair,
  parseReachable,
  type Commit,
} from '../../src/core/review/commitLog';
import { parseConflictPage } from '../../src/core/review/conflicts';
import { parseColumns, parseRowDiffCounts, parseRowDiffPage, type RowDiff } from '../../src/core/review/rowDiff';
import { cellBlame, parseRowBlame, parseRowHistory } from '../../src/core/review/rowHistory';
import { threeDot, twoDot, type RevisionPair } from '../../src/core/review/revisions';
import {
  combineTableChanges,
  parseConflictSummary,
  parseDiffStat,
  parseDiffSummary,
  parsePatchPage,
  parseSchemaDiff,
  type PatchStatement,
} from '../../src/core/review/tableChanges';
import type { TableColumnInfo } from '../../src/core/sql/tableQuery';
import { SqliteEngine } from '../helpers/sqliteEngine';

const PRICES = 'alice/prices';

/**
 * Where the local hub answers a builder's Dolt SQL differently from Dolt (hub bugs, reported for
 * the hub; the builders stay Dolt's). Cases that need a fix are pending until it lands; run them
 * anyway with REVIEW_HUB_GAPS=run.
 */
const HUB_GAPS = {} as const;
function itUnlessHubGap(gap: keyof typeof HUB_GAPS | undefined, title: string, fn: Mocha.AsyncFunc): void {
  if (gap && process.env['REVIEW_HUB_GAPS'] !== 'run') it.skip(`${title} [pending: ${HUB_GAPS[gap]}]`, fn);
  else it(title, fn);
}
const TABLES = ['products', 'stores', 'suppliers', 'prices_2025'];

/** Numbers compare as numbers (a decimal's scale is presentation); everything else as text. */
function norm(v: Cell | undefined): string | null {
  if (v === null || v === undefined) return null;
  return /^-?\d+(\.\d+)?$/.test(v) ? String(Number(v)) : v;
}

type Row = Record<string, Cell>;
interface Plain {
  columns: string[];
  /** Declared types, as the SQL endpoint reports them. */
  types: string[];
  keyColumn: string;
  rows: Map<string, Row>;
}

describe('review SQL through the hub (every builder against plain reads)', function () {
  let hub: HubHandle;

  before(async function () {
    hub = await startHub({ seed: true });
    await hub.token('alice');
  });
  after(async () => hub?.stop());

  const send = async (db: string, ref: string, q: string, limit = 10000): Promise<QueryResult> => {
    const r = await hub.fetch(`/databases/${db}/sql`, { user: 'alice', json: { ref, q, limit } });
    assert.equal(r.status, 200, `HTTP ${r.status} for ${q}: ${r.text}`);
    return r.body.data as QueryResult;
  };
  /** A review query, sent at the ref it names. */
  const run = async (query: DoltQuery, db = PRICES): Promise<QueryResult> => {
    const res = await send(db, query.at, query.sql);
    assert.notEqual(res.status, 'error', `${query.sql} at ${query.at}: ${res.message}`);
    return res;
  };
  const plain = async (q: string, ref: string, db = PRICES): Promise<QueryResult> => {
    const res = await send(db, ref, q);
    assert.equal(res.status, 'success', `${q} at ${ref}: ${res.message}`);
    return res;
  };

  // ---- independent facts

  const branchHead = async (name: string, db = PRICES): Promise<string> => {
    const list = (await hub.fetch(`/databases/${db}/branches`, { user: 'alice' })).body.data as { name: string; head_commit_sha: string }[];
    return list.find((b) => b.name === name)!.head_commit_sha;
  };
  const tagCommit = async (name: string): Promise<string> => {
    const list = (await hub.fetch(`/databases/${PRICES}/tags`, { user: 'alice' })).body.data as { name: string; commit_sha: string }[];
    return list.find((t) => t.name === name)!.commit_sha;
  };
  /** The plain dolt_log at a ref: hash → committer, message, date. */
  const logAt = async (ref: string, db = PRICES): Promise<Map<string, Row>> => {
    const d = await plain('SELECT commit_hash, committer, message, date FROM dolt_log', ref, db);
    return new Map(d.rows.map((r) => [r[0] as string, { committer: r[1] ?? null, message: r[2] ?? null, date: r[3] ?? null }]));
  };
  /** A table at a ref by a plain read (undefined where the table does not exist). */
  const tableAt = async (table: string, ref: string, db = PRICES): Promise<Plain | undefined> => {
    const d = await send(db, ref, `SELECT * FROM \`${table}\``);
    if (d.status !== 'success') return undefined;
    const keyColumn = d.columns.find((c) => c.is_primary_key)?.name ?? (d.columns[0]!.name as string);
    const columns = d.columns.map((c) => c.name);
    const types = d.columns.map((c) => c.type);
    const rows = new Map(
      d.rows.map((r) => [String(r[columns.indexOf(keyColumn)]), Object.fromEntries(columns.map((c, i) => [c, r[i] ?? null]))]),
    );
    return { columns, types, keyColumn, rows };
  };
  /**
   * The same row, compared over the columns of both: a column one side lacks reads NULL there, as
   * Dolt compares rows across a schema change (a column added as NULL changes no row).
   */
  const sameRow = (a: Row | undefined, b: Row | undefined): boolean => {
    if (!a || !b) return a === b;
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].every((c) => norm(a[c]) === norm(b[c]));
  };

  interface Change {
    key: string;
    kind: RowDiffKind;
    from?: Row;
    to?: Row;
  }
  const expectedDiff = async (table: string, from: string, to: string, db = PRICES, toDb = db): Promise<Change[]> => {
    const a = await tableAt(table, from, db);
    const b = await tableAt(table, to, toDb);
    const out: Change[] = [];
    for (const key of new Set([...(a?.rows.keys() ?? []), ...(b?.rows.keys() ?? [])])) {
      const f = a?.rows.get(key);
      const t = b?.rows.get(key);
      if (f && !t) out.push({ key, kind: 'removed', from: f });
      else if (!f && t) out.push({ key, kind: 'added', to: t });
      else if (!sameRow(f, t)) out.push({ key, kind: 'modified', from: f!, to: t! });
    }
    return out.sort((x, y) => Number(x.key) - Number(y.key) || (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  };

  /** The whole log at a ref through buildLogQuery, page by page. */
  const reviewLog = async (ref: string, pageSize: number, db = PRICES): Promise<Commit[]> => {
    const out: Commit[] = [];
    for (let offset = 0; ; offset += pageSize) {
      const page = parseCommitPage(await run(buildLogQuery(ref, { pageSize, offset }), db), pageSize);
      assert.ok(page.completeness.complete);
      out.push(...page.items);
      if (!page.hasMore) return out;
    }
  };

  // ---- history

  it('the commit log at a ref, paged: every commit once, with what the plain log says, and parents that explain the history', async () => {
    const expected = await logAt('main');
    const commits = await reviewLog('main', 4);
    assert.deepEqual(commits.map((c) => c.hash).sort(), [...expected.keys()].sort());
    assert.equal(commits[0]?.hash, await branchHead('main'));
    for (const c of commits) {
      const e = expected.get(c.hash)!;
      assert.equal(c.author, e['committer']);
      assert.equal(c.message, e['message']);
      assert.equal(c.date, e['date']);
      assert.equal(c.isMerge, c.parents.length > 1);
      // What a commit reaches is itself plus what its parents reach.
      const reach = new Set((await logAt(c.hash)).keys());
      const viaParents = new Set([c.hash]);
      for (const p of c.parents) for (const h of (await logAt(p)).keys()) viaParents.add(h);
      assert.deepEqual([...reach].sort(), [...viaParents].sort(), `parents of ${c.shortHash}`);
      // buildParentsQuery agrees, first parent first.
      assert.deepEqual(parseParents(await run(buildParentsQuery(c.hash))), c.parents);
    }
    assert.ok(
      commits.some((c) => c.isMerge),
      'the seed has a merge commit on main',
    );
    assert.equal(commits.filter((c) => c.parents.length === 0).length, 1, 'one first commit');
  });

  itUnlessHubGap(
    undefined,
    'the commits that changed a table: exactly those whose plain read differs from their first parent',
    async () => {
      const commits = await reviewLog('main', 50);
      const expected: string[] = [];
      for (const c of commits) {
        const now = await tableAt('suppliers', c.hash);
        const before = c.parents[0] ? await tableAt('suppliers', c.parents[0]) : undefined;
        const changed =
          JSON.stringify(now?.columns) !== JSON.stringify(before?.columns) ||
          [...new Set([...(now?.rows.keys() ?? []), ...(before?.rows.keys() ?? [])])].some(
            (k) => !sameRow(now?.rows.get(k), before?.rows.get(k)),
          );
        if (changed) expected.push(c.hash);
      }
      assert.ok(expected.length >= 4);
      const page = parseCommitPage(await run(buildTableLogQuery('main', 'suppliers', { pageSize: 50 })), 50);
      assert.deepEqual(page.items.map((c) => c.hash).sort(), expected.sort());
      const paged = [
        ...parseCommitPage(await run(buildTableLogQuery('main', 'suppliers', { pageSize: 2 })), 2).items,
        ...parseCommitPage(await run(buildTableLogQuery('main', 'suppliers', { pageSize: 2, offset: 2 })), 2).items,
      ];
      assert.deepEqual(
        paged.map((c) => c.hash),
        page.items.slice(0, 4).map((c) => c.hash),
      );
    },
  );

  it('HASHOF, the merge base, a pinned pair and reachability agree with the API and the plain logs', async () => {
    assert.equal(parseHashOf(await run(buildHashOfQuery('main'))), await branchHead('main'));
    assert.equal(parseHashOf(await run(buildHashOfQuery('v1'))), await tagCommit('v1'));
    const mainLog = await reviewLog('main', 100);
    assert.equal(parseHashOf(await run(buildHashOfQuery('main~1'))), mainLog[0]!.parents[0]);
    const inMain = new Set((await logAt('main')).keys());
    const base = [...(await logAt('supplier-updates')).keys()].find((h) => inMain.has(h));
    assert.equal(parseMergeBase(await run(buildMergeBaseQuery('main', 'supplier-updates'))), base);
    assert.deepEqual(
      parsePinnedPair(await run(buildPinPairQuery(threeDot('main', 'supplier-updates')))),
      twoDot(base!, await branchHead('supplier-updates')),
    );
    assert.deepEqual(
      parsePinnedPair(await run(buildPinPairQuery(twoDot('v1', 'v2')))),
      twoDot(await tagCommit('v1'), await tagCommit('v2')),
    );
    const featureOnly = [...(await logAt('supplier-updates')).keys()].filter((h) => !inMain.has(h));
    assert.ok(featureOnly.length > 0);
    const reachable = parseReachable(await run(buildReachableQuery('main', [...featureOnly, base!])));
    assert.deepEqual([...reachable], [base]);
  });

  // ---- which tables changed

  const pin = async (pair: RevisionPair, db = PRICES): Promise<{ from: string; to: string }> => {
    const p = parsePinnedPair(await run(buildPinPairQuery(pair), db));
    assert.equal(p.kind, 'twoDot');
    return p as { from: string; to: string };
  };

  const emailCommit = async (): Promise<Commit> =>
    (await reviewLog('main', 100)).find((c) => c.subject === 'Record supplier contact emails')!;

  for (const [label, pairOf] of [
    ['the open pull #4 (three dots)', async (): Promise<RevisionPair> => threeDot('main', 'supplier-updates')],
    ['pull #1, which adds a table', async (): Promise<RevisionPair> => threeDot('main', 'prices-2025')],
    ['two tags', async (): Promise<RevisionPair> => twoDot('v1', 'main')],
    [
      'a commit with a schema change against its parent',
      async (): Promise<RevisionPair> => {
        const c = await emailCommit();
        return twoDot(c.parents[0]!, c.hash);
      },
    ],
  ] as const) {
    it(`changed tables and counts for ${label} match the plain reads on both sides`, async () => {
      const pair = await pairOf();
      const { from, to } = await pin(pair);
      const tables = combineTableChanges(
        parseDiffSummary(await run(buildDiffSummaryQuery(pair))),
        parseDiffStat(await run(buildDiffStatQuery(pair))),
      );
      assert.ok(tables.completeness.complete);
      const expected: { table: string; kind: string; schema: boolean; added: number; modified: number; removed: number }[] = [];
      for (const t of TABLES) {
        const a = await tableAt(t, from);
        const b = await tableAt(t, to);
        if (!a && !b) continue;
        const rows = await expectedDiff(t, from, to);
        const schema = JSON.stringify(a?.columns) !== JSON.stringify(b?.columns);
        if (rows.length === 0 && !schema) continue;
        const count = (k: RowDiffKind): number => rows.filter((r) => r.kind === k).length;
        expected.push({
          table: t,
          kind: !a ? 'added' : !b ? 'dropped' : 'modified',
          schema,
          added: count('added'),
          modified: count('modified'),
          removed: count('removed'),
        });
      }
      assert.ok(expected.length > 0);
      assert.deepEqual(
        tables.tables.map((t) => ({
          table: t.table,
          kind: t.kind,
          schema: t.schemaChanged,
          added: t.rows?.added ?? 0,
          modified: t.rows?.modified ?? 0,
          removed: t.rows?.removed ?? 0,
        })),
        expected.sort((x, y) => (x.table < y.table ? -1 : 1)),
      );
      // One table at a time gives the same line.
      for (const e of expected) {
        const one = parseDiffStat(await run(buildDiffStatQuery(pair, e.table)));
        assert.deepEqual([...one.counts.keys()], e.added + e.modified + e.removed > 0 ? [e.table] : []);
      }
    });
  }

  it("the schema diff shows each side's CREATE statement, with the new column only after", async () => {
    const c = await emailCommit();
    const pair = twoDot(c.parents[0]!, c.hash);
    const s = parseSchemaDiff(await run(buildSchemaDiffQuery(pair, 'suppliers')));
    assert.equal(s.changes.length, 1);
    const before = (await tableAt('suppliers', c.parents[0]!))!.columns;
    const after = (await tableAt('suppliers', c.hash))!.columns;
    for (const col of before) assert.match(s.changes[0]!.fromCreate, new RegExp(`\\b${col}\\b`));
    for (const col of after) assert.match(s.changes[0]!.toCreate, new RegExp(`\\b${col}\\b`));
    assert.ok(!before.includes('email') && after.includes('email'));
    assert.doesNotMatch(s.changes[0]!.fromCreate, /\bemail\b/);
    assert.ok(
      parseSchemaDiff(await run(buildSchemaDiffQuery(threeDot('main', 'supplier-updates')))).changes.length === 0,
      'the pull changes no schema',
    );
  });

  it('the SQL patch, applied page by page to the old rows, gives the new rows', async () => {
    const pair = threeDot('main', 'supplier-updates');
    const { from, to } = await pin(pair);
    const db = await SqliteEngine.open();
    try {
      for (const table of ['suppliers', 'products']) {
        const old = (await tableAt(table, from))!;
        // Declared types give the columns SQLite affinities, so `WHERE id=2` finds the row stored from '2'.
        db.exec(
          `CREATE TABLE \`${table}\` (${old.columns.map((c, i) => `\`${c}\` ${old.types[i]}`).join(', ')}, PRIMARY KEY (\`${old.keyColumn}\`))`,
        );
        for (const r of old.rows.values())
          db.exec(`INSERT INTO \`${table}\` VALUES (${old.columns.map(() => '?').join(', ')})`, { bind: old.columns.map((c) => r[c]) });
        const statements: PatchStatement[] = [];
        let afterOrder: number | undefined;
        for (;;) {
          const page = parsePatchPage(
            await run(buildPatchQuery(pair, table, { pageSize: 2, ...(afterOrder === undefined ? {} : { afterOrder }) })),
            2,
          );
          statements.push(...page.items);
          if (!page.hasMore) break;
          afterOrder = page.items[page.items.length - 1]!.order;
        }
        assert.ok(statements.length > 0);
        for (const s of statements) db.exec(s.statement);
        const now = (await tableAt(table, to))!;
        const byKey = (rows: (string | null)[][]): (string | null)[][] => rows.sort((a, b) => Number(a[0]) - Number(b[0]));
        const got = byKey(db.rows(`SELECT ${now.columns.map((c) => `\`${c}\``).join(', ')} FROM \`${table}\``).map((r) => r.map(norm)));
        const want = byKey([...now.rows.values()].map((r) => now.columns.map((c) => norm(r[c]))));
        assert.deepEqual(got, want, table);
      }
    } finally {
      db.close();
    }
  });

  it('the columns of a table at a revision are those of a plain read there', async () => {
    const c = await emailCommit();
    for (const ref of [c.parents[0]!, c.hash, 'main']) {
      const cols = parseColumns(await run(buildColumnsQuery('suppliers', ref)));
      const plainCols = (await plain('SELECT * FROM suppliers LIMIT 0', ref)).columns;
      assert.deepEqual(
        cols.map((x) => x.name),
        plainCols.map((x) => x.name),
        ref,
      );
      assert.deepEqual(
        cols.filter((x) => x.primaryKey).map((x) => x.name),
        ['id'],
      );
    }
    // suppliers came after v2: no such table there.
    const q = buildColumnsQuery('suppliers', 'v2');
    assert.equal((await send(PRICES, q.at, q.sql)).status, 'error');
  });

  // ---- row diffs

  /** The table's columns on each side of a pinned pair ([] where it does not exist). */
  const specFor = async (table: string, from: string, to: string, db = PRICES): Promise<DiffTableSpec> => {
    const cols = async (ref: string): Promise<TableColumnInfo[]> => {
      const res = await send(db, ref, buildColumnsQuery(table, ref).sql);
      return res.status === 'success' ? parseColumns(res) : [];
    };
    return { table, fromColumns: await cols(from), toColumns: await cols(to) };
  };

  const walk = async (
    pair: RevisionPair,
    spec: DiffTableSpec,
    pageSize: number,
    how: 'keyset' | 'offset',
    kinds?: RowDiffKind[],
    db = PRICES,
  ): Promise<RowDiff[]> => {
    const out: RowDiff[] = [];
    let position: DiffPagePosition = { kind: 'first' };
    for (;;) {
      const page = parseRowDiffPage(
        await run(buildRowDiffPageQuery(pair, spec, { ...(kinds ? { kinds } : {}), position, pageSize }), db),
        spec,
        pageSize,
      );
      assert.ok(page.completeness.complete);
      out.push(...page.rows);
      if (!page.hasMore) return out;
      position = how === 'keyset' ? { kind: 'after', key: page.nextAfter! } : { kind: 'offset', offset: out.length };
    }
  };

  const assertRows = (got: RowDiff[], want: Change[], what: string): void => {
    assert.deepEqual(
      got.map((r) => `${r.kind} ${r.key.join('|')}`),
      want.map((c) => `${c.kind} ${c.key}`),
      `${what}: kinds and keys in key order`,
    );
    got.forEach((r, i) => {
      const w = want[i]!;
      for (const cell of r.cells) {
        assert.equal(
          norm(cell.old),
          w.from && cell.column in w.from ? norm(w.from[cell.column]) : null,
          `${what}: old ${cell.column} of ${w.key}`,
        );
        assert.equal(
          norm(cell.new),
          w.to && cell.column in w.to ? norm(w.to[cell.column]) : null,
          `${what}: new ${cell.column} of ${w.key}`,
        );
        if (r.kind === 'modified' && cell.presence === 'both')
          assert.equal(
            cell.changed,
            norm(w.from![cell.column]) !== norm(w.to![cell.column]),
            `${what}: changed ${cell.column} of ${w.key}`,
          );
      }
    });
  };

  for (const [label, table, pairOf] of [
    ['pull #4, suppliers', 'suppliers', async (): Promise<RevisionPair> => threeDot('main', 'supplier-updates')],
    ['pull #4, products', 'products', async (): Promise<RevisionPair> => threeDot('main', 'supplier-updates')],
    ['pull #1, a new table', 'prices_2025', async (): Promise<RevisionPair> => threeDot('main', 'prices-2025')],
    ['v1 to main, products', 'products', async (): Promise<RevisionPair> => twoDot('v1', 'main')],
    [
      'a schema change (a column added)',
      'suppliers',
      async (): Promise<RevisionPair> => {
        const c = await emailCommit();
        return twoDot(c.parents[0]!, c.hash);
      },
    ],
  ] as const) {
    itUnlessHubGap(
      undefined,
      `row diff of ${label}: keyset and offset pages, counts and the kind filter match the plain reads`,
      async () => {
        const pair = await pairOf();
        const { from, to } = await pin(pair);
        const spec = await specFor(table, from, to);
        const want = await expectedDiff(table, from, to);
        assert.ok(want.length > 0);
        assertRows(await walk(pair, spec, 2, 'keyset'), want, 'keyset');
        assertRows(await walk(twoDot(from, to), spec, 3, 'offset'), want, 'offset, pinned');
        assertRows(
          await walk(pair, spec, 1, 'keyset', ['modified']),
          want.filter((c) => c.kind === 'modified'),
          'modified only',
        );
        const counts = parseRowDiffCounts(await run(buildRowDiffCountQuery(pair, table)));
        assert.deepEqual(
          [counts.added, counts.modified, counts.removed],
          (['added', 'modified', 'removed'] as const).map((k) => want.filter((c) => c.kind === k).length),
        );
        // Which columns on both sides some modified row changed ("hide unchanged columns").
        const both = spec.toColumns.filter((c) => spec.fromColumns.some((f) => f.name === c.name)).map((c) => c.name);
        if (both.length > 0) {
          const flags = (await run(buildChangedColumnsQuery(pair, table, both))).rows[0]!;
          const changedByPlainReads = both.map((c) =>
            want.some((w) => w.kind === 'modified' && norm(w.from![c]) !== norm(w.to![c])) ? '1' : '0',
          );
          assert.deepEqual(
            flags.map((f) => norm(f)),
            changedByPlainReads,
            `changed columns of ${both.join(', ')}`,
          );
        }
      },
    );
  }

  // ---- one row

  it('row history of a row: one version per change, newest first, matching plain reads at every commit; cell blame follows', async () => {
    const cols = (await specFor('suppliers', 'main', 'main')).toColumns;
    const history = parseRowHistory(await run(buildRowHistoryQuery('main', 'suppliers', cols, ['1'], 100)), cols, 100);
    assert.equal(history.truncated, false);
    // Expected: the row at each commit of main that has it, by commit date, runs collapsed.
    const log = [...(await logAt('main')).entries()].sort((a, b) =>
      a[1]['date']! < b[1]['date']! ? 1 : a[1]['date']! > b[1]['date']! ? -1 : 0,
    );
    const runs: { commit: string; row: Row }[] = [];
    for (const [hash] of log) {
      const row = (await tableAt('suppliers', hash))?.rows.get('1');
      if (!row) continue;
      // The columns of the current schema (a column added later reads NULL before).
      const shaped = Object.fromEntries(cols.map((c) => [c.name, row[c.name] ?? null]));
      const last = runs[runs.length - 1];
      if (last && sameRow(last.row, shaped)) last.commit = hash;
      else runs.push({ commit: hash, row: shaped });
    }
    assert.ok(runs.length >= 3);
    assert.deepEqual(
      history.versions.map((v) => [v.commit, v.cells.map(norm)]),
      runs.map((r) => [r.commit, cols.map((c) => norm(r.row[c.name]))]),
    );
    const rating = cols.findIndex((c) => c.name === 'rating');
    const lastRatingChange = runs.findIndex((r, i) => runs[i + 1] && norm(r.row['rating']) !== norm(runs[i + 1]!.row['rating']));
    assert.equal(cellBlame(history, 'rating')?.commit, runs[lastRatingChange]!.commit);
    assert.ok(history.versions[lastRatingChange]!.changed[rating]);
  });

  it('row blame names the last commit that changed the row', async () => {
    const cols = (await specFor('suppliers', 'main', 'main')).toColumns;
    const blame = parseRowBlame(await run(buildRowBlameQuery('main', 'suppliers', cols, ['1'])));
    // Expected: walking main's first parents, the first commit whose row 1 differs from its parent's.
    let c = (await reviewLog('main', 100))[0]!;
    const byHash = new Map((await reviewLog('main', 100)).map((x) => [x.hash, x]));
    for (;;) {
      const now = (await tableAt('suppliers', c.hash))?.rows.get('1');
      const before = c.parents[0] ? (await tableAt('suppliers', c.parents[0]))?.rows.get('1') : undefined;
      if (!sameRow(now, before)) break;
      c = byHash.get(c.parents[0]!)!;
    }
    assert.equal(blame?.commit, c.hash);
    assert.equal(blame?.committer, c.author);
    assert.equal(parseRowBlame(await run(buildRowBlameQuery('main', 'suppliers', cols, ['999']))), undefined);
  });

  // ---- conflict preview

  const expectedConflicts = async (table: string, base: string, ours: string, theirs: string): Promise<string[]> => {
    const [b, o, t] = [await tableAt(table, base), await tableAt(table, ours), await tableAt(table, theirs)];
    const keys = new Set([...(b?.rows.keys() ?? []), ...(o?.rows.keys() ?? []), ...(t?.rows.keys() ?? [])]);
    return [...keys].filter((k) => {
      const [rb, ro, rt] = [b?.rows.get(k), o?.rows.get(k), t?.rows.get(k)];
      return !sameRow(rb, ro) && !sameRow(rb, rt) && !sameRow(ro, rt);
    });
  };

  it('the conflict preview of pull #5 finds the rows both sides changed differently, with base, ours and theirs', async () => {
    const base = parseMergeBase(await run(buildMergeBaseQuery('main', 'vale-rating')));
    const summary = parseConflictSummary(await run(buildConflictSummaryQuery('main', 'vale-rating')));
    const want = await expectedConflicts('suppliers', base, 'main', 'vale-rating');
    assert.equal(want.length, 1);
    assert.deepEqual(
      summary.tables.filter((t) => (t.dataConflicts ?? 0) > 0).map((t) => [t.table, t.dataConflicts]),
      [['suppliers', want.length]],
    );
    const page = parseConflictPage(await run(buildConflictRowsQuery('main', 'vale-rating', 'suppliers', { pageSize: 10 })), 10);
    assert.equal(page.rows.length, 1);
    const [b, o, t] = [
      (await tableAt('suppliers', base))!,
      (await tableAt('suppliers', 'main'))!,
      (await tableAt('suppliers', 'vale-rating'))!,
    ];
    const at = (p: Plain, col: string): string | null => norm(p.rows.get(want[0]!)?.[col]);
    page.columns.forEach((col, i) => {
      assert.equal(norm(page.rows[0]!.base[i]), at(b, col), `base ${col}`);
      assert.equal(norm(page.rows[0]!.ours[i]), at(o, col), `ours ${col}`);
      assert.equal(norm(page.rows[0]!.theirs[i]), at(t, col), `theirs ${col}`);
    });
  });

  it('the clean pull #4 previews no conflicts, as the plain reads predict', async () => {
    const base = parseMergeBase(await run(buildMergeBaseQuery('main', 'supplier-updates')));
    for (const table of ['suppliers', 'products'])
      assert.deepEqual(await expectedConflicts(table, base, 'main', 'supplier-updates'), [], table);
    const summary = parseConflictSummary(await run(buildConflictSummaryQuery('main', 'supplier-updates')));
    assert.deepEqual(
      summary.tables.filter((t) => (t.dataConflicts ?? 0) > 0 || (t.schemaConflicts ?? 0) > 0),
      [],
    );
  });

  // ---- a cross-fork pull, read on the fork

  itUnlessHubGap(undefined, 'a cross-fork pull: the merge base from the fork log and the target, the diff read on the fork', async () => {
    const forkLog = (await reviewLog('fix-typo', 10, 'bob/inventory')).map((c) => c.hash);
    const reachable = parseReachable(await run(buildReachableQuery('main', forkLog), 'alice/inventory'));
    const base = firstReachable(forkLog, reachable);
    assert.ok(base);
    const targetLog = new Set((await logAt('main', 'alice/inventory')).keys());
    assert.equal(
      base,
      forkLog.find((h) => targetLog.has(h)),
    );
    const head = await branchHead('fix-typo', 'bob/inventory');
    const pair = twoDot(base!, head);
    const spec = await specFor('stock', base!, head, 'bob/inventory');
    const want = await expectedDiff('stock', base!, 'fix-typo', 'alice/inventory', 'bob/inventory');
    assert.equal(want.length, 1);
    assertRows(await walk(pair, spec, 5, 'keyset', undefined, 'bob/inventory'), want, 'cross-fork');
  });
});
