// Merging a pull request: confirm (with a preview of what the merge does, when one can be made),
// start it, watch the operation, then show the pull as merged or the failure. UI injected, as in
// pullActions.ts.
import type { OperationError, OperationRef, Pull } from '../shared/wire';
import type { PullTarget } from '../core/targets';
import { branchRefLabel, pullStateLabel } from '../core/pullPage';
import { mergeConfirmationDetail } from '../core/review/mergePreview';
import { isAbortError } from '../api/errors';
import { pullLabel, pullWebUrl, resolvePullTarget, type PullEnv } from './pullActions';
import { confirmMerge } from './mergeChecks';
import * as l10n from '../shared/l10n';

export type MergeResult =
  | { kind: 'merged'; pull: Pull }
  | { kind: 'failed'; error: OperationError }
  | { kind: 'notOpen'; pull: Pull }
  | { kind: 'stoppedWaiting' }
  | { kind: 'dismissed' }
  | { kind: 'error' };

export const SHOW_PULL = 'Show Pull Request';
export const OPEN_ON_WEB = 'Open on Web';

/**
 * The confirmation's detail: the intro, then what the preview found (rows per table, conflicts),
 * or why there is no preview. Undefined when the user cancelled the preview.
 */
async function mergeDetail(env: PullEnv, target: PullTarget, pull: Pull, intro: string): Promise<string | undefined> {
  const preview = env.previewMerge;
  if (!preview) return intro;
  try {
    const result = await env.ui.withProgress(l10n.t('Previewing the merge of pull request #{0}…', target.pullNumber), (_p, signal) =>
      preview(target, pull, signal),
    );
    return mergeConfirmationDetail(result, intro);
  } catch (err) {
    if (isAbortError(err)) return undefined;
    env.log.warn(`merge preview of ${pullLabel(target)}: ${err instanceof Error ? err.message : String(err)}`);
    return `${intro}\n\nThe merge could not be previewed (${err instanceof Error ? err.message : String(err)}): how many rows it changes and whether it conflicts are not known.`;
  }
}

export async function mergePullCommand(env: PullEnv, arg: unknown): Promise<MergeResult> {
  const target = await resolvePullTarget(env, arg, ['open']);
  if (!target) return { kind: 'dismissed' };
  const client = env.clients.clientFor(target.hostId);
  const n = target.pullNumber;
  try {
    const pull = await client.getPull(target.db, n);
    if (pull.state !== 'open') {
      void env.ui.info(
        l10n.t('Pull request #{0} is {1}; only an open pull request can be merged.', n, pullStateLabel(pull.state).toLowerCase()),
      );
      return { kind: 'notOpen', pull };
    }
    const from = branchRefLabel(pull.from_branch, target.db);
    const to = branchRefLabel(pull.to_branch, target.db);
    const intro = `This merges ${from} into ${to} of ${target.db.owner}/${target.db.name} on the server.`;
    const detail = await mergeDetail(env, target, pull, intro);
    if (detail === undefined || !(await confirmMerge(env, target, pull, detail))) return { kind: 'dismissed' };
    let ref: OperationRef | undefined;
    const outcome = await env.operations.run({
      title: l10n.t('Merging pull request #{0} into {1}', n, to),
      what: `the merge of pull request #${n}`,
      client,
      log: env.log,
      start: async (signal) => {
        ref = await client.mergePull(target.db, n, { signal });
        env.log.info(`merge of ${pullLabel(target)} started as operation ${ref.id}`);
        return ref;
      },
    });
    env.pullChanged(target);
    if (outcome.kind === 'stoppedWaiting') return { kind: 'stoppedWaiting' };
    if (outcome.kind === 'failed') {
      void env.operations.showFailure(`Merging pull request #${n}`, outcome.error, {
        operationId: outcome.ref.id,
        ...(outcome.requestId ? { requestId: outcome.requestId } : {}),
      });
      return { kind: 'failed', error: outcome.error };
    }
    const merged = await client.getPull(target.db, n);
    const host = env.clients.hosts().find((h) => h.id === target.hostId);
    const actions = host ? [SHOW_PULL, OPEN_ON_WEB] : [SHOW_PULL];
    void env.ui
      .info(
        merged.state === 'merged'
          ? l10n.t('Pull request #{0} is merged: {1} → {2}.', n, from, to)
          : l10n.t('Pull request #{0} merge finished (state: {1}): {2} → {3}.', n, merged.state, from, to),
        ...actions,
      )
      .then(async (choice) => {
        if (choice === SHOW_PULL) await env.showPull(target);
        else if (choice === OPEN_ON_WEB && host) await env.ui.openExternal(pullWebUrl(host.siteUrl, target));
      });
    return { kind: 'merged', pull: merged };
  } catch (err) {
    env.ui.error(err, { action: l10n.t('merge {0}', pullLabel(target)), hostId: target.hostId });
    return { kind: 'error' };
  }
}
