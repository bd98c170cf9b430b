// Checks on a pull request (issue #24): the database's tests at the merge base and at the pull's
// head, compared per test (newly failing first, then fixed, still failing, not run, passing), and
// the CI runs recorded for the pull's branch. What the merge confirmation must name comes from
// here too. Pure: the runs are made by runChecks.ts, the view renders pullChecksPage.ts.
import type { Operation } from '../../shared/wire';
import type { TestOutcome } from './dataTests';
import * as l10n from '../../shared/l10n';

/** The tests of one side: their outcomes, or why they were not run at all. */
export type SideRun =
  | { readonly kind: 'ran'; readonly commit: string; readonly outcomes: ReadonlyMap<string, TestOutcome> }
  | { readonly kind: 'notRun'; readonly reason: string };

export type CheckCategory = 'newlyFailing' | 'fixed' | 'stillFailing' | 'notRun' | 'passing' | 'removed';

export const CATEGORY_ORDER: readonly CheckCategory[] = ['newlyFailing', 'fixed', 'stillFailing', 'notRun', 'passing', 'removed'];

/** Getters: each text is translated when read, not when this module loads. */
export const CATEGORY_LABELS: Record<CheckCategory, string> = {
  get newlyFailing() {
    return l10n.t('newly failing');
  },
  get fixed() {
    return l10n.t('fixed');
  },
  get stillFailing() {
    return l10n.t('still failing');
  },
  get notRun() {
    return l10n.t('not run');
  },
  get passing() {
    return l10n.t('passing');
  },
  get removed() {
    return l10n.t('removed by the pull');
  },
};

export interface TestCheck {
  readonly name: string;
  /** Undefined: the test does not exist at the merge base (the pull adds it). */
  readonly base: TestOutcome | undefined;
  /** Undefined: the pull removes the test. */
  readonly head: TestOutcome | undefined;
  readonly category: CheckCategory;
}

/** The CI runs recorded for a branch; `branchKnown` false when the host does not say which branch a run checked. */
export interface CiRun {
  readonly operation: Operation;
  readonly workflow: string;
  readonly branchKnown: boolean;
}

export interface PullChecks {
  readonly base: SideRun;
  readonly head: SideRun;
  readonly tests: readonly TestCheck[];
  readonly ci: readonly CiRun[];
  /** Why the CI runs could not be listed, if they could not. */
  readonly ciError?: string;
}

function categoryOf(base: TestOutcome | undefined, head: TestOutcome | undefined): CheckCategory {
  if (!head) return 'removed';
  if (head.status === 'notRun' || base?.status === 'notRun') return 'notRun';
  if (head.status === 'fail') return base?.status === 'fail' ? 'stillFailing' : 'newlyFailing';
  return base?.status === 'fail' ? 'fixed' : 'passing';
}

/** Every test of either side, compared; sorted by category in CATEGORY_ORDER, then by name. */
export function compareRuns(base: SideRun, head: SideRun): TestCheck[] {
  const names = new Set<string>();
  const outcomes = (side: SideRun): ReadonlyMap<string, TestOutcome> => (side.kind === 'ran' ? side.outcomes : new Map());
  for (const n of outcomes(base).keys()) names.add(n);
  for (const n of outcomes(head).keys()) names.add(n);
  const notRun = (side: SideRun): TestOutcome | undefined =>
    side.kind === 'notRun' ? { status: 'notRun', reason: side.reason } : undefined;
  const out: TestCheck[] = [];
  for (const name of names) {
    const b = notRun(base) ?? outcomes(base).get(name);
    const h = notRun(head) ?? outcomes(head).get(name);
    out.push({ name, base: b, head: h, category: categoryOf(b, h) });
  }
  const rank = (c: CheckCategory): number => CATEGORY_ORDER.indexOf(c);
  return out.sort((x, y) => rank(x.category) - rank(y.category) || x.name.localeCompare(y.name));
}

const CI_TYPES: ReadonlySet<string> = new Set(['svc_ci', 'dolt_ci']);

/**
 * The CI runs for `branch`: those that name it, and those that name no branch (the service does
 * not say where it puts the branch; such a run is shown as the database's, branch unknown).
 */
export function ciRunsFor(operations: readonly Operation[], branch: string): CiRun[] {
  return operations
    .filter((o) => CI_TYPES.has(o.type) && (o.ci === undefined || o.ci.branch === branch))
    .map((o) => ({ operation: o, workflow: o.ci?.workflow || o.type, branchKnown: o.ci !== undefined }));
}

/** What the merge confirmation must say before merging; empty when nothing stands in the way. */
export function mergeWarnings(checks: PullChecks): string[] {
  const lines: string[] = [];
  const of = (c: CheckCategory): string[] => checks.tests.filter((t) => t.category === c).map((t) => t.name);
  const newly = of('newlyFailing');
  if (newly.length) lines.push(`Newly failing tests (pass at the merge base, fail at the pull's head): ${newly.join(', ')}.`);
  const failedCi = checks.ci.filter((r) => r.operation.status === 'failed');
  if (failedCi.length)
    lines.push(
      `Failed CI: ${failedCi.map((r) => r.workflow + (r.operation.error?.detail ? ` (${r.operation.error.detail})` : '')).join('; ')}.`,
    );
  const runningCi = checks.ci.filter((r) => r.operation.status === 'running' || r.operation.status === 'queued');
  if (runningCi.length) lines.push(`CI still running: ${runningCi.map((r) => r.workflow).join(', ')}.`);
  const notRun = of('notRun');
  if (notRun.length) lines.push(`Not run, so not known to pass: ${notRun.join(', ')}.`);
  if (checks.head.kind === 'notRun') lines.push(`The tests at the pull's head were not run: ${checks.head.reason}`);
  return lines;
}

/** Whether the merge confirmation must ask again (newly failing tests, failed or running CI). */
export function mustAskAgain(checks: PullChecks): boolean {
  return (
    checks.tests.some((t) => t.category === 'newlyFailing') ||
    checks.ci.some((r) => r.operation.status === 'failed' || r.operation.status === 'running' || r.operation.status === 'queued')
  );
}
