// Editing the database's tests (issue #24): dolt_tests opened as the table browser opens it (its
// columns and key from DESCRIBE at the branch's head), edited with the real change set model (a
// test added, one edited, one deleted, new keys checked against the base), and proposed with
// Propose Changes… as a pull. Every expectation is a plain read at a ref: SELECT from dolt_tests at
// the new branch and at main, and dolt_test_run at the new branch judged against the new test's
// own query run there.
import assert from 'node:assert/strict';
import { HubClient, collectAll } from '../../src/api/index';
import { proposeChanges, type ChangeSetScope, type ProposeEnv } from '../../src/commands/proposeChanges';
import { changeSetAccess, type ChangeSetHolder } from '../../src/commands/changeSetAccess';
import { ChangeSet } from '../../src/core/changes/changeSet';
import { findExistingKeys } from '../../src/core/changes/existingKeys';
import { tableEditability } from '../../src/core/changes/tableEditability';
import { openTableAt } from '../../src/core/paging/tableOpening';
import { TableCatalogCache } from '../../src/core/sql/tableCatalog';
import { SqlPort } from '../../src/core/sql/sqlPort';
import type { PullTarget } from '../../src/core/targets';
import type { Cell } from '../../src/shared/wire';
import { silent } from '../helpers/memoryFakes';
import { ScriptedUi } from '../helpers/scriptedUi';
import { startHub, type HubHandle } from '../helpers/hub';
import { hubSql } from '../helpers/hubSql';

const ORDERS = { owner: 'alice', name: 'orders' };
const ALL =
  'SELECT test_name, test_group, test_query, assertion_type, assertion_comparator, assertion_value FROM dolt_tests ORDER BY test_name';

class Held implements ChangeSetHolder {
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

describe('hub: editing the database tests is a change set proposed as a pull (issue #24)', function () {
  this.timeout(120_000);
  let hub: HubHandle;
  let client: HubClient;
  let port: SqlPort;
  const sql = hubSql(() => hub, 'alice/orders');

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
    (await collectAll((t) => client.listBranches(ORDERS, { pageToken: t }))).find((b) => b.name === branch)!.head_commit_sha;

  it('a test added, one edited and one deleted in the grid land on the new branch; the new test runs there; main is untouched', async () => {
    const base = await head('main');
    const target = { hostId: 'hub', ...ORDERS, ref: 'main' };
    const run = port.at({ hostId: 'hub', db: ORDERS, ref: base });
    const opened = await openTableAt({ target, commit: base, table: 'dolt_tests' }, new TableCatalogCache(port), run);
    const columns = opened.source.columns;
    const edit = tableEditability({ ref: 'main', refKind: 'branch', table: 'dolt_tests', tableKind: opened.kind, columns });
    assert.equal(edit.readOnly, undefined, 'editable at a branch');
    assert.deepEqual(
      columns.map((c) => c.name),
      ['test_name', 'test_group', 'test_query', 'assertion_type', 'assertion_comparator', 'assertion_value'],
    );
    assert.deepEqual(edit.keyColumns, [0], 'keyed by test_name');
    // At a commit it is read-only, as any table.
    assert.match(
      tableEditability({ ref: base, refKind: 'commit', table: 'dolt_tests', tableKind: 'table', columns }).readOnly ?? '',
      /Read-only/,
    );

    const before = (await sql.ok(ALL, base)).rows;
    assert.ok(before.length >= 3, 'the seed has tests');
    const scope: ChangeSetScope = { hostId: 'hub', ...ORDERS, branch: 'main', table: 'dolt_tests', baseCommit: base };
    const cs = new ChangeSet({
      scope,
      columns: opened.output.columns,
      keyColumns: edit.keyColumns,
      nullable: columns.map((c) => c.nullable !== false),
    });
    // A new test, typed as the grid sends a new row; one test's assertion value edited; one deleted.
    const added: Cell[] = [
      'every order has a customer',
      'integrity',
      'SELECT o.id FROM orders o LEFT JOIN customers c ON c.id = o.customer_id WHERE c.id IS NULL',
      'expected_rows',
      '==',
      '0',
    ];
    const edited = before[0]!;
    const dropped = before[1]!;
    cs.apply({ kind: 'set', edits: [], newRows: [added] });
    cs.apply({ kind: 'set', edits: [{ row: { key: [edited[0]!], row: edited }, column: 5, value: '1' }] });
    cs.apply({ kind: 'deleteRows', rows: [{ key: [dropped[0]!], row: dropped }] });
    // The new key is checked against the base, as the browser does before it may be proposed.
    const keys = cs.keysToCheck();
    cs.recordExistingKeys(
      keys,
      await findExistingKeys(run, 'dolt_tests', [{ name: 'test_name', type: 'text' }], keys, new AbortController().signal),
    );

    const held = new Held(cs);
    const shown: PullTarget[] = [];
    const ui = new ScriptedUi({
      'Propose changes to dolt_tests (1/4)': 'tests/customer-check',
      'Propose changes (2/4)': '',
      'Propose changes (3/4)': '',
      'Propose changes (4/4)': 'main',
    });
    const env: ProposeEnv = {
      ui,
      log: silent,
      clientFor: () => client,
      sql: port,
      changeSets: changeSetAccess(held),
      refreshDatabase: () => undefined,
      showPull: async (t) => void shown.push(t),
      showChanges: async () => undefined,
      now: () => new Date(2026, 10, 28, 4, 30),
    };
    const pull = await proposeChanges(env, scope);
    assert.deepEqual(ui.errors, []);
    assert.ok(pull, `no pull request; said: ${ui.infos.join(' / ')}`);
    assert.deepEqual(shown, [pull]);
    assert.equal(held.deleted, true, 'sent: the change set is gone');
    const opened2 = await client.getPull(ORDERS, pull.pullNumber);
    assert.equal(opened2.from_branch.branch_name, 'tests/customer-check');
    assert.equal(opened2.to_branch.branch_name, 'main');

    const expected = [
      ...before.filter((r) => r[0] !== dropped[0]).map((r) => (r[0] === edited[0] ? [...r.slice(0, 5), '1'] : r)),
      added,
    ].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));
    assert.deepEqual((await sql.ok(ALL, 'tests/customer-check')).rows, expected, 'the branch has exactly the edited tests');
    assert.deepEqual((await sql.ok(ALL, 'main')).rows, before, 'main is what it was');
    assert.equal(await head('main'), base);

    // The new test runs at the branch, with the outcome its own query gives there.
    const ran = await sql.ok("SELECT test_name, status, message FROM dolt_test_run('every order has a customer')", 'tests/customer-check');
    const orphans = (await sql.ok(String(added[2]), 'tests/customer-check')).rows.length;
    assert.deepEqual(
      ran.rows.map((r) => [r[0], r[1]]),
      [['every order has a customer', orphans === 0 ? 'PASS' : 'FAIL']],
    );
    const all = await sql.ok("SELECT test_name FROM dolt_test_run('*')", 'tests/customer-check');
    assert.deepEqual(all.rows.map((r) => r[0]).sort(), expected.map((r) => r[0]).sort(), 'the deleted test no longer runs');
  });
});
