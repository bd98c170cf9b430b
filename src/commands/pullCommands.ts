import * as vscode from 'vscode';
import { markStepDone } from '../platform/walkthrough';
import { Commands } from '../shared/ids';
import { PullPanels, type PullPanelsDeps } from '../views/pullPanel';
import {
  commentOnPullCommand,
  editPullCommand,
  pullTargetFromArg,
  pullWebUrl,
  resolvePullTarget,
  setPullStateCommand,
  type PullEnv,
} from './pullActions';
import { createPullCommand } from './createPullCommand';
import { mergePullCommand } from './mergePullCommand';
import { replyToThread } from './rowComments';
import { applySuggestion } from './applySuggestion';
import type { ProposeEnv } from './proposeTypes';
import type { PullTarget } from '../core/targets';
import type { UnsentText } from '../core/errorMessages';
import type { CommandDeps } from './commandDeps';
import { previewMerge } from '../core/review/mergePreview';
import { registerResolveCommand } from './resolveCommands';
import { pullChecksWiring } from './pullChecksWiring';
import type { ReviewMarks } from '../views/pullCommits';

/**
 * What the pull request commands need: part of every command's CommandDeps, the review marks
 * (issue #25), and whom to tell when a pull changed (the Changes views show its comments anew).
 */
export type PullCommandDeps = Pick<
  CommandDeps,
  'ui' | 'accounts' | 'log' | 'clients' | 'sql' | 'databases' | 'tree' | 'operations' | 'extensionUri' | 'workspaceState'
> & { reviewMarks: ReviewMarks; announcePullChange?: (t: PullTarget) => void };

/** Registers every pull request command and the pull request view; dispose to unregister. */
export function registerPullCommands(deps: PullCommandDeps): vscode.Disposable {
  const webUrl = (t: PullTarget): string | undefined => {
    const host = deps.clients.hosts().find((h) => h.id === t.hostId);
    return host ? pullWebUrl(host.siteUrl, t) : undefined;
  };

  const checks = pullChecksWiring(deps);
  // The panels and the env refer to each other (buttons run commands; commands refresh panels).
  let panels: PullPanels | undefined = undefined;
  const env: PullEnv = {
    ...deps,
    showPull: async (t) => panels?.show(t),
    pullChanged: (t) => {
      deps.tree.refreshDatabase(t.hostId, t.db, ['pulls', 'operations']);
      panels?.refresh(t);
      deps.announcePullChange?.(t);
    },
    // The merge confirmation says what the merge changes and whether it conflicts (issue #15).
    previewMerge: (t, pull, signal) =>
      previewMerge((db) => deps.sql.review(t.hostId, db), { db: t.db, fromBranch: pull.from_branch, toBranch: pull.to_branch }, { signal }),
    // ...and whether it breaks the database's tests or its CI failed (issue #24).
    pullChecks: checks.forMerge,
  };

  panels = new PullPanels({
    extensionUri: deps.extensionUri,
    clientFor: (hostId) => deps.clients.clientFor(hostId),
    webUrl,
    log: deps.log,
    sql: deps.sql,
    changes: { sql: deps.sql, viewed: deps.workspaceState, log: deps.log },
    ...reviewSections(deps, env),
    checks: checks.section,
    actions: {
      merge: (t) => mergePullCommand(env, t),
      setState: (t, state) => setPullStateCommand(env, t, state),
      comment: async (t, body) => (await commentOnPullCommand(env, t, body)) !== undefined,
      edit: async (t, title, description) => (await editPullCommand(env, t, { title, description })) !== undefined,
      settleConflicts: (t) => settleConflicts(env, t),
      openOnWeb: async (t) => {
        const url = webUrl(t);
        if (url) await deps.ui.openExternal(url);
      },
    },
  });

  const showPull = async (arg: unknown): Promise<void> => {
    const target = pullTargetFromArg(arg) ?? (await resolvePullTarget(env, arg, []));
    if (!target) return;
    await panels?.show(target);
    markStepDone('reviewedPull');
  };

  return vscode.Disposable.from(
    panels,
    vscode.commands.registerCommand(Commands.createPullRequest, (arg?: unknown) => createPullCommand(env, arg, presetFrom(arg))),
    vscode.commands.registerCommand(Commands.showPullRequest, showPull),
    vscode.commands.registerCommand(Commands.editPullRequest, (arg?: unknown) => editPullCommand(env, arg)),
    vscode.commands.registerCommand(Commands.closePullRequest, (arg?: unknown) => setPullStateCommand(env, arg, 'closed')),
    vscode.commands.registerCommand(Commands.reopenPullRequest, (arg?: unknown) => setPullStateCommand(env, arg, 'open')),
    // A second argument is the body (a row comment from the Changes view, src/commands/rowComments.ts),
    // a third the text written for it, offered again should the post fail.
    vscode.commands.registerCommand(Commands.commentOnPullRequest, (arg?: unknown, body?: unknown, unsent?: unknown) =>
      commentOnPullCommand(env, arg, typeof body === 'string' ? { body, ...(isUnsent(unsent) ? { unsent } : {}) } : undefined),
    ),
    vscode.commands.registerCommand(Commands.mergePullRequest, (arg?: unknown) => mergePullCommand(env, arg)),
    // Settling conflicts cell by cell (issue #24).
    registerResolveCommand(deps, env),
  );
}

