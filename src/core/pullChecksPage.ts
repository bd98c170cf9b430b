// The pull request view's Checks section (issue #24) as HTML: each test's result at the merge base
// and at the head, newly failing first; the CI runs of the pull's branch with their status; what
// was not run and why. Never "passed" for a check that did not run. Pure: server text is escaped here.
import { escapeHtml } from './pullPage';
import { outcomeText, type TestOutcome } from './dataTests/dataTests';
import { CATEGORY_LABELS, type PullChecks, type SideRun } from './dataTests/pullChecks';
import * as l10n from '../shared/l10n';

export type ChecksState = { kind: 'checking' } | { kind: 'failed'; message: string } | { kind: 'done'; checks: PullChecks };

/** The element of the pull view the section is drawn in. */
export const CHECKS_ID = 'pull-checks';

function outcomeCell(o: TestOutcome | undefined, absent: string): string {
  if (!o) return `<td class="absent">${escapeHtml(absent)}</td>`;
  const cls = o.status === 'pass' ? 'pass' : o.status === 'fail' ? 'fail' : 'notrun';
  return `<td class="${cls}">${escapeHtml(outcomeText(o))}</td>`;
}

function sideNote(label: string, s: SideRun): string {
  return s.kind === 'notRun'
    ? `<p class="warning" data-side="${label}">${l10n.tHtml('Tests at the {0} not run: {1}', label, escapeHtml(s.reason))}</p>`
    : `<p class="muted" data-side="${label}">${l10n.tHtml('At the {0}: {1}.', label, escapeHtml(s.commit.slice(0, 8)))}</p>`;
}

function testsHtml(c: PullChecks): string {
  const notes = sideNote('merge base', c.base) + sideNote('head', c.head);
  if (c.tests.length === 0) return `${notes}<p class="empty">${l10n.tHtml('No tests (dolt_tests is empty on both sides).')}</p>`;
  const rows = c.tests
    .map(
      (t) =>
        `<tr class="check ${t.category}" data-test="${escapeHtml(t.name)}" data-category="${t.category}"><th scope="row">${escapeHtml(t.name)}</th><td class="category">${escapeHtml(CATEGORY_LABELS[t.category])}</td>${outcomeCell(t.base, 'not at the merge base')}${outcomeCell(t.head, 'removed')}</tr>`,
    )
    .join('');
  return `${notes}<table class="checks-tests"><thead><tr><th scope="col">${l10n.tHtml('test')}</th><th scope="col"></th><th scope="col">${l10n.tHtml('merge base')}</th><th scope="col">${l10n.tHtml('head')}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function ciHtml(c: PullChecks): string {
  if (c.ciError) return `<p class="warning">${l10n.tHtml('The CI runs could not be listed: {0}', escapeHtml(c.ciError))}</p>`;
  if (c.ci.length === 0) return `<p class="empty">${l10n.tHtml('No CI runs recorded for this branch.')}</p>`;
  const rows = c.ci
    .map((r) => {
      const o = r.operation;
      const why = o.status === 'failed' && o.error ? `${o.error.title}${o.error.detail ? `: ${o.error.detail}` : ''}` : '';
      return `<tr class="ci ${escapeHtml(o.status)}" data-ci="${escapeHtml(r.workflow)}"><th scope="row">${escapeHtml(r.workflow)}${r.branchKnown ? '' : ` <span class="muted">${l10n.tHtml('(branch not recorded)')}</span>`}</th><td class="status">${escapeHtml(o.status)}</td><td>${escapeHtml(why)}</td><td class="muted">${escapeHtml(o.created_at)}</td></tr>`;
    })
    .join('');
  return `<table class="checks-ci"><thead><tr><th scope="col">${l10n.tHtml('CI')}</th><th scope="col">${l10n.tHtml('status')}</th><th scope="col"></th><th scope="col">${l10n.tHtml('started')}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

export function renderChecksSection(state: ChecksState): string {
  const title = `<h2>${l10n.tHtml('Checks')}</h2>`;
  if (state.kind === 'checking')
    return `<section class="checks" data-state="checking">${title}<p class="empty">${l10n.tHtml('Running the tests at the merge base and at the head…')}</p></section>`;
  if (state.kind === 'failed')
    return `<section class="checks" data-state="failed">${title}<p class="error">${l10n.tHtml('The checks could not be run: {0}', escapeHtml(state.message))}</p></section>`;
  const c = state.checks;
  const newly = c.tests.filter((t) => t.category === 'newlyFailing').length;
  const summary = newly
    ? `<p class="verdict verdict-fail">${newly === 1 ? l10n.tHtml('1 newly failing test.') : l10n.tHtml('{0} newly failing tests.', newly)}</p>`
    : '';
  return `<section class="checks" data-state="done">${title}${summary}<h3>${l10n.tHtml('Tests')}</h3>${testsHtml(c)}<h3>${l10n.tHtml('CI')}</h3>${ciHtml(c)}</section>`;
}

export const CHECKS_STYLE = `
.checks table { border-collapse: collapse; margin: 6px 0; }
.checks th, .checks td { border: 1px solid var(--vscode-panel-border, #8884); padding: 2px 8px; text-align: left; }
.checks td.pass { color: var(--vscode-charts-green, #388a34); }
.checks td.fail, .checks .verdict-fail, .checks tr.failed .status { color: var(--vscode-errorForeground, #c33); }
.checks td.notrun, .checks .warning { color: var(--vscode-editorWarning-foreground, #c80); }
.checks tr.newlyFailing th { font-weight: 700; }
.checks .muted, .checks .absent, .checks .category { color: var(--vscode-descriptionForeground); }
`;
