// What the merge confirmation says about a pull's checks (issue #24): newly failing tests, failed
// or running CI, and tests not run (never called passed). When something stands in the way, the
// confirmation asks a second time, naming it.
import { isAbortError } from '../api/errors';
import type { PullTarget } from '../core/targets';
import type { Pull } from '../shared/wire';
import { mergeWarnings, mustAskAgain } from '../core/dataTests/pullChecks';
import { pullLabel, type PullEnv } from './pullActions';
import * as l10n from '../shared/l10n';

export interface MergeChecksVerdict {
  /** Lines to add to the confirmation's detail. */
  readonly lines: string[];
  /** The second question, when the checks say not to merge. */
  readonly askAgain?: string;
}

/** The checks' part of the confirmation; undefined when the user cancelled the run. */
export async function mergeChecksVerdict(env: PullEnv, target: PullTarget, pull: Pull): Promise<MergeChecksVerdict | undefined> {
  const run = env.pullChecks;
  if (!run) return { lines: [] };
  try {
    const checks = await env.ui.withProgress(l10n.t('Running the checks of pull request #{0}…', target.pullNumber), (_p, signal) =>
      run(target, pull, signal),
    );
    const lines = mergeWarnings(checks);
    if (!mustAskAgain(checks)) return { lines };
    return { lines, askAgain: lines.join('\n') };
  } catch (err) {
    if (isAbortError(err)) return undefined;
    const why = err instanceof Error ? err.message : String(err);
    env.log.warn(`checks of ${pullLabel(target)}: ${why}`);
    return { lines: [`The checks could not be run (${why}): whether the tests pass is not known.`] };
  }
}

/**
 * The merge confirmation with the checks' lines under `detail`; when the checks say not to merge,
 * a second question naming what fails. True to merge.
 */
export async function confirmMerge(env: PullEnv, target: PullTarget, pull: Pull, detail: string): Promise<boolean> {
  const verdict = await mergeChecksVerdict(env, target, pull);
  if (verdict === undefined) return false;
  const full = verdict.lines.length ? l10n.t('{0}\n\nChecks:\n{1}', detail, verdict.lines.join('\n')) : detail;
  if (!(await env.ui.confirm(l10n.t('Merge pull request #{0} "{1}"?', target.pullNumber, pull.title), l10n.t('Merge'), full))) return false;
  if (!verdict.askAgain) return true;
  return env.ui.confirm(
    l10n.t('Pull request #{0} does not pass its checks. Merge anyway?', target.pullNumber),
    l10n.t('Merge Anyway'),
    verdict.askAgain,
  );
}