/** The text a row comment's poster hands over (an in-process call: the function is kept). */
function isUnsent(v: unknown): v is UnsentText {
  if (typeof v !== 'object' || v === null) return false;
  const { text, again } = v as { text?: unknown; again?: unknown };
  return typeof text === 'string' && (again === undefined || typeof again === 'function');
}

/** Invoked on a branch node: that branch is the likely source. */
function presetFrom(arg: unknown): { fromBranch?: string } {
  if (typeof arg !== 'object' || arg === null) return {};
  const b = (arg as { kind?: unknown; branch?: { name?: unknown } }).branch;
  return (arg as { kind?: unknown }).kind === 'branch' && typeof b?.name === 'string' ? { fromBranch: b.name } : {};
}

/** The pull view's conflict path: Resolve Conflicts… (issue #24), cell by cell. */
async function settleConflicts(_env: PullEnv, target: PullTarget): Promise<void> {
  await vscode.commands.executeCommand(Commands.resolveConflicts, target);
}

/** The pull view's review sections (issue #25): commits with the last-review mark, and row comment threads. */
function reviewSections(deps: PullCommandDeps, env: PullEnv): Pick<PullPanelsDeps, 'commits' | 'threads'> {
  return {
    commits: {
      sql: deps.sql,
      log: deps.log,
      reviews: deps.reviewMarks,
    },
    threads: {
      sql: deps.sql,
      log: deps.log,
      reply: (t, thread, head) =>
        replyToThread(
          { ui: deps.ui, post: (p, body, unsent) => commentOnPullCommand(env, p, { body, ...(unsent ? { unsent } : {}) }) },
          t,
          thread,
          head,
        ),
      apply: (t, thread, comment) => applySuggestion(suggestionEnv(deps, env), t, thread, comment),
    },
  };
}

/** Apply Suggestion sends through Propose Changes…' steps (issue #25); its change set is its own. */
function suggestionEnv(deps: PullCommandDeps, env: PullEnv): ProposeEnv {
  return {
    ui: deps.ui,
    log: deps.log,
    clientFor: (hostId) => deps.clients.clientFor(hostId),
    sql: deps.sql,
    changeSets: { snapshot: () => undefined, remove: async () => undefined, rebase: () => Promise.reject(new Error('unused')) },
    refreshDatabase: (hostId, db, what) => deps.tree.refreshDatabase(hostId, db, what),
    showPull: async (t) => env.pullChanged(t),
    showChanges: (request) => Promise.resolve(vscode.commands.executeCommand(Commands.showChanges, request)),
  };
}
