import type { PullChecks } from '../core/dataTests/pullChecks';
import type { Pull, PullComment, PullState, PullSummary } from '../shared/wire';
import type { DbRef } from '../api/dbRef';
import type { HubClient } from '../api/hubClient';
import { paginate } from '../api/pagination';
import { parseDatabaseInput } from '../core/databaseInput';
import type { DatabaseTarget, PullTarget } from '../core/targets';
import { databaseTargetOf } from '../tree/databaseTargets';
import { pullStateLabel } from '../core/pullPage';
import type { PickItem, Ui } from '../platform/ui';
import type { UnsentText } from '../core/errorMessages';
import type { OperationWaiter } from './operationsRunner';
import type { CommandDeps } from './commandDeps';
import type { NetworkApi } from './pullNetwork';
import type { MergePreview } from '../core/review/mergePreview';
import * as l10n from '../shared/l10n';

// What each pull request command does, with the UI injected (src/platform/ui.ts) so the logic is
// unit-tested with a scripted fake. No `vscode` import: pullCommands.ts registers these. Here:
// what the flows need (PullEnv), which pull or database a command is about, and editing, closing,
// reopening and commenting; opening a pull request in createPullCommand.ts, merging in
// mergePullCommand.ts.

/** The API calls pull requests need (HubClient satisfies it). */
export type PullApi = NetworkApi &
  OperationWaiter &
  Pick<HubClient, 'getPull' | 'listPulls' | 'createPull' | 'updatePull' | 'listPullComments' | 'createPullComment' | 'mergePull'>;

/**
 * What the pull request flows need: the same dependencies as every command (CommandDeps), its
 * clients narrowed to the pull request calls, plus the two ways to reach the pull request view.
 */
export type PullEnv = Pick<CommandDeps, 'ui' | 'log' | 'operations'> & {
  readonly clients: Pick<CommandDeps['clients'], 'hosts'> & { clientFor(hostId: string): PullApi };
  /** The databases the user added to the tree on a host (the API cannot list them). */
  readonly databases: Pick<CommandDeps['databases'], 'list'>;
  /** Opens (or reveals) the pull request view. */
  showPull(target: PullTarget): Promise<void>;
  /** A pull changed or appeared: refresh the tree and any open view of it. */
  pullChanged(target: PullTarget): void;
  /**
   * What merging would do (rows per table, conflicts), for the confirmation (issue #15); absent
   * where no preview can be made, and the confirmation then says nothing about it.
   */
  previewMerge?(target: PullTarget, pull: Pull, signal: AbortSignal): Promise<MergePreview>;
  /** The pull's checks (tests at merge base and head, CI runs) for the confirmation (issue #24). */
  pullChecks?(target: PullTarget, pull: Pull, signal: AbortSignal): Promise<PullChecks>;
};

export function pullLabel(target: PullTarget): string {
  return `pull request #${target.pullNumber} of ${target.db.owner}/${target.db.name}`;
}

/** The web page of a pull on a host, in the service's URL scheme. */
export function pullWebUrl(siteUrl: string, target: PullTarget): string {
  const seg = encodeURIComponent;
  return `${siteUrl.replace(/\/+$/, '')}/repositories/${seg(target.db.owner)}/${seg(target.db.name)}/pulls/${target.pullNumber}`;
}

// ---------------------------------------------------------------------------------------------
// Which pull or database a command is about: from a tree node or view argument, else asked.

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/**
 * Reads a command argument: a PullTarget, or a tree node carrying `hostId`, a database (`db` or
 * `database`) and a pull number (`pullNumber`, or `pull.pull_number`).
 */
export function pullTargetFromArg(arg: unknown): PullTarget | undefined {
  const db = databaseTargetOf(arg);
  if (!db || !isRecord(arg)) return undefined;
  const pull = arg['pull'];
  const n = typeof arg['pullNumber'] === 'number' ? arg['pullNumber'] : isRecord(pull) ? pull['pull_number'] : undefined;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? { ...db, pullNumber: n } : undefined;
}

async function pickHost(env: PullEnv): Promise<string | undefined> {
  const hosts = env.clients.hosts();
  if (hosts.length === 0) {
    void env.ui.info(l10n.t('No Versioned DB host is configured. Start the local hub or add a host in versionedDb.hosts.'));
    return undefined;
  }
  if (hosts.length === 1) return hosts[0]!.id;
  return env.ui.pick(
    hosts.map((h) => ({ label: h.label, description: h.siteUrl, value: h.id })),
    { title: l10n.t('Host'), placeholder: l10n.t('Which host is the database on?') },
  );
}

