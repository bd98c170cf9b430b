import { strict as assert } from 'node:assert';
import { namesIn, readRun, readTests, runTestsSql } from '../../../../src/core/dataTests/dataTests';
import { DataTestsModel } from '../../../../src/tree/dataTestsModel';
import type { QueryResult } from '../../../../src/shared/wire';
import type { BranchNode, CategoryNode, TestGroupNode, TestNode, TestsNode, TreeNode } from '../../../../src/tree/treeNodes';
import type { SqlAt } from '../../../../src/core/sql/sqlPort';
import { silent } from '../../../helpers/memoryFakes';

const ok = (rows: (string | null)[][]): QueryResult => ({ columns: [], rows, status: 'success' });
const TESTS: (string | null)[][] = [
  ['a', 'g1', 'SELECT 1', 'expected_rows', '==', '1'],
  ['b', 'g1', 'SELECT 2', 'expected_single_value', '==', '2'],
  ['c', '', 'SELECT 3', 'expected_rows', '>', '0'],
];

describe('data tests (dolt_tests, dolt_test_run)', () => {
  it('runs all, a group or one test, with the argument as a literal', () => {
    assert.match(runTestsSql({ kind: 'all' }), /dolt_test_run\('\*'\)$/);
    assert.match(runTestsSql({ kind: 'group', group: "it's" }), /dolt_test_run\('it''s'\)$/);
    assert.match(runTestsSql({ kind: 'test', name: 'x\\y' }), /dolt_test_run\(CAST\(X'785C79' AS CHAR\)\)$/);
  });

  it('reads PASS and FAIL with the message; a test the run did not report is not run', () => {
    const out = readRun(
      ok([
        ['a', 'g1', 'PASS', ''],
        ['b', 'g1', 'FAIL', 'Assertion failed: got 3'],
      ]),
      ['a', 'b', 'c'],
    );
    assert.deepEqual(out.get('a'), { status: 'pass' });
    assert.deepEqual(out.get('b'), { status: 'fail', message: 'Assertion failed: got 3' });
    assert.equal(out.get('c')?.status, 'notRun');
  });

  it('a run that timed out, hit the row cap or failed leaves every test not run with the reason: never passed', () => {
    for (const [status, why] of [
      ['timeout', /Timed out: ran longer/],
      ['row_limit', /row cap/],
      ['error', /could not find tests/],
    ] as const) {
      const message =
        status === 'timeout' ? 'ran longer than 1000 ms' : status === 'error' ? 'could not find tests for argument: x' : 'cut';
      const out = readRun({ columns: [], rows: [['a', 'g1', 'PASS', '']], status, message }, ['a', 'b']);
      for (const name of ['a', 'b']) {
        const o = out.get(name)!;
        assert.equal(o.status, 'notRun', `${status} ${name}`);
        assert.match((o as { reason: string }).reason, why);
      }
    }
  });

  it('lists tests, and the names a scope covers', () => {
    const tests = readTests(ok(TESTS));
    assert.deepEqual(namesIn(tests, { kind: 'group', group: 'g1' }), ['a', 'b']);
    assert.deepEqual(namesIn(tests, { kind: 'test', name: 'c' }), ['c']);
    assert.throws(() => readTests({ columns: [], rows: [], status: 'error', message: 'boom' }), /boom/);
  });
});

describe('DataTestsModel: the Tests node under a ref', () => {
  const category = { kind: 'category', hostId: 'h', db: { owner: 'o', name: 'd' }, category: 'branches' } as CategoryNode;
  const branch: BranchNode = {
    kind: 'branch',
    hostId: 'h',
    db: category.db,
    parent: category,
    branch: { name: 'main', head_commit_sha: 'c0ffee' },
  };

  function setup(answer: (q: SqlAt) => QueryResult): { model: DataTestsModel; sent: SqlAt[]; fired: TreeNode[] } {
    const sent: SqlAt[] = [];
    const fired: TreeNode[] = [];
    const model = new DataTestsModel({
      review: () => async (q) => {
        sent.push(q);
        return answer(q);
      },
      fire: (n) => fired.push(n),
      log: silent,
    });
    return { model, sent, fired };
  }

  it('lists groups then ungrouped tests at the commit, runs a group there and keeps each outcome', async () => {
    const { model, sent, fired } = setup((q) =>
      /dolt_test_run/.test(q.sql)
        ? ok([
            ['a', 'g1', 'PASS', ''],
            ['b', 'g1', 'FAIL', 'got 3'],
          ])
        : ok(TESTS),
    );
    const tests = model.testsNode(branch);
    assert.equal(model.testsNode(branch), tests, 'the same node each time');
    const kids = await model.children(tests);
    assert.deepEqual(
      kids.map((k) => (k.kind === 'testGroup' ? `group ${k.group}` : (k as TestNode).test.name)),
      ['group g1', 'c'],
    );
    const group = kids[0] as TestGroupNode;
    const inGroup = (await model.children(group)) as TestNode[];
    assert.deepEqual(
      inGroup.map((t) => t.test.name),
      ['a', 'b'],
    );
    const run = await model.run(group);
    assert.equal(sent.at(-1)!.at, 'c0ffee', 'at the commit the ref named, not the moving branch');
    assert.match(sent.at(-1)!.sql, /dolt_test_run\('g1'\)/);
    assert.equal(run.outcomes.size, 2);
    assert.deepEqual(model.outcome(inGroup[1]!), { status: 'fail', message: 'got 3' });
    assert.equal(model.outcome(kids[1] as TestNode)?.status, undefined, 'c did not run');
    assert.equal(model.groupOutcomes(group).length, 2);
    assert.equal(fired.at(-1), tests);
  });

  it('a failed listing is an error node and is read again next time', async () => {
    let fail = true;
    const { model } = setup(() => (fail ? { columns: [], rows: [], status: 'error', message: 'nope' } : ok(TESTS)));
    const tests: TestsNode = model.testsNode(branch);
    assert.equal((await model.children(tests))[0]!.kind, 'error');
    fail = false;
    assert.equal((await model.children(tests)).length, 2);
  });

  it('no tests at the ref says so', async () => {
    const { model } = setup(() => ok([]));
    const [m] = await model.children(model.testsNode(branch));
    assert.equal(m!.kind, 'message');
  });
});
