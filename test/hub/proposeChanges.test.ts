// Propose Changes… (issue #23) against the real hub with the extension's own API client and SQL
// port: a change set of edited and new rows becomes a branch made at the base commit, an import
// onto it and a pull request into main. Every expectation is a plain read at a ref (SELECT at the
// new branch, at main), never the code under test; hostile values must read back exactly as typed.
import assert from 'node:assert/strict';
import { HubClient, collectAll } from '../../src/api/index';
import { proposeChanges, type ChangeSetAccess, type ChangeSetScope, type ProposeEnv } from '../../src/commands/proposeChanges';
import type { ProposalInput } from '../../src/core/changes/proposalFiles';
import { SqlPort } from '../../src/core/sql/sqlPort';
import { ChangeSet } from '../../src/core/changes/changeSet';
import { changeSetAccess, type ChangeSetHolder } from '../../src/commands/changeSetAccess';
import type { PullTarget } from '../../src/core/targets';
import type { Cell, QueryColumn } from '../../src/shared/wire';
import { silent } from '../helpers/memoryFakes';
import { overriding } from '../helpers/overriding';
import { ScriptedUi } from '../helpers/scriptedUi';
import { startHub, type HubHandle } from '../helpers/hub';
import { hubSql } from '../helpers/hubSql';
import { HOSTILE_TEXT } from '../unit/core/sql/hostileText';
import { importCsv } from './importFlow';

const PRICES = { owner: 'alice', name: 'prices' };
const COLUMNS: QueryColumn[] = [
  { name: 'id', type: 'bigint', is_primary_key: true },
  { name: 'name', type: 'varchar(255)' },
  { name: 'category', type: 'varchar(64)' },
  { name: 'price', type: 'decimal(10,2)' },
  { name: 'updated_at', type: 'datetime(6)' },
];

/** One change set of the real model, held as the workspace store holds it (get, rebase, delete). */
class ModelChangeSets implements ChangeSetHolder {
  deleted = false;
  constructor(readonly cs: ChangeSet) {}
  get(scope: ChangeSetScope): ChangeSet | undefined {
    return !this.deleted && scope.baseCommit === this.cs.scope.baseCommit ? this.cs : undefined;
  }
  async delete(): Promise<void> {
    this.deleted = true;
  }
  async rebase(_scope: ChangeSetScope, newBase: string, rows: readonly Cell[][]): Promise<unknown> {
    return this.cs.rebase(newBase, rows);
  }
}

/** A change set held in memory, as the workspace store would hand it over. */
class MemoryChangeSets implements ChangeSetAccess {
  constructor(public input: ProposalInput | undefined) {}
  removed = false;
  snapshot(): ProposalInput | undefined {
    return this.input;
  }
  async remove(): Promise<void> {
    this.removed = true;
    this.input = undefined;
  }
  async rebase(scope: ChangeSetScope, newBase: string, rows: ReadonlyMap<string, Cell[] | null>): Promise<ProposalInput> {
    const input = this.input!;
    const updated = input.updated
      .map((u) => ({ before: rows.get(JSON.stringify([u.after[0]])) ?? u.before, after: u.after }))
      .filter((u) => JSON.stringify(u.before) !== JSON.stringify(u.after));
    this.input = { ...input, scope: { ...scope, baseCommit: newBase }, updated };
    return this.input;
  }
}

