// The proof of what was sent and the stale-base check (issue #23) against the real hub: branches
// are shaped by imports, and what the checks report is held to what plain reads at both commits
// show. The proof reads a diff of the change set's size in one pass of DOLT_DIFF and must fall back
// to the paged diff to name rows the change set did not send; the stale-base check reads the
// change set's rows by key at both commits.
import assert from 'node:assert/strict';
import { HubClient, collectAll } from '../../src/api/index';
import { changesToEditedRows, proposalDifferences } from '../../src/core/changes/branchDiff';
import { describeDifference } from '../../src/core/changes/proposalCheck';
import type { ProposalInput } from '../../src/core/changes/proposalFiles';
import { SqlPort, type ReviewRunner } from '../../src/core/sql/sqlPort';
import type { Cell, QueryColumn } from '../../src/shared/wire';
import { startHub, type HubHandle } from '../helpers/hub';
import { hubSql } from '../helpers/hubSql';
import { importCsv, importFile } from './importFlow';

const PRICES = { owner: 'alice', name: 'prices' };
const COLUMNS: QueryColumn[] = [
  { name: 'id', type: 'bigint', is_primary_key: true },
  { name: 'name', type: 'varchar(255)' },
  { name: 'category', type: 'varchar(64)' },
  { name: 'price', type: 'decimal(10,2)' },
  { name: 'updated_at', type: 'datetime(6)' },
];
const CSV_HEAD = 'id,name,category,price,updated_at\n';

describe('the proof of what was sent and the stale-base check, through the hub (issue #23)', function () {
  this.timeout(120_000);
  let hub: HubHandle;
  let client: HubClient;
  let run: ReviewRunner;
  const sent: string[] = [];
  const sql = hubSql(() => hub, 'alice/prices');
  let base: string;
  let rows: Cell[][];

  const head = async (branch: string): Promise<string> =>
    (await collectAll((t) => client.listBranches(PRICES, { pageToken: t }))).find((b) => b.name === branch)!.head_commit_sha;
  const rowsAt = async (ref: string): Promise<Cell[][]> =>
    (await sql.ok('SELECT id, name, category, price, updated_at FROM products ORDER BY id', ref)).rows;
  const input = (edits: Pick<ProposalInput, 'updated' | 'inserted' | 'deleted'>): ProposalInput => ({
    scope: { hostId: 'hub', ...PRICES, branch: 'main', table: 'products', baseCommit: base },
    columns: COLUMNS,
    keyColumns: [0],
    problems: [],
    ...edits,
  });
  const diffReads = (): string[] => sent.filter((q) => /DOLT_DIFF\(/.test(q));
  const pagedTheDiff = (): boolean => diffReads().some((q) => /ORDER BY/.test(q));

  /** A branch made at the base: row 1 renamed, row 2 deleted, row 99 added. */
  async function shapedBranch(name: string): Promise<string> {
    await client.createBranch(PRICES, { name, from: { commit: base } });
    await importCsv(
      hub,
      'alice/prices',
      name,
      'products',
      'update',
      `${CSV_HEAD}1,Apple (edited),fruit,0.50,2026-01-05 09:00:00.000000\n99,Plum,fruit,1.25,\n`,
    );
    const del = await importFile(
      hub,
      'alice/prices',
      name,
      'products',
      'update',
      'sql',
      Buffer.from('DELETE FROM `products` WHERE `id` = 2;\n'),
    );
    assert.equal(del.status, 'succeeded', JSON.stringify(del.error));
    return head(name);
  }

  before(async () => {
    hub = await startHub({ seed: true });
    client = new HubClient({ baseUrl: hub.url, token: await hub.token('alice') });
    const port = new SqlPort(
      () => client,
      () => ({ timeoutMs: 30_000, rowLimit: 1000 }),
    );
    const review = port.review('hub', PRICES);
    run = (query, opts) => (sent.push(query.sql), review(query, opts));
    base = await head('main');
    rows = await rowsAt(base);
  });
  after(async () => hub?.stop());
  beforeEach(() => (sent.length = 0));

  it('a branch holding exactly the change set proves in one pass of the diff; a value the branch holds otherwise is named', async () => {
    const to = await shapedBranch('proof-exact');
    const after = await rowsAt(to);
    assert.deepEqual(
      after.map((r) => r[0]),
      ['1', '3', '4', '5', '99'],
      'plain reads: the branch is the base with 1 renamed, 2 deleted, 99 added',
    );
    const exact = input({
      updated: [{ before: rows[0]!, after: after[0]! }],
      inserted: [['99', 'Plum', 'fruit', '1.250', null]],
      deleted: [rows[1]!],
    });
    assert.deepEqual(await proposalDifferences(run, exact, { from: base, to }), [], 'numbers compare by value (1.250 is 1.25)');
    assert.equal(diffReads().length, 1, 'one pass of DOLT_DIFF, not pages of it');

    sent.length = 0;
    const otherName = input({
      ...exact,
      updated: [{ before: rows[0]!, after: [...after[0]!.slice(0, 1), 'Apple (as typed)', ...after[0]!.slice(2)] }],
    });
    assert.deepEqual((await proposalDifferences(run, otherName, { from: base, to })).map(describeDifference), [
      'row (1), name: sent "Apple (as typed)", the branch has "Apple (edited)"',
    ]);
    assert.equal(diffReads().length, 1);
  });

  it('rows the change set did not send and edits the branch lacks are named from the whole diff', async () => {
    const to = await shapedBranch('proof-extra');
    const after = await rowsAt(to);
    // The change set knows of the rename only, and claims a price of carrots the branch does not have.
    const partial = input({
      updated: [
        { before: rows[0]!, after: after[0]! },
        { before: rows[2]!, after: [...rows[2]!.slice(0, 3), '9.99', rows[2]![4]!] },
      ],
      inserted: [],
      deleted: [],
    });
    const found = (await proposalDifferences(run, partial, { from: base, to })).map(describeDifference).sort();
    assert.deepEqual(found, [
      'row (2): removed on the branch, but not in the change set',
      'row (3): expected modified, but the branch does not change it',
      'row (99): added on the branch, but not in the change set',
    ]);
    assert.equal(pagedTheDiff(), true, 'the rows it did not send are read from the diff');
  });

  it('a stale base lists only the edited rows the target changed, read by key, with both values', async () => {
    await client.createBranch(PRICES, { name: 'proof-target', from: { commit: base } });
    await importCsv(
      hub,
      'alice/prices',
      'proof-target',
      'products',
      'update',
      `${CSV_HEAD}3,Carrot,vegetable,0.40,${rows[2]![4]}\n4,Milk,dairy,1.20,2026-01-06 10:00:00.000000\n`,
    );
    const to = await head('proof-target');
    const mine = input({
      updated: [{ before: rows[2]!, after: [...rows[2]!.slice(0, 3), '9.99', rows[2]![4]!] }],
      inserted: [],
      deleted: [rows[0]!],
    });
    const diff = await changesToEditedRows(run, mine, { from: base, to });
    assert.equal(diff.truncated, false);
    assert.deepEqual(
      diff.rows.map((r) => [r.kind, r.key, r.cells.filter((c) => c.changed).map((c) => [c.column, c.old, c.new])]),
      [['modified', ['3'], [['price', rows[2]![3], '0.40']]]],
      'row 4 changed too, but the change set does not touch it; row 1 it deletes is unchanged on the target',
    );
    assert.deepEqual(diffReads(), [], 'no pass of the diff at all');
  });
});
