import { strict as assert } from 'node:assert';
import { ScriptedUi, clickInfo } from '../../helpers/scriptedUi';
import { silent } from '../../helpers/memoryFakes';
import { editTests, openTestQuery, runTests, SHOW_RESULTS, type DataTestDeps } from '../../../src/commands/dataTestActions';
import type { TestNode, TestsNode } from '../../../src/tree/treeNodes';
import type { TestOutcome } from '../../../src/core/dataTests/dataTests';
import { Commands } from '../../../src/shared/ids';
import { waitFor } from '../../helpers/waitFor.cjs';

const db = { owner: 'alice', name: 'orders' };
const tests = { kind: 'tests', hostId: 'h', db, ref: 'main', commit: 'c0ffee00', parent: { kind: 'branch' } } as unknown as TestsNode;
const test: TestNode = {
  kind: 'test',
  hostId: 'h',
  db,
  parent: tests,
  tests,
  test: {
    name: 'no negatives',
    group: '',
    query: 'SELECT * FROM orders WHERE quantity < 0',
    assertionType: 'expected_rows',
    comparator: '==',
    value: '0',
  },
};

function setup(
  outcomes: [string, TestOutcome][],
  steps: ReturnType<typeof clickInfo>[],
): { deps: DataTestDeps; ui: ScriptedUi; executed: unknown[][] } {
  const ui = new ScriptedUi(steps);
  const executed: unknown[][] = [];
  const deps: DataTestDeps = {
    ui,
    log: silent,
    tests: {
      runTests: async () => ({
        ref: 'main',
        hostId: 'h',
        db,
        commit: 'c0ffee00',
        sql: "SELECT … FROM dolt_test_run('*')",
        outcomes: new Map(outcomes),
      }),
    },
    execute: async (...args) => void executed.push(args),
  };
  return { deps, ui, executed };
}

describe('Run Tests and Open Test Query', () => {
  it('says how many passed, failed and did not run, and Show Results opens the same run in a notebook at the commit', async () => {
    const { deps, ui, executed } = setup(
      [
        ['a', { status: 'pass' }],
        ['b', { status: 'fail', message: 'got 1' }],
        ['c', { status: 'notRun', reason: 'Timed out' }],
      ],
      [clickInfo(SHOW_RESULTS())],
    );
    await runTests(deps, tests);
    assert.equal(ui.infos[0], 'Tests at main: 1 passed, 1 failed, 1 not run.');
    await waitFor('the notebook', () => executed.length > 0);
    assert.deepEqual(executed[0], [Commands.newSqlNotebook, { hostId: 'h', db, ref: 'c0ffee00' }, "SELECT … FROM dolt_test_run('*')"]);
  });

  it('one test: its outcome with the message; a failing test’s query opens at the commit it ran at', async () => {
    const { deps, ui, executed } = setup(
      [['no negatives', { status: 'fail', message: 'Assertion failed: got 1' }]],
      [clickInfo(undefined)],
    );
    await runTests(deps, test);
    assert.equal(ui.infos[0], 'Test "no negatives" at main: FAIL: Assertion failed: got 1');
    await openTestQuery(deps, test);
    assert.deepEqual(executed.at(-1), [Commands.newSqlNotebook, { hostId: 'h', db, ref: 'c0ffee00' }, test.test.query]);
  });
});

describe('Edit Tests…', () => {
  it('opens dolt_tests in the table browser at the branch, read at the commit the Tests node listed', async () => {
    const { deps, ui, executed } = setup([], []);
    await editTests(deps, tests);
    assert.deepEqual(ui.infos, []);
    assert.deepEqual(executed, [
      [
        Commands.openTableAt,
        { target: { hostId: 'h', owner: 'alice', name: 'orders', ref: 'main' }, commit: 'c0ffee00', table: 'dolt_tests' },
      ],
    ]);
  });

  it('at a tag, or from anything but a Tests node, says where to edit tests instead of opening anything', async () => {
    const { deps, ui, executed } = setup([], []);
    await editTests(deps, { ...tests, ref: 'v1', parent: { kind: 'tag' } });
    await editTests(deps, test);
    await editTests(deps, undefined);
    assert.deepEqual(executed, []);
    assert.equal(ui.infos.length, 3);
    assert.match(ui.infos[0]!, /Tests node of a branch/);
  });
});