export async function resolveDatabaseTarget(env: PullEnv, arg: unknown): Promise<DatabaseTarget | undefined> {
  const given = databaseTargetOf(arg);
  if (given) return given;
  const hostId = await pickHost(env);
  if (!hostId) return undefined;
  const known = env.databases.list(hostId);
  const items: PickItem<DbRef>[] = known.map((db) => ({ label: `${db.owner}/${db.name}`, value: db }));
  const picked = await env.ui.pickOrType(items, {
    title: l10n.t('Database'),
    placeholder: known.length ? l10n.t('Pick a database, or type owner/name') : l10n.t('Type owner/name'),
  });
  if (!picked) return undefined;
  if ('value' in picked) return { hostId, db: picked.value };
  try {
    const parsed = parseDatabaseInput(picked.typed);
    return { hostId, db: { owner: parsed.owner, name: parsed.name } };
  } catch (err) {
    env.ui.error(err, { action: l10n.t('pick a database'), hostId });
    return undefined;
  }
}

/** A pull from the argument, or asked for: host, database, then one of its pulls in `states`. */
export async function resolvePullTarget(env: PullEnv, arg: unknown, states: readonly PullState[]): Promise<PullTarget | undefined> {
  const given = pullTargetFromArg(arg);
  if (given) return given;
  const dbTarget = await resolveDatabaseTarget(env, arg);
  if (!dbTarget) return undefined;
  const client = env.clients.clientFor(dbTarget.hostId);
  const items = (async (): Promise<PickItem<number>[]> => {
    const pulls: PullSummary[] = [];
    // Pull lists have no server-side filter: read pages until enough matching pulls are found.
    for await (const p of paginate((pageToken) => client.listPulls(dbTarget.db, { pageToken }))) {
      if (states.length === 0 || states.includes(p.state)) pulls.push(p);
      if (pulls.length >= 200) break;
    }
    return pulls.map((p) => ({
      label: `#${p.pull_number} ${p.title}`,
      description: `${pullStateLabel(p.state)} · ${p.creator}`,
      value: p.pull_number,
    }));
  })();
  let number: number | undefined;
  try {
    const list = await items;
    if (list.length === 0) {
      const which = states.length ? states.map((s) => pullStateLabel(s).toLowerCase()).join(' or ') + ' ' : '';
      void env.ui.info(l10n.t('{0}/{1} has no {2}pull requests.', dbTarget.db.owner, dbTarget.db.name, which));
      return undefined;
    }
    number = await env.ui.pick(list, { title: l10n.t('Pull requests of {0}/{1}', dbTarget.db.owner, dbTarget.db.name) });
  } catch (err) {
    env.ui.error(err, { action: l10n.t('list pull requests'), hostId: dbTarget.hostId });
    return undefined;
  }
  return number === undefined ? undefined : { ...dbTarget, pullNumber: number };
}

// ---------------------------------------------------------------------------------------------
// Edit, close, reopen, comment.

export interface PullEdit {
  title: string;
  description: string;
}

/**
 * Edits title and description; asks for both when `edit` is not given (starting from `start`, else
 * the pull's own). Sends only what changed. Texts asked for are offered again should the edit fail.
 */
export async function editPullCommand(env: PullEnv, arg: unknown, edit?: PullEdit, start?: PullEdit): Promise<Pull | undefined> {
  const target = await resolvePullTarget(env, arg, []);
  if (!target) return undefined;
  const client = env.clients.clientFor(target.hostId);
  let asked: PullEdit | undefined;
  try {
    const current = await client.getPull(target.db, target.pullNumber);
    const next =
      edit ?? (asked = await askPullEdit(env, target, start ?? { title: current.title, description: current.description ?? '' }));
    if (!next) return undefined;
    const title = next.title.trim();
    if (!title) {
      void env.ui.info(l10n.t('A pull request needs a title; nothing was changed.'));
      return undefined;
    }
    const patch: { title?: string; description?: string } = {};
    if (title !== current.title) patch.title = title;
    if (next.description !== (current.description ?? '')) patch.description = next.description;
    if (Object.keys(patch).length === 0) {
      void env.ui.info(l10n.t('Pull request #{0} is unchanged.', target.pullNumber));
      return current;
    }
    const updated = await client.updatePull(target.db, target.pullNumber, patch);
    env.pullChanged(target);
    return updated;
  } catch (err) {
    const kept = asked;
    const unsent = kept && { text: kept.description, again: () => editPullCommand(env, target, undefined, kept) };
    env.ui.error(err, { action: l10n.t('edit {0}', pullLabel(target)), hostId: target.hostId, ...(unsent ? { unsent } : {}) });
    return undefined;
  }
}

