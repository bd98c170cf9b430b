// The exact SQL of every review builder for typical input, what happens to hostile names and
// refs, and the page boundaries. Table-function arguments are read back with MySQL's literal
// rules (reviewTestKit); the other statements are also parsed as MySQL.
import { strict as assert } from 'node:assert';
import pkg from 'node-sql-parser';
import {
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
  buildChangedColumnsQuery,
  buildReachableQuery,
  buildRowBlameQuery,
  buildRowDiffCountQuery,
  buildRowDiffPageQuery,
  buildRowHistoryQuery,
  buildSchemaDiffQuery,
  buildTableLogQuery,
  diffKey,
  diffKeysetSupported,
  type DiffTableSpec,
} from '../../../../src/core/review/doltQueries';
import { RevisionError, threeDot, twoDot } from '../../../../src/core/review/revisions';
import { SqlInputError } from '../../../../src/core/sql/quote';
import type { TableColumnInfo } from '../../../../src/core/sql/tableQuery';
import { HOSTILE_TEXT } from '../sql/hostileText';
import { tableFunctionArgs } from './reviewTestKit';

const mysql = new pkg.Parser();
function assertMysql(sql: string): void {
  assert.doesNotThrow(() => mysql.astify(sql, { database: 'MySQL' }), `not MySQL: ${sql}`);
}

const H1 = 'qi331vjgoavqpi5am334cji1gmhlkdv5';
const H2 = '137qgvrsve1u458briekqar5f7iiqq2j';

const PRODUCTS: TableColumnInfo[] = [
  { name: 'id', type: 'bigint', primaryKey: true, nullable: false },
  { name: 'name', type: 'varchar(255)', primaryKey: false, nullable: false },
  { name: 'price', type: 'decimal(10,2)', primaryKey: false },
];
const SPEC: DiffTableSpec = { table: 'products', fromColumns: PRODUCTS, toColumns: PRODUCTS };

