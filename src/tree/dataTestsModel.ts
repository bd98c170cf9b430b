// What a branch's or tag's Tests node holds (issue #24): the dolt_tests rows at the commit the ref
// named when listed, grouped, and the outcome of the last run of each, all read through the SQL
// port's review runner at that commit. No vscode: the tree model delegates here; unit tests drive it.
import type { Logger } from '../core/logger';
import type { ReviewRunner } from '../core/sql/sqlPort';
import type { DatabaseRef } from '../shared/wire';
import {
  LIST_TESTS_SQL,
  namesIn,
  readRun,
  readTests,
  runTestsSql,
  type DataTest,
  type TestOutcome,
  type TestScope,
} from '../core/dataTests/dataTests';
import type { BranchNode, ErrorNode, MessageNode, TagNode, TestGroupNode, TestNode, TestsNode, TreeNode } from './treeNodes';
import * as l10n from '../shared/l10n';

export interface DataTestsOptions {
  review(hostId: string, db: DatabaseRef): ReviewRunner;
  fire(node: TreeNode): void;
  log: Logger;
}

/** What a run found: the scope's outcomes by test name. */
export interface TestRunSummary {
  readonly ref: string;
  /** Where it ran, and what: to show the same run as a result grid. */
  readonly hostId: string;
  readonly db: DatabaseRef;
  readonly commit: string;
  readonly sql: string;
  readonly outcomes: ReadonlyMap<string, TestOutcome>;
}

export class DataTestsModel {
  private readonly testsNodes = new WeakMap<BranchNode | TagNode, TestsNode>();
  /** The tests at a commit (they cannot change), by `host db commit`. */
  private readonly lists = new Map<string, Promise<DataTest[]>>();
  /** The last outcome of each test at a commit, by `host db commit` then name. */
  private readonly outcomes = new Map<string, Map<string, TestOutcome>>();
  /** The lists already read, for descriptions (synchronous). */
  private readonly cached = new Map<string, DataTest[]>();

  constructor(private readonly o: DataTestsOptions) {}

  testsNode(node: BranchNode | TagNode): TestsNode {
    let n = this.testsNodes.get(node);
    if (!n) {
      const at =
        node.kind === 'branch'
          ? { ref: node.branch.name, commit: node.branch.head_commit_sha }
          : { ref: node.tag.name, commit: node.tag.commit_sha };
      this.testsNodes.set(node, (n = { kind: 'tests', hostId: node.hostId, db: node.db, parent: node, ...at }));
    }
    return n;
  }

  async children(node: TestsNode | TestGroupNode): Promise<TreeNode[]> {
    const tests = node.kind === 'tests' ? node : node.parent;
    let list: DataTest[];
    try {
      list = await this.tests(tests);
    } catch (e) {
      this.lists.delete(key(tests));
      this.o.log.warn(`could not list the tests of ${tests.db.owner}/${tests.db.name} at ${tests.ref}: ${String(e)}`);
      return [{ kind: 'error', parent: node, error: e } satisfies ErrorNode];
    }
    const base = { hostId: tests.hostId, db: tests.db };
    if (node.kind === 'testGroup') {
      return list
        .filter((t) => t.group === node.group)
        .map((test) => ({ ...base, kind: 'test', parent: node, tests, test }) satisfies TestNode);
    }
    if (list.length === 0) return [{ kind: 'message', parent: node, text: l10n.t('No tests at {0}', node.ref) } satisfies MessageNode];
    const groups = [...new Set(list.map((t) => t.group).filter((g) => g !== ''))];
    return [
      ...groups.map((group) => ({ ...base, kind: 'testGroup', parent: node, group }) satisfies TestGroupNode),
      ...list.filter((t) => t.group === '').map((test) => ({ ...base, kind: 'test', parent: node, tests, test }) satisfies TestNode),
    ];
  }

  /** The last outcome of a test at its commit, if it ran. */
  outcome(node: TestNode): TestOutcome | undefined {
    return this.outcomes.get(key(node.tests))?.get(node.test.name);
  }

  /** The outcomes of a group's tests that ran, for its description. */
  groupOutcomes(node: TestGroupNode): TestOutcome[] {
    const at = this.outcomes.get(key(node.parent));
    return at ? [...at.entries()].filter(([name]) => this.groupOf(node.parent, name) === node.group).map(([, o]) => o) : [];
  }

  /** Runs every test, a group or one test at the node's commit; the tree shows the outcomes. */
  async run(node: TestsNode | TestGroupNode | TestNode, signal?: AbortSignal): Promise<TestRunSummary> {
    const tests = node.kind === 'tests' ? node : node.kind === 'testGroup' ? node.parent : node.tests;
    const scope: TestScope =
      node.kind === 'tests'
        ? { kind: 'all' }
        : node.kind === 'testGroup'
          ? { kind: 'group', group: node.group }
          : { kind: 'test', name: node.test.name };
    const list = await this.tests(tests);
    const runner = this.o.review(tests.hostId, tests.db);
    const sql = runTestsSql(scope);
    const result = await runner({ sql, at: tests.commit }, { signal });
    const outcomes = readRun(result, namesIn(list, scope));
    let at = this.outcomes.get(key(tests));
    if (!at) this.outcomes.set(key(tests), (at = new Map()));
    for (const [name, o] of outcomes) at.set(name, o);
    this.o.fire(tests);
    return { ref: tests.ref, hostId: tests.hostId, db: tests.db, commit: tests.commit, sql, outcomes };
  }

  private groupOf(tests: TestsNode, name: string): string | undefined {
    return this.cached.get(key(tests))?.find((t) => t.name === name)?.group;
  }

  private tests(node: TestsNode): Promise<DataTest[]> {
    const k = key(node);
    let p = this.lists.get(k);
    if (!p) {
      const runner = this.o.review(node.hostId, node.db);
      p = runner({ sql: LIST_TESTS_SQL, at: node.commit }).then((r) => {
        const list = readTests(r);
        this.cached.set(k, list);
        return list;
      });
      this.lists.set(k, p);
    }
    return p;
  }
}

function key(n: TestsNode): string {
  return `${n.hostId} ${n.db.owner}/${n.db.name} ${n.commit}`;
}
