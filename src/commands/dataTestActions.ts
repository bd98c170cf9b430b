// Run Tests (all, a group, one test) on the Tests node of a branch or tag, Open Test Query: a
// test's query in a new notebook at the commit it ran at, and Edit Tests…: the tests table in the
// table browser at the branch, where adding or editing a test is a change set proposed as a pull
// like any table's (issue #24). No vscode: registered by dataTestCommands.ts, unit-tested with a
// scripted UI.
import { outcomeText, TESTS_TABLE } from '../core/dataTests/dataTests';
import type { TableAt } from '../core/paging/tableOpening';
import { Commands } from '../shared/ids';
import type { DatabaseTreeModel } from '../tree/databaseTreeModel';
import { isTreeNode, type TestGroupNode, type TestNode, type TestsNode } from '../tree/treeNodes';
import type { CommandDeps } from './commandDeps';
import * as l10n from '../shared/l10n';

export interface DataTestDeps extends Pick<CommandDeps, 'ui' | 'log'> {
  readonly tests: Pick<DatabaseTreeModel, 'runTests'>;
  /** Runs another command (the new notebook). */
  execute(id: string, ...args: unknown[]): Promise<unknown>;
}

function runnable(node: unknown): TestsNode | TestGroupNode | TestNode | undefined {
  return isTreeNode(node) && (node.kind === 'tests' || node.kind === 'testGroup' || node.kind === 'test') ? node : undefined;
}

/** Runs the tests a node covers; says how many passed, failed or did not run. */
export async function runTests(deps: DataTestDeps, arg: unknown): Promise<void> {
  const node = runnable(arg);
  if (!node) {
    void deps.ui.info(l10n.t('Run Tests from the Tests node of a branch or tag in the Databases view.'));
    return;
  }
  const what =
    node.kind === 'tests' ? l10n.t('the tests') : node.kind === 'testGroup' ? l10n.t('the {0} tests', node.group) : `"${node.test.name}"`;
  const run = await deps.ui.withProgress(l10n.t('Running {0}…', what), (_p, signal) => deps.tests.runTests(node, signal));
  const all = [...run.outcomes.values()];
  const n = (s: string): number => all.filter((o) => o.status === s).length;
  const counts = n('notRun')
    ? l10n.t('{0} passed, {1} failed, {2} not run', n('pass'), n('fail'), n('notRun'))
    : l10n.t('{0} passed, {1} failed', n('pass'), n('fail'));
  const text =
    all.length === 1
      ? l10n.t('Test "{0}" at {1}: {2}', [...run.outcomes.keys()][0] ?? '', run.ref, outcomeText(all[0]!))
      : l10n.t('Tests at {0}: {1}.', run.ref, counts);
  // The results as a grid too: the same run in a notebook at the same commit.
  const showResults = SHOW_RESULTS();
  void deps.ui.info(text, showResults).then(async (choice) => {
    if (choice === showResults) await deps.execute(Commands.newSqlNotebook, { hostId: run.hostId, db: run.db, ref: run.commit }, run.sql);
  });
}

/** The action that opens the results (a function: the text is translated when shown). */
export const SHOW_RESULTS = (): string => l10n.t('Show Results');

/** A test's query in a new notebook at the commit the test was listed at. */
export async function openTestQuery(deps: DataTestDeps, arg: unknown): Promise<void> {
  if (!isTreeNode(arg) || arg.kind !== 'test') return;
  const target = { hostId: arg.hostId, db: arg.db, ref: arg.tests.commit };
  await deps.execute(Commands.newSqlNotebook, target, arg.test.query);
}

/**
 * Edit Tests…: `dolt_tests` in the table browser at the branch the Tests node is under, read at the
 * commit it listed (the browser says when the branch moved on), editable as any keyed table.
 */
export async function editTests(deps: DataTestDeps, arg: unknown): Promise<void> {
  if (!isTreeNode(arg) || arg.kind !== 'tests' || arg.parent.kind !== 'branch') {
    void deps.ui.info(
      l10n.t(
        'Edit Tests… from the Tests node of a branch in the Databases view: tests are changed on a branch and proposed as a pull request.',
      ),
    );
    return;
  }
  const at: TableAt = {
    target: { hostId: arg.hostId, owner: arg.db.owner, name: arg.db.name, ref: arg.ref },
    commit: arg.commit,
    table: TESTS_TABLE,
  };
  await deps.execute(Commands.openTableAt, at);
}
