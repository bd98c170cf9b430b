// Resolve Conflicts… on an open pull (issue #24): reads the conflicts, opens the Resolve view,
// applies the choices the way resolveApply.ts plans (said in the view first), previews the merge
// again and shows the pull that now merges.
import * as vscode from 'vscode';
import { Commands } from '../shared/ids';
import type { CommandDeps } from './commandDeps';
import type { HubClient } from '../api/index';
import { checkColumnValue } from '../core/changes/checkColumnValue';
import { previewMerge } from '../core/review/mergePreview';
import { conflictText } from '../core/review/mergePreview';
import { unchosen, NO_CHOICES, type Choices } from '../core/review/conflictResolution';
import type { SqlPort } from '../core/sql/sqlPort';
import type { PullTarget } from '../core/targets';
import type { Logger } from '../core/logger';
import type { Pull } from '../shared/wire';
import { ResolvePanel, type ResolveSession } from '../views/resolvePanel';
import { resolvePullTarget, type PullEnv } from './pullActions';
import {
  applyResolution,
  describePlan,
  planResolution,
  readResolution,
  PartlyAppliedError,
  type Resolution,
  type ResolveApi,
} from './resolveApply';
import * as l10n from '../shared/l10n';

export interface ResolveDeps {
  readonly env: PullEnv;
  readonly sql: Pick<SqlPort, 'review'>;
  readonly client: (hostId: string) => ResolveApi & Pick<HubClient, 'getPull'>;
  readonly extensionUri: vscode.Uri;
  readonly log: Logger;
}

/** The panels opened so far (for tests); they close with their tabs. */
export const openResolvePanels: ResolvePanel[] = [];

function planText(r: Resolution, choices: ReadonlyMap<string, Choices>): { text: string; canApply: boolean } {
  const open = r.tables.reduce((n, t) => {
    const u = unchosen(t.conflicts, choices.get(t.table) ?? NO_CHOICES);
    return n + u.cells.length + u.rows.length;
  }, 0);
  if (open > 0)
    return {
      text:
        open === 1
          ? l10n.t('Choose a value for 1 more conflicting cell or row, then Apply.')
          : l10n.t('Choose a value for {0} more conflicting cells or rows, then Apply.', open),
      canApply: false,
    };
  const plan = planResolution(r, choices);
  const refused = r.tables.find((t) => t.refusal);
  if (plan.kind === 'rebuild' && refused)
    return {
      text: l10n.t(
        '{0} It cannot be done: {1} cannot be settled cell by cell ({2}).',
        describePlan(r, plan),
        refused.table,
        refused.refusal ?? '',
      ),
      canApply: false,
    };
  return { text: describePlan(r, plan), canApply: true };
}

async function previewAgain(deps: ResolveDeps, t: PullTarget, pull: Pull, signal: AbortSignal): Promise<{ ok: boolean; text: string }> {
  const p = await previewMerge(
    (db) => deps.sql.review(t.hostId, db),
    { db: t.db, fromBranch: pull.from_branch, toBranch: pull.to_branch },
    { signal },
  );
  if (p.kind !== 'ready') return { ok: false, text: l10n.t('Pull request #{0}: {1}', pull.pull_number, p.reason) };
  return { ok: p.impact.willConflict === false, text: l10n.t('Pull request #{0}: {1}', pull.pull_number, conflictText(p)) };
}

function session(deps: ResolveDeps, target: PullTarget, r: Resolution): ResolveSession {
  const n = target.pullNumber;
  // Tables an Apply that failed part way wrote onto the pull's branch: the next Apply skips them.
  const written = new Set<string>();
  return {
    title: l10n.t('Resolve #{0} · {1}', n, target.db.name),
    tables: r.tables.map((t) => ({
      table: t.table,
      columns: t.ours.columns,
      cells: t.conflicts.cells,
      rows: t.conflicts.rows,
      ...(t.refusal ? { refusal: t.refusal } : {}),
    })),
    check: (table, column, value) => {
      const info = r.tables.find((t) => t.table === table)?.columnInfo.find((c) => c.name === column);
      return info ? checkColumnValue({ name: info.name, type: info.type, nullable: info.nullable ?? !info.primaryKey }, value) : undefined;
    },
    plan: (choices) => planText(r, choices),
    apply: async (choices) => {
      const client = deps.client(target.hostId);
      const newBranch = `settle-pull-${n}-${r.commits.ours.slice(0, 8)}`;
      try {
        const outcome = await deps.env.ui.withProgress(l10n.t('Settling the conflicts of pull request #{0}…', n), async (_p, signal) => {
          const done = await applyResolution(client, r, choices, { newBranch, signal, written });
          const settled: PullTarget = { ...target, pullNumber: done.pullNumber };
          const again = await previewAgain(deps, settled, await client.getPull(target.db, done.pullNumber, { signal }), signal);
          return { done, settled, again };
        });
        deps.env.pullChanged(target);
        if (outcome.done.kind === 'rebuild') deps.env.pullChanged(outcome.settled);
        const done = outcome.done;
        let where = done.kind === 'rebuild' ? `A new pull request #${done.pullNumber} holds the settled changes. ` : '';
        if (done.kind === 'rebuild' && done.unnoted !== undefined) {
          deps.log.warn(`pull #${n} got no comment naming #${done.pullNumber}: ${done.unnoted}`);
          where += l10n.t('Pull request #{0} could not be given a comment naming it ({1}). ', n, done.unnoted);
        }
        await deps.env.showPull(outcome.settled);
        return { ok: outcome.again.ok, text: `${where}${outcome.again.text}` };
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        deps.log.warn(`settling pull #${n}: ${why}`);
        if (!(e instanceof PartlyAppliedError)) return { ok: false, text: l10n.t('Not applied: {0}', why) };
        deps.env.pullChanged(target);
        return { ok: false, text: l10n.t('Partly applied: {0}', why) };
      }
    },
  };
}

export async function resolveConflictsCommand(deps: ResolveDeps, arg: unknown): Promise<ResolvePanel | undefined> {
  const target = await resolvePullTarget(deps.env, arg, ['open']);
  if (!target) return undefined;
  const pull = await deps.client(target.hostId).getPull(target.db, target.pullNumber);
  const r = await deps.env.ui.withProgress(l10n.t('Reading the conflicts of pull request #{0}…', target.pullNumber), (_p, signal) =>
    readResolution((db) => deps.sql.review(target.hostId, db), pull, signal),
  );
  if (r.tables.every((t) => t.conflicts.cells.length === 0 && t.conflicts.rows.length === 0 && !t.refusal)) {
    void deps.env.ui.info(l10n.t('Pull request #{0} has no conflicting cells to settle.', target.pullNumber));
    return undefined;
  }
  const panel = new ResolvePanel(deps.extensionUri, deps.log, session(deps, target, r));
  openResolvePanels.push(panel);
  panel.onDidDispose(() => openResolvePanels.splice(openResolvePanels.indexOf(panel), 1));
  return panel;
}

export function registerResolveCommand(
  host: Pick<CommandDeps, 'sql' | 'clients' | 'extensionUri' | 'log' | 'ui'>,
  env: PullEnv,
): vscode.Disposable {
  const deps: ResolveDeps = {
    env,
    sql: host.sql,
    client: (h) => host.clients.clientFor(h),
    extensionUri: host.extensionUri,
    log: host.log,
  };
  return vscode.commands.registerCommand(Commands.resolveConflicts, (arg?: unknown) =>
    resolveConflictsCommand(deps, arg).catch((err: unknown) => host.ui.error(err, { action: l10n.t('read the conflicts') })),
  );
}