function askPullEdit(env: PullEnv, target: PullTarget, start: PullEdit): Promise<PullEdit | undefined> {
  return askPullText(
    env.ui,
    {
      title: l10n.t('Edit pull request #{0} (1/2): title', target.pullNumber),
      description: l10n.t('Edit pull request #{0} (2/2): description (markdown)', target.pullNumber),
    },
    start,
  );
}

/** A pull's title (required) then its description (markdown, several lines), each box titled and starting from `start`. */
export async function askPullText(
  ui: Pick<Ui, 'input'>,
  boxes: { title: string; description: string },
  start: PullEdit,
): Promise<PullEdit | undefined> {
  const title = await ui.input({
    title: boxes.title,
    value: start.title,
    validate: (v) => (v.trim() ? undefined : 'A pull request needs a title.'),
  });
  if (title === undefined) return undefined;
  const description = await ui.input({ title: boxes.description, value: start.description, lines: l10n.t('Pull request description') });
  return description === undefined ? undefined : { title, description };
}

/** Closes an open pull or reopens a closed one (the only transitions PATCH accepts). */
export async function setPullStateCommand(env: PullEnv, arg: unknown, state: 'open' | 'closed'): Promise<Pull | undefined> {
  const target = await resolvePullTarget(env, arg, [state === 'open' ? 'closed' : 'open']);
  if (!target) return undefined;
  const verb = state === 'open' ? 'reopen' : 'close';
  try {
    const updated = await env.clients.clientFor(target.hostId).updatePull(target.db, target.pullNumber, { state });
    env.log.info(`${verb}d ${pullLabel(target)}`);
    env.pullChanged(target);
    void env.ui.info(l10n.t('Pull request #{0} is {1}.', target.pullNumber, pullStateLabel(updated.state).toLowerCase()));
    return updated;
  } catch (err) {
    env.ui.error(err, { action: `${verb} ${pullLabel(target)}`, hostId: target.hostId });
    return undefined;
  }
}

/**
 * Comment on a pull: `given` is a body written elsewhere (a row comment, with its text kept should
 * the post fail), or a text to start the question from (Edit and Try Again); else it is asked for.
 */
export async function commentOnPullCommand(
  env: PullEnv,
  arg: unknown,
  given?: string | { body: string; unsent?: UnsentText } | { start: string },
): Promise<PullComment | undefined> {
  const target = await resolvePullTarget(env, arg, []);
  if (!target) return undefined;
  const written = typeof given === 'string' ? { body: given } : given && 'body' in given ? given : undefined;
  const start = typeof given === 'object' && 'start' in given ? given.start : undefined;
  let text = written?.body;
  if (text === undefined) {
    text = await env.ui.input({
      title: l10n.t('Comment on pull request #{0}', target.pullNumber),
      placeholder: l10n.t('Markdown'),
      ...(start !== undefined ? { value: start } : {}),
      validate: (v) => (v.trim() ? undefined : 'Write something first.'),
      lines: l10n.t('Comment'),
    });
    if (text === undefined) return undefined;
  }
  if (!text.trim()) {
    void env.ui.info(l10n.t('An empty comment was not posted.'));
    return undefined;
  }
  try {
    const comment = await env.clients.clientFor(target.hostId).createPullComment(target.db, target.pullNumber, { body: text });
    env.pullChanged(target);
    return comment;
  } catch (err) {
    const asked = text;
    const unsent = written ? written.unsent : { text: asked, again: () => commentOnPullCommand(env, target, { start: asked }) };
    env.ui.error(err, { action: l10n.t('comment on {0}', pullLabel(target)), hostId: target.hostId, ...(unsent ? { unsent } : {}) });
    return undefined;
  }
}