describe('review SQL builders (Dolt dialect, one module)', () => {
  describe('history', () => {
    it('commit log at a ref, paged, with parents; the revision comes first', () => {
      assert.deepEqual(buildLogQuery('main', { pageSize: 50 }), {
        sql: "SELECT commit_hash, committer, email, date, message, parents FROM DOLT_LOG('main', '--parents') LIMIT 51",
        at: 'main',
      });
      assert.equal(
        buildLogQuery('v1~2', { pageSize: 50, offset: 100 }).sql,
        "SELECT commit_hash, committer, email, date, message, parents FROM DOLT_LOG('v1~2', '--parents') LIMIT 51 OFFSET 100",
      );
      assert.equal(buildLogQuery('v1~2', { pageSize: 50, offset: 100 }).at, 'v1');
    });

    it('commits that changed a table', () => {
      assert.deepEqual(buildTableLogQuery(H1, "o'dd table", { pageSize: 20, offset: 20 }), {
        sql: `SELECT commit_hash, committer, email, date, message, parents FROM DOLT_LOG('${H1}', '--parents', '--tables', 'o''dd table') LIMIT 21 OFFSET 20`,
        at: H1,
      });
      assert.deepEqual(tableFunctionArgs(buildTableLogQuery('main', "o'dd table", { pageSize: 1 }).sql, 'DOLT_LOG'), [
        'main',
        '--parents',
        '--tables',
        "o'dd table",
      ]);
      assert.throws(() => buildTableLogQuery('main', 'a,b', { pageSize: 1 }), /comma/);
      assert.throws(() => buildTableLogQuery('main', '-t', { pageSize: 1 }), /starts with -/);
    });

    it('refuses a ref DOLT_LOG would read as an option', () => {
      assert.throws(
        () => buildLogQuery('fix--typo', { pageSize: 10 }),
        (e: unknown) => e instanceof RevisionError && /use its commit hash/.test(e.message),
      );
    });

    it('parents, HASHOF, merge base and the pinned pair', () => {
      assert.deepEqual(buildParentsQuery(H1), {
        sql: `SELECT parent_hash, parent_index FROM dolt_commit_ancestors WHERE commit_hash = '${H1}' ORDER BY parent_index`,
        at: H1,
      });
      assert.throws(() => buildParentsQuery('main'), RevisionError);
      assert.deepEqual(buildHashOfQuery('v2'), { sql: "SELECT HASHOF('v2') AS commit_hash", at: 'v2' });
      assert.deepEqual(buildMergeBaseQuery('main', 'feature'), {
        sql: "SELECT DOLT_MERGE_BASE('main', 'feature') AS merge_base",
        at: 'feature',
      });
      assert.deepEqual(buildPinPairQuery(twoDot(`${H1}~1`, H1)), {
        sql: `SELECT HASHOF('${H1}~1') AS from_commit, HASHOF('${H1}') AS to_commit`,
        at: H1,
      });
      assert.deepEqual(buildPinPairQuery(threeDot('main', 'prices-2025')), {
        sql: "SELECT DOLT_MERGE_BASE('main', 'prices-2025') AS from_commit, HASHOF('prices-2025') AS to_commit",
        at: 'prices-2025',
      });
      for (const q of [
        buildParentsQuery(H1),
        buildHashOfQuery('v2'),
        buildMergeBaseQuery('main', 'f'),
        buildPinPairQuery(threeDot('main', 'f')),
      ])
        assertMysql(q.sql);
    });

    it('which commits a ref reaches (cross-fork merge base)', () => {
      assert.deepEqual(buildReachableQuery('main', [H1, H2]), {
        sql: `SELECT commit_hash FROM dolt_log WHERE commit_hash IN ('${H1}', '${H2}')`,
        at: 'main',
      });
      assertMysql(buildReachableQuery('main', [H1]).sql);
      assert.throws(() => buildReachableQuery('main', []), SqlInputError);
      assert.throws(() => buildReachableQuery('main', ["x' OR '1'='1"]), RevisionError);
      assert.throws(() => buildReachableQuery('main~1', [H1]), RevisionError);
    });
  });

  describe('changed tables', () => {
    it('two-dot pairs pass two revisions, three-dot pairs one `a...b` argument', () => {
      assert.deepEqual(buildDiffStatQuery(twoDot(`${H1}~1`, H1)), {
        sql: `SELECT table_name, rows_unmodified, rows_added, rows_deleted, rows_modified, cells_added, cells_deleted, cells_modified, old_row_count, new_row_count FROM DOLT_DIFF_STAT('${H1}~1', '${H1}')`,
        at: H1,
      });
      assert.deepEqual(buildDiffSummaryQuery(threeDot('main', 'prices-2025')), {
        sql: "SELECT from_table_name, to_table_name, diff_type, data_change, schema_change FROM DOLT_DIFF_SUMMARY('main...prices-2025')",
        at: 'prices-2025',
      });
      assert.equal(
        buildSchemaDiffQuery(twoDot('v1', 'v2'), 'products').sql,
        "SELECT from_table_name, to_table_name, from_create_statement, to_create_statement FROM DOLT_SCHEMA_DIFF('v1', 'v2', 'products')",
      );
      assert.equal(buildDiffStatQuery(threeDot('main', 'f'), 'stock').sql.endsWith("FROM DOLT_DIFF_STAT('main...f', 'stock')"), true);
    });

    it('SQL patch pages by statement order', () => {
      assert.deepEqual(buildPatchQuery(twoDot('v1', 'v2'), 'products', { pageSize: 500 }), {
        sql: "SELECT statement_order, statement FROM DOLT_PATCH('v1', 'v2', 'products') ORDER BY statement_order LIMIT 501",
        at: 'v2',
      });
      assert.equal(
        buildPatchQuery(threeDot('main', 'f'), 'products', { pageSize: 500, afterOrder: 500 }).sql,
        "SELECT statement_order, statement FROM DOLT_PATCH('main...f', 'products') WHERE statement_order > 500 ORDER BY statement_order LIMIT 501",
      );
    });

    it('columns of a table at a branch, tag or commit: DESCRIBE sent at that ref', () => {
      assert.deepEqual(buildColumnsQuery('my `t`', H1), { sql: 'DESCRIBE `my ``t```', at: H1 });
      assert.throws(() => buildColumnsQuery('t', 'main~1'), RevisionError);
    });
  });

  describe('row diff', () => {
    it('the first page: change kind, both sides, ordered by the key on either side', () => {
      assert.deepEqual(buildRowDiffPageQuery(threeDot('main', 'prices-2025'), SPEC, { position: { kind: 'first' }, pageSize: 100 }), {
        sql:
          "SELECT diff_type, `from_id`, `from_name`, `from_price`, `to_id`, `to_name`, `to_price` FROM DOLT_DIFF('main...prices-2025', 'products')" +
          ' ORDER BY COALESCE(`to_id`, `from_id`) ASC LIMIT 101',
        at: 'prices-2025',
      });
    });

    it('a filter by kind, a keyset page after a key, an offset page', () => {
      const pair = twoDot(H2, H1);
      assert.equal(
        buildRowDiffPageQuery(pair, SPEC, { kinds: ['modified'], position: { kind: 'after', key: ['9007199254740993'] }, pageSize: 10 })
          .sql,
        `SELECT diff_type, \`from_id\`, \`from_name\`, \`from_price\`, \`to_id\`, \`to_name\`, \`to_price\` FROM DOLT_DIFF('${H2}', '${H1}', 'products')` +
          " WHERE diff_type = 'modified' AND COALESCE(`to_id`, `from_id`) > 9007199254740993 ORDER BY COALESCE(`to_id`, `from_id`) ASC LIMIT 11",
      );
      assert.match(
        buildRowDiffPageQuery(pair, SPEC, { kinds: ['added', 'removed'], position: { kind: 'offset', offset: 30 }, pageSize: 10 }).sql,
        / WHERE diff_type IN \('added', 'removed'\) ORDER BY COALESCE\(`to_id`, `from_id`\) ASC LIMIT 11 OFFSET 30$/,
      );
      // All three kinds is no filter; offset 0 is no OFFSET.
      assert.match(
        buildRowDiffPageQuery(pair, SPEC, {
          kinds: ['removed', 'added', 'modified'],
          position: { kind: 'offset', offset: 0 },
          pageSize: 10,
        }).sql,
        /\) ORDER BY COALESCE\(`to_id`, `from_id`\) ASC LIMIT 11$/,
      );
    });

    it('a composite key compares column by column; text keys are literals', () => {
      const cols: TableColumnInfo[] = [
        { name: 'store', type: 'varchar(10)', primaryKey: true },
        { name: 'day', type: 'date', primaryKey: true },
        { name: 'qty', type: 'int', primaryKey: false },
      ];
      const spec = { table: 'sales', fromColumns: cols, toColumns: cols };
      const sql = buildRowDiffPageQuery(twoDot('a', 'b'), spec, {
        position: { kind: 'after', key: ["o'k", '2026-01-02'] },
        pageSize: 5,
      }).sql;
      assert.match(
        sql,
        / WHERE \(COALESCE\(`to_store`, `from_store`\) > 'o''k' OR \(COALESCE\(`to_store`, `from_store`\) = 'o''k' AND COALESCE\(`to_day`, `from_day`\) > '2026-01-02'\)\) ORDER BY COALESCE\(`to_store`, `from_store`\) ASC, COALESCE\(`to_day`, `from_day`\) ASC LIMIT 6$/,
      );
    });

    it('a table only on one side is keyed by that side; a changed or missing key pages by offset', () => {
      const added = { table: 'prices_2025', fromColumns: [], toColumns: PRODUCTS };
      assert.deepEqual(
        diffKey(added).map((k) => k.expr),
        ['`to_id`'],
      );
      assert.equal(
        buildRowDiffPageQuery(twoDot('a', 'b'), added, { position: { kind: 'first' }, pageSize: 5 }).sql,
        "SELECT diff_type, `to_id`, `to_name`, `to_price` FROM DOLT_DIFF('a', 'b', 'prices_2025') ORDER BY `to_id` ASC LIMIT 6",
      );
      const dropped = { table: 't', fromColumns: PRODUCTS, toColumns: [] };
      assert.deepEqual(
        diffKey(dropped).map((k) => k.expr),
        ['`from_id`'],
      );
      const rekeyed = { table: 't', fromColumns: PRODUCTS, toColumns: PRODUCTS.map((c) => ({ ...c, primaryKey: c.name === 'name' })) };
      assert.deepEqual(diffKey(rekeyed), []);
      assert.equal(diffKeysetSupported(rekeyed), false);
      assert.equal(
        buildRowDiffPageQuery(twoDot('a', 'b'), rekeyed, { position: { kind: 'offset', offset: 7 }, pageSize: 5 }).sql.endsWith(
          "FROM DOLT_DIFF('a', 'b', 't') LIMIT 6 OFFSET 7",
        ),
        true,
      );
      assert.throws(
        () => buildRowDiffPageQuery(twoDot('a', 'b'), rekeyed, { position: { kind: 'after', key: ['1'] }, pageSize: 5 }),
        /paged by offset/,
      );
      const floatKey = {
        table: 't',
        fromColumns: [{ name: 'x', type: 'double', primaryKey: true }],
        toColumns: [{ name: 'x', type: 'double', primaryKey: true }],
      };
      assert.equal(diffKeysetSupported(floatKey), false);
    });

    it('a schema change selects each side with its own columns', () => {
      const from = PRODUCTS;
      const to = [
        PRODUCTS[0] as TableColumnInfo,
        PRODUCTS[1] as TableColumnInfo,
        { name: 'category', type: 'varchar(64)', primaryKey: false },
      ];
      const sql = buildRowDiffPageQuery(
        twoDot('a', 'b'),
        { table: 'products', fromColumns: from, toColumns: to },
        { position: { kind: 'first' }, pageSize: 5 },
      ).sql;
      assert.match(sql, /^SELECT diff_type, `from_id`, `from_name`, `from_price`, `to_id`, `to_name`, `to_category` FROM/);
    });

    it('finds the columns changed in any modified row, in one scan, quoting names', () => {
      assert.deepEqual(buildChangedColumnsQuery(threeDot('main', 'f'), 'stock', ['qty', 'a`b']), {
        sql:
          "SELECT MAX(CASE WHEN diff_type <> 'modified' THEN 0 WHEN `from_qty` IS NULL AND `to_qty` IS NULL THEN 0 WHEN `from_qty` IS NULL OR `to_qty` IS NULL OR `from_qty` <> `to_qty` THEN 1 ELSE 0 END) AS changed_0, " +
          "MAX(CASE WHEN diff_type <> 'modified' THEN 0 WHEN `from_a``b` IS NULL AND `to_a``b` IS NULL THEN 0 WHEN `from_a``b` IS NULL OR `to_a``b` IS NULL OR `from_a``b` <> `to_a``b` THEN 1 ELSE 0 END) AS changed_1 " +
          "FROM DOLT_DIFF('main...f', 'stock')",
        at: 'f',
      });
      assert.throws(() => buildChangedColumnsQuery(twoDot('a', 'b'), 'stock', []), /at least one column/);
    });

    it('counts per kind', () => {
      assert.deepEqual(buildRowDiffCountQuery(threeDot('main', 'f'), 'stock'), {
        sql: "SELECT diff_type, COUNT(*) AS row_count FROM DOLT_DIFF('main...f', 'stock') GROUP BY diff_type",
        at: 'f',
      });
    });

    it('refuses bad pages and cursors', () => {
      const pair = twoDot('a', 'b');
      assert.throws(() => buildRowDiffPageQuery(pair, SPEC, { position: { kind: 'first' }, pageSize: 0 }), /at least one row/);
      assert.throws(() => buildRowDiffPageQuery(pair, SPEC, { position: { kind: 'first' }, pageSize: 1.5 }), SqlInputError);
      assert.throws(() => buildRowDiffPageQuery(pair, SPEC, { position: { kind: 'offset', offset: -1 }, pageSize: 5 }), SqlInputError);
      assert.throws(() => buildRowDiffPageQuery(pair, SPEC, { position: { kind: 'after', key: [] }, pageSize: 5 }), /needs 1 values/);
      assert.throws(() => buildRowDiffPageQuery(pair, SPEC, { position: { kind: 'after', key: [null] }, pageSize: 5 }), /cannot be NULL/);
      assert.throws(() => buildRowDiffPageQuery(pair, SPEC, { kinds: [], position: { kind: 'first' }, pageSize: 5 }), /at least one kind/);
      assert.throws(
        () => buildRowDiffPageQuery(pair, SPEC, { kinds: ['gone' as 'added'], position: { kind: 'first' }, pageSize: 5 }),
        /Unknown kind/,
      );
      assert.throws(
        () => buildRowDiffPageQuery(pair, { table: 't', fromColumns: [], toColumns: [] }, { position: { kind: 'first' }, pageSize: 5 }),
        /no columns/,
      );
    });
  });

  describe('one row', () => {
    it('history of a row by its key, newest first, with one row more than the limit', () => {
      assert.deepEqual(buildRowHistoryQuery('main', 'products', PRODUCTS, ['3'], 200), {
        sql:
          'SELECT h.`id`, h.`name`, h.`price`, h.commit_hash, h.committer, h.commit_date FROM `dolt_history_products` AS h' +
          ' JOIN dolt_log AS l ON l.commit_hash = h.commit_hash WHERE h.`id` = 3' +
          ' ORDER BY l.commit_order DESC, h.commit_date DESC, h.commit_hash ASC LIMIT 201',
        at: 'main',
      });
      assertMysql(buildRowHistoryQuery('main', 'products', PRODUCTS, ['3'], 200).sql);
    });

    it('blame of a row', () => {
      const cols: TableColumnInfo[] = [
        { name: 'sku', type: 'varchar(32)', primaryKey: true },
        { name: 'quantity', type: 'int', primaryKey: false },
      ];
      assert.deepEqual(buildRowBlameQuery(H1, 'stock', cols, ["B-300'"]), {
        sql: "SELECT `commit`, commit_date, committer, email, message FROM `dolt_blame_stock` WHERE `sku` = 'B-300'''",
        at: H1,
      });
      assertMysql(buildRowBlameQuery(H1, 'stock', cols, ['B-300']).sql);
    });

    it('a key must be whole and the ref a fixed point', () => {
      assert.throws(() => buildRowHistoryQuery('main~1', 'products', PRODUCTS, ['3'], 10), RevisionError);
      assert.throws(() => buildRowHistoryQuery('main', 'products', PRODUCTS, [], 10), /1 columns, got 0/);
      assert.throws(() => buildRowHistoryQuery('main', 'products', PRODUCTS, [null], 10), /cannot be NULL/);
      assert.throws(() => buildRowHistoryQuery('main', 'log', [{ name: 'x', type: 'text', primaryKey: false }], ['a'], 10), /primary key/);
      assert.throws(() => buildRowHistoryQuery('main', 'products', PRODUCTS, ['3'], 0), /at least one row/);
    });
  });

  describe('conflict preview', () => {
    it('summary and rows: the pull target first (ours), the pull head second (theirs)', () => {
      assert.deepEqual(buildConflictSummaryQuery('main', 'fix-typo'), {
        sql: "SELECT `table`, num_data_conflicts, num_schema_conflicts FROM DOLT_PREVIEW_MERGE_CONFLICTS_SUMMARY('main', 'fix-typo')",
        at: 'main',
      });
      assert.deepEqual(buildConflictRowsQuery('main', H1, 'stock', { pageSize: 100, offset: 200 }), {
        sql: `SELECT * FROM DOLT_PREVIEW_MERGE_CONFLICTS('main', '${H1}', 'stock') LIMIT 101 OFFSET 200`,
        at: 'main',
      });
    });
  });

  describe('hostile input', () => {
    const pair = threeDot('main', 'feature/x');

    it('hostile table names round-trip as literals, or are refused when no plain literal can hold them', () => {
      for (const name of HOSTILE_TEXT) {
        const build = (): string => buildRowDiffCountQuery(pair, name).sql;
        if (name === '' || /[\\\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(name)) {
          assert.throws(build, SqlInputError, JSON.stringify(name));
          continue;
        }
        assert.deepEqual(tableFunctionArgs(build(), 'DOLT_DIFF'), ['main...feature/x', name], JSON.stringify(name));
        assert.deepEqual(tableFunctionArgs(buildDiffStatQuery(pair, name).sql, 'DOLT_DIFF_STAT'), ['main...feature/x', name]);
        assert.deepEqual(
          tableFunctionArgs(buildConflictRowsQuery('main', 'f', name, { pageSize: 1 }).sql, 'DOLT_PREVIEW_MERGE_CONFLICTS'),
          ['main', 'f', name],
        );
      }
    });

    it('hostile identifiers are quoted where they are identifiers', () => {
      const cols: TableColumnInfo[] = [
        { name: 'k`ey', type: 'int', primaryKey: true },
        { name: "v'al", type: 'text', primaryKey: false },
      ];
      const sql = buildRowHistoryQuery('main', 'we`ird', cols, ['1'], 5).sql;
      assert.equal(
        sql,
        "SELECT h.`k``ey`, h.`v'al`, h.commit_hash, h.committer, h.commit_date FROM `dolt_history_we``ird` AS h JOIN dolt_log AS l ON l.commit_hash = h.commit_hash" +
          ' WHERE h.`k``ey` = 1 ORDER BY l.commit_order DESC, h.commit_date DESC, h.commit_hash ASC LIMIT 6',
      );
      assertMysql(sql);
      const diff = buildRowDiffPageQuery(
        twoDot('a', 'b'),
        { table: 't', fromColumns: cols, toColumns: cols },
        { position: { kind: 'after', key: ['1 OR 1=1'] }, pageSize: 5 },
      ).sql;
      // An integer key that is not a number stays a string literal.
      assert.match(diff, /COALESCE\(`to_k``ey`, `from_k``ey`\) > '1 OR 1=1'/);
    });

    it('hostile refs never reach SQL', () => {
      const bad = ["main'; DROP TABLE t; --", 'a b', 'x\\y', 'HEAD', '', 'a..b', 'a...b', '-x', 'main~x', 'a\u0000b'];
      for (const ref of bad) {
        assert.throws(() => buildLogQuery(ref, { pageSize: 5 }), RevisionError, JSON.stringify(ref));
        assert.throws(() => buildDiffSummaryQuery(twoDot(ref, 'main')), RevisionError, JSON.stringify(ref));
        assert.throws(() => buildDiffSummaryQuery(threeDot('main', ref)), RevisionError, JSON.stringify(ref));
        assert.throws(() => buildRowHistoryQuery(ref, 'products', PRODUCTS, ['1'], 5), RevisionError, JSON.stringify(ref));
        assert.throws(() => buildConflictSummaryQuery(ref, 'main'), RevisionError, JSON.stringify(ref));
        assert.throws(() => buildColumnsQuery('products', ref), RevisionError, JSON.stringify(ref));
        assert.throws(() => buildHashOfQuery(ref), RevisionError, JSON.stringify(ref));
      }
    });

    it('a quote in a ref name is a valid Dolt name and travels as a literal', () => {
      assert.deepEqual(tableFunctionArgs(buildLogQuery("o'brien", { pageSize: 5 }).sql, 'DOLT_LOG'), ["o'brien", '--parents']);
      assert.deepEqual(tableFunctionArgs(buildDiffSummaryQuery(threeDot("o'brien", 'main')).sql, 'DOLT_DIFF_SUMMARY'), ["o'brien...main"]);
    });
  });
});
