// How the Tests node, its groups and tests read in the Databases tree (issue #24): PASS, FAIL with
// the message or NOT RUN with the reason once run; a click on a test opens its query in a notebook
// at the commit it ran at.
import * as vscode from 'vscode';
import { describeAssertion, outcomeText, type TestOutcome } from '../core/dataTests/dataTests';
import { Commands, ContextValues } from '../shared/ids';
import type { DataTestNode } from './treeNodes';
import * as l10n from '../shared/l10n';

export interface TestOutcomes {
  testOutcome(node: Extract<DataTestNode, { kind: 'test' }>): TestOutcome | undefined;
  testGroupOutcomes(node: Extract<DataTestNode, { kind: 'testGroup' }>): TestOutcome[];
}

export function dataTestItem(node: DataTestNode, outcomes: TestOutcomes): vscode.TreeItem {
  const Collapsed = vscode.TreeItemCollapsibleState.Collapsed;
  switch (node.kind) {
    case 'tests': {
      const item = new vscode.TreeItem(l10n.t('Tests'), Collapsed);
      item.iconPath = new vscode.ThemeIcon('beaker');
      item.contextValue = node.parent.kind === 'branch' ? ContextValues.testsAtBranch : ContextValues.tests;
      item.tooltip = l10n.t(
        'The tests of {0}/{1} (dolt_tests) at {2} ({3})',
        node.db.owner,
        node.db.name,
        node.ref,
        node.commit.slice(0, 8),
      );
      return item;
    }
    case 'testGroup': {
      const item = new vscode.TreeItem(node.group, Collapsed);
      const ran = outcomes.testGroupOutcomes(node);
      item.description = ran.length === 0 ? l10n.t('group') : summary(ran);
      item.iconPath = new vscode.ThemeIcon('symbol-namespace');
      item.contextValue = ContextValues.testGroup;
      return item;
    }
    case 'test': {
      const item = new vscode.TreeItem(node.test.name, vscode.TreeItemCollapsibleState.None);
      const o = outcomes.testOutcome(node);
      item.description = o ? outcomeText(o) : describeAssertion(node.test);
      item.tooltip = `${node.test.query}\n\n${describeAssertion(node.test)}${o ? `\n\n${outcomeText(o)}` : ''}`;
      item.iconPath = icon(o);
      item.contextValue = ContextValues.test;
      item.command = { command: Commands.openTestQuery, title: l10n.t('Open Test Query'), arguments: [node] };
      return item;
    }
  }
}

function icon(o: TestOutcome | undefined): vscode.ThemeIcon {
  if (!o) return new vscode.ThemeIcon('circle-large-outline');
  if (o.status === 'pass') return new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
  if (o.status === 'fail') return new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
  return new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('testing.iconSkipped'));
}

function summary(ran: TestOutcome[]): string {
  const n = (s: TestOutcome['status']): number => ran.filter((o) => o.status === s).length;
  const parts = [`${n('pass')} passed`, `${n('fail')} failed`];
  if (n('notRun') > 0) parts.push(`${n('notRun')} not run`);
  return parts.join(', ');
}