describe('Propose Changes… through the hub (issue #23)', function () {
  this.timeout(120_000);
  let hub: HubHandle;
  let client: HubClient;
  let port: SqlPort;
  const sql = hubSql(() => hub, 'alice/prices');

  before(async () => {
    hub = await startHub({ seed: true });
    client = new HubClient({ baseUrl: hub.url, token: await hub.token('alice') });
    port = new SqlPort(
      () => client,
      () => ({ timeoutMs: 30_000, rowLimit: 1000 }),
    );
  });
  after(async () => hub?.stop());

  const head = async (branch: string): Promise<string> =>
    (await collectAll((t) => client.listBranches(PRICES, { pageToken: t }))).find((b) => b.name === branch)!.head_commit_sha;
  const rowsAt = async (ref: string): Promise<Cell[][]> =>
    (await sql.ok('SELECT id, name, category, price, updated_at FROM products ORDER BY id', ref)).rows;

  function env(ui: ScriptedUi, changeSets: ChangeSetAccess, shown: PullTarget[]): ProposeEnv {
    return {
      ui,
      log: silent,
      clientFor: () => client,
      sql: port,
      changeSets,
      refreshDatabase: () => undefined,
      showPull: async (t) => shown.push(t),
      showChanges: async () => undefined,
      now: () => new Date(2026, 10, 25, 14, 30),
    };
  }

  async function changeSetOn(
    branch: string,
    edit: (rows: Cell[][]) => Omit<ProposalInput, 'scope' | 'columns' | 'keyColumns' | 'problems'>,
  ) {
    const base = await head(branch);
    const rows = await rowsAt(base);
    const scope: ChangeSetScope = { hostId: 'hub', ...PRICES, branch, table: 'products', baseCommit: base };
    return { base, rows, input: { scope, columns: COLUMNS, keyColumns: [0], problems: [], ...edit(rows) } satisfies ProposalInput };
  }

  it('edited, new and deleted rows with hostile text become a branch at the base and a pull into main; main is untouched', async () => {
    const hostile = HOSTILE_TEXT.filter((t) => t !== '');
    const { base, rows, input } = await changeSetOn('main', (rows) => ({
      updated: [
        { before: rows[0]!, after: [rows[0]![0]!, hostile.join(' | '), '', '12345678.25', rows[0]![4]!] },
        { before: rows[1]!, after: [rows[1]![0]!, 'Banana\nsplit\t"quoted"', null, rows[1]![3]!, rows[1]![4]!] },
      ],
      inserted: [['9007199254740993', '0012 leading zeros', 'ünïcødé 😀', '0.01', '2026-02-03 04:05:06.000000']],
      deleted: [rows[2]!],
    }));
    const changeSets = new MemoryChangeSets(input);
    const shown: PullTarget[] = [];
    const ui = new ScriptedUi({
      'Propose changes to products (1/4)': '',
      'Propose changes (2/4)': '',
      'Propose changes (3/4)': '',
      'Propose changes (4/4)': 'main',
    });
    const pull = await proposeChanges(env(ui, changeSets, shown), input.scope);
    assert.deepEqual(ui.errors, []);
    assert.ok(pull, `no pull request; said: ${ui.infos.join(' / ')}`);
    assert.deepEqual(shown, [pull]);
    assert.equal(changeSets.removed, true, 'the change set is gone once its pull request is open');

    const opened = await client.getPull(PRICES, pull.pullNumber);
    assert.equal(opened.to_branch.branch_name, 'main');
    const branch = opened.from_branch.branch_name;
    assert.equal(branch, 'edit/products-20261125-1430');
    assert.match(opened.title, /2 rows changed, 1 added, 1 deleted/);

    // Made at the base: every row reads as at the base but the two edited ones, and the new one follows.
    const expected = rows.map((r) => [...r]);
    expected[0] = [...input.updated[0]!.after];
    expected[1] = [...input.updated[1]!.after];
    expected.splice(2, 1);
    expected.push([...input.inserted[0]!]);
    assert.deepEqual(
      await rowsAt(branch),
      expected,
      'text as typed, the empty string apart from NULL, a key past 2^53, leading zeros, unicode',
    );
    assert.deepEqual(await rowsAt('main'), rows, 'main is what it was');
    assert.equal(await head('main'), base);
  });

  it('a table with a binary column: the edit lands and the binary values stay as they were', async () => {
    const base = await head('main');
    const stores = (await sql.ok('SELECT id, city, opened, logo FROM stores ORDER BY id', base)).rows;
    const columns: QueryColumn[] = [
      { name: 'id', type: 'int', is_primary_key: true },
      { name: 'city', type: 'varchar(100)' },
      { name: 'opened', type: 'date' },
      { name: 'logo', type: 'blob' },
    ];
    const scope: ChangeSetScope = { hostId: 'hub', ...PRICES, branch: 'main', table: 'stores', baseCommit: base };
    const input: ProposalInput = {
      scope,
      columns,
      keyColumns: [0],
      problems: [],
      updated: [{ before: stores[0]!, after: ['1', 'Lisboa', stores[0]![2]!, stores[0]![3]!] }],
      inserted: [['99', 'Faro', '2024-05-01', null]],
      deleted: [],
    };
    const ui = new ScriptedUi({
      'Propose changes to stores (1/4)': 'edit/stores-lisboa',
      'Propose changes (2/4)': '',
      'Propose changes (3/4)': '',
      'Propose changes (4/4)': 'main',
    });
    assert.ok(await proposeChanges(env(ui, new MemoryChangeSets(input), []), scope), ui.errors.map(String).join('; '));
    const read = async (ref: string) =>
      (await sql.ok('SELECT id, city, opened, CASE WHEN logo IS NULL THEN NULL ELSE hex(logo) END FROM stores ORDER BY id', ref)).rows;
    const before = await read(base);
    assert.deepEqual(await read('edit/stores-lisboa'), [
      ['1', 'Lisboa', before[0]![2]!, before[0]![3]!],
      ...before.slice(1),
      ['99', 'Faro', '2024-05-01', null],
    ]);
    assert.equal(before[0]![3], '89504E47', 'the seeded logo is there to keep');
  });

  it('when the pull request cannot be opened the edits stay on their branch, and Edit and Try Again opens it from there', async () => {
    const { input } = await changeSetOn('main', (rows) => ({
      updated: [{ before: rows[3]!, after: [rows[3]![0]!, 'Retried', rows[3]![2]!, rows[3]![3]!, rows[3]![4]!] }],
      inserted: [],
      deleted: [],
    }));
    const changeSets = new MemoryChangeSets(input);
    const shown: PullTarget[] = [];
    const ui = new ScriptedUi({
      'Propose changes to products (1/4)': 'edit/products-retry',
      'Propose changes (2/4)': 'Rename product 4',
      'Propose changes (3/4)': 'Why:\n- the supplier renamed it',
      'Propose changes (4/4)': 'main',
      // Edit and Try Again: the texts as written, accepted.
      'Open the pull request from edit/products-retry: title': '',
      'Open the pull request from edit/products-retry: description': '',
    });
    // The server refuses the first pull request it is asked for; everything else is the real hub.
    let refuse = 1;
    const flaky = overriding(client, 'createPull', (createPull) => async (...args) => {
      if (refuse-- > 0) throw Object.assign(new Error('Service Unavailable'), { name: 'ApiError', status: 503, code: 'UNAVAILABLE' });
      return createPull(...args);
    });
    const e = { ...env(ui, changeSets, shown), clientFor: () => flaky };
    assert.equal(await proposeChanges(e, input.scope), undefined);
    assert.equal(changeSets.removed, false, 'the change set is kept while no pull request is open');
    assert.deepEqual(shown, []);
    const said = ui.errorContexts[0]!;
    assert.match(said.action!, /open the pull request from edit\/products-retry into main \(the branch holds your edits to products/);
    assert.equal(said.unsent!.text, 'Why:\n- the supplier renamed it');
    const branches = (await collectAll((t) => client.listBranches(PRICES, { pageToken: t }))).length;

    const pull = (await said.unsent!.again!()) as PullTarget | undefined;
    assert.ok(pull, ui.errors.slice(1).map(String).join('; '));
    assert.deepEqual(
      ui.inputs.slice(-2).map((i) => i.value),
      ['Rename product 4', 'Why:\n- the supplier renamed it'],
    );
    assert.deepEqual(shown, [pull]);
    assert.equal(changeSets.removed, true);
    const opened = await client.getPull(PRICES, pull.pullNumber);
    assert.equal(opened.from_branch.branch_name, 'edit/products-retry');
    assert.equal(opened.title, 'Rename product 4');
    assert.equal(opened.description, 'Why:\n- the supplier renamed it');
    assert.equal((await collectAll((t) => client.listBranches(PRICES, { pageToken: t }))).length, branches, 'no branch made twice');
    assert.equal((await rowsAt('edit/products-retry'))[3]![1], 'Retried');
  });

  it('on the branch of an open pull request the edits can be committed onto it, and the pull says so', async () => {
    const base = await head('prices-2025');
    const before = (await sql.ok('SELECT product_id, price FROM prices_2025 ORDER BY product_id', base)).rows;
    const scope: ChangeSetScope = { hostId: 'hub', ...PRICES, branch: 'prices-2025', table: 'prices_2025', baseCommit: base };
    const input: ProposalInput = {
      scope,
      columns: [
        { name: 'product_id', type: 'bigint', is_primary_key: true },
        { name: 'price', type: 'decimal(10,2)' },
      ],
      keyColumns: [0],
      problems: [],
      updated: [{ before: before[0]!, after: [before[0]![0]!, '0.6'] }],
      inserted: [],
      deleted: [],
    };
    const pulls = (await collectAll((t) => client.listPulls(PRICES, { pageToken: t }))).filter((p) => p.state === 'open');
    const open = [];
    for (const p of pulls)
      if ((await client.getPull(PRICES, p.pull_number)).from_branch.branch_name === 'prices-2025') open.push(p.pull_number);
    assert.equal(open.length, 1, 'the seed has one open pull from prices-2025');
    const commentsBefore = (await client.listPullComments(PRICES, open[0]!)).length;
    const ui = new ScriptedUi({
      'Propose changes to prices_2025: prices-2025 is the branch of pull request': 'Commit onto prices-2025',
      'Commit onto prices-2025': 'Raise the 2025 apple price',
    });
    const shown: PullTarget[] = [];
    const target = await proposeChanges(env(ui, new MemoryChangeSets(input), shown), scope);
    assert.deepEqual(ui.errors, []);
    assert.deepEqual(target, { hostId: 'hub', db: PRICES, pullNumber: open[0] });
    assert.deepEqual(shown, [target]);
    const after = (await sql.ok('SELECT product_id, price FROM prices_2025 ORDER BY product_id', 'prices-2025')).rows;
    assert.deepEqual(after, [[before[0]![0], '0.60'], ...before.slice(1)], 'the hub prints a decimal(10,2) with its two places');
    const log = await sql.ok('SELECT message FROM dolt_log LIMIT 1', 'prices-2025');
    assert.equal(log.rows[0]![0], 'Raise the 2025 apple price');
    const comments = await client.listPullComments(PRICES, open[0]!);
    assert.equal(comments.length, commentsBefore + 1);
    assert.match(comments.at(-1)!.body, /Committed suggested changes to `prices_2025`: 1 row changed/);
  });

  it('a stale base lists the rows the branch also changed; rebasing (the real change set model) keeps the edit and proposes on the new head', async () => {
    const base = await head('main');
    const rows = await rowsAt(base);
    // The change set as the table browser makes it: the real model, one edit of the price of carrots.
    const scope: ChangeSetScope = { hostId: 'hub', ...PRICES, branch: 'main', table: 'products', baseCommit: base };
    const held = new ModelChangeSets(new ChangeSet({ scope, columns: COLUMNS, keyColumns: [0] }));
    held.cs.apply({ kind: 'set', edits: [{ row: { key: [rows[2]![0]!], row: rows[2]! }, column: 3, value: '9.99' }] });
    held.cs.apply({ kind: 'set', edits: [{ row: { key: [rows[3]![0]!], row: rows[3]! }, column: 1, value: rows[3]![1]! + ' (fresh)' }] });
    // Meanwhile someone changes the same row on main.
    await importCsv(
      hub,
      'alice/prices',
      'main',
      'products',
      'update',
      'id,name,category,price,updated_at\n3,Carrot,vegetable,0.40,2026-01-07 08:00:00.000000\n',
    );
    const moved = await head('main');
    assert.notEqual(moved, base);
    const ui = new ScriptedUi({
      'main changed 1 of the rows you edited': 'Rebase onto main',
      'Propose changes to products (1/4)': 'edit/carrot-price',
      'Propose changes (2/4)': '',
      'Propose changes (3/4)': '',
      'Propose changes (4/4)': 'main',
    });
    const pull = await proposeChanges(env(ui, changeSetAccess(held), []), scope);
    assert.deepEqual(ui.errors, []);
    assert.ok(pull);
    assert.match(
      ui.confirmDetails[0] ?? '',
      /\(3\) modified on the branch, modified by you\n {4}price: "0\.35" → "0\.40" on the branch; yours "9\.99"/,
    );
    assert.equal(held.cs.scope.baseCommit, moved, "the change set moved onto main's head before it was sent");
    const branchRows = await rowsAt('edit/carrot-price');
    assert.equal(branchRows[2]![3], '9.99');
    // Made at main's new head: the rows that differ from main are the two edited ones.
    const mainRows = await rowsAt('main');
    assert.deepEqual(
      branchRows.filter((r, i) => JSON.stringify(r) !== JSON.stringify(mainRows[i])).map((r) => r[0]),
      ['3', '4'],
    );
    assert.equal(held.deleted, true, 'sent: the change set is gone');
  });
});
