import type { OperationError, OperationRef, Pull, PullComment, PullState, PullSummary } from '../shared/wire';
import type { DbRef } from '../api/dbRef';
import type { HubClient } from '../api/hubClient';
import { paginate } from '../api/pagination';
import { parseDatabaseInput } from '../core/databaseInput';
import type { DatabaseTarget, PullTarget } from '../core/targets';
import { databaseTargetOf } from '../tree/databaseTargets';
import { branchRefLabel, pullStateLabel, sameDatabase } from '../core/pullPage';
import type { PickItem } from '../platform/ui';
import type { OperationWaiter } from './operationsRunner';
import type { CommandDeps } from './commandDeps';
import { forkNetwork, networkBranches, type NetworkApi, type NetworkBranch } from './pullNetwork';
import { mergeConfirmationDetail, type MergePreview } from '../core/review/mergePreview';
import { isAbortError } from '../api/errors';

// What each pull request command does, with the UI injected (src/platform/ui.ts) so the logic is
// unit-tested with a scripted fake. No `vscode` import: pullCommands.ts registers these.


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
    void env.ui.info('No Versioned DB host is configured. Start the local hub or add a host in versionedDb.hosts.');
    return undefined;
  }
  if (hosts.length === 1) return hosts[0]!.id;
  return env.ui.pick(
    hosts.map((h) => ({ label: h.label, description: h.siteUrl, value: h.id })),
    { title: 'Host', placeholder: 'Which host is the database on?' },
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
    title: 'Database',
    placeholder: known.length ? 'Pick a database, or type owner/name' : 'Type owner/name',
  });
  if (!picked) return undefined;
  if ('value' in picked) return { hostId, db: picked.value };
  try {
    const parsed = parseDatabaseInput(picked.typed);
    return { hostId, db: { owner: parsed.owner, name: parsed.name } };
  } catch (err) {
    env.ui.error(err, { action: 'pick a database', hostId });
    return undefined;
  }
}

/** A pull from the argument, or asked for: host, database, then one of its pulls in `states`. */
export async function resolvePullTarget(
  env: PullEnv,
  arg: unknown,
  states: readonly PullState[],
): Promise<PullTarget | undefined> {
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
      void env.ui.info(`${dbTarget.db.owner}/${dbTarget.db.name} has no ${which}pull requests.`);
      return undefined;
    }
    number = await env.ui.pick(list, { title: `Pull requests of ${dbTarget.db.owner}/${dbTarget.db.name}` });
  } catch (err) {
    env.ui.error(err, { action: 'list pull requests', hostId: dbTarget.hostId });
    return undefined;
  }
  return number === undefined ? undefined : { ...dbTarget, pullNumber: number };
}

// ---------------------------------------------------------------------------------------------
// Open a pull request: to-branch, from-branch (same database or any fork of its network), title.

function branchItem(nb: NetworkBranch, home: DbRef): PickItem<NetworkBranch> {
  const label = branchRefLabel({ database: nb.db, branch_name: nb.branch.name }, home);
  return {
    label,
    description: nb.branch.head_commit_sha.slice(0, 8),
    ...(sameDatabase(nb.db, home) ? {} : { detail: `fork ${nb.db.owner}/${nb.db.name}` }),
    value: nb,
  };
}

function sameBranch(a: NetworkBranch, b: NetworkBranch): boolean {
  return sameDatabase(a.db, b.db) && a.branch.name === b.branch.name;
}

/** A default title from the branch name: "add-prices" → "Add prices". */
export function defaultPullTitle(branch: string): string {
  const words = branch.replace(/[-_/]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : branch;
}

export interface CreatePullPreset {
  /** Preselects the source branch (e.g. invoked on a branch node). */
  fromBranch?: string;
}

export async function createPullCommand(env: PullEnv, arg: unknown, preset: CreatePullPreset = {}): Promise<Pull | undefined> {
  const target = await resolveDatabaseTarget(env, arg);
  if (!target) return undefined;
  const { hostId, db } = target;
  const client = env.clients.clientFor(hostId);
  try {
    const all = env.ui.withProgress(`Reading branches of ${db.owner}/${db.name} and its forks`, async (_p, signal) => {
      const network = await forkNetwork(client, db, { signal, log: env.log });
      return networkBranches(client, network, { signal, log: env.log });
    });
    const branches = await all;
    const here = branches.filter((b) => sameDatabase(b.db, db));
    if (here.length === 0) {
      void env.ui.info(`${db.owner}/${db.name} has no branches to merge into.`);
      return undefined;
    }
    const to = await env.ui.pick(
      here.map((b) => ({ ...branchItem(b, db), picked: b.branch.name === 'main' })),
      { title: `Open a pull request on ${db.owner}/${db.name} (1/4): merge into`, placeholder: 'The branch that receives the changes' },
    );
    if (!to) return undefined;
    const fromCandidates = branches.filter((b) => !sameBranch(b, to));
    if (fromCandidates.length === 0) {
      void env.ui.info(`There is no other branch in ${db.owner}/${db.name} or its forks to merge from.`);
      return undefined;
    }
    // Same-database branches first, then forks; a preset branch first of all.
    fromCandidates.sort((a, b) => {
      const rank = (x: NetworkBranch): number =>
        (sameDatabase(x.db, db) ? 0 : 2) + (preset.fromBranch && sameDatabase(x.db, db) && x.branch.name === preset.fromBranch ? -1 : 0);
      return rank(a) - rank(b);
    });
    const from = await env.ui.pick(
      fromCandidates.map((b) => branchItem(b, db)),
      { title: `Open a pull request (2/4): merge from`, placeholder: `Changes to merge into ${to.branch.name} (branches of forks are included)` },
    );
    if (!from) return undefined;
    const title = await env.ui.input({
      title: 'Open a pull request (3/4): title',
      value: defaultPullTitle(from.branch.name),
      validate: (v) => (v.trim() ? undefined : 'A pull request needs a title.'),
    });
    if (title === undefined) return undefined;
    const description = await env.ui.input({
      title: 'Open a pull request (4/4): description (optional, markdown)',
      placeholder: 'What does it change, and why?',
    });
    if (description === undefined) return undefined;
    const pull = await client.createPull(db, {
      title: title.trim(),
      ...(description.trim() ? { description } : {}),
      from_branch: { database: { owner: from.db.owner, name: from.db.name }, branch_name: from.branch.name },
      to_branch: { database: { owner: db.owner, name: db.name }, branch_name: to.branch.name },
    });
    const created: PullTarget = { hostId, db, pullNumber: pull.pull_number };
    env.log.info(`opened ${pullLabel(created)}`);
    env.pullChanged(created);
    await env.showPull(created);
    return pull;
  } catch (err) {
    env.ui.error(err, { action: `open a pull request on ${db.owner}/${db.name}`, hostId });
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Edit, close, reopen, comment.

export interface PullEdit {
  title: string;
  description: string;
}

/** Edits title and description; asks for both when `edit` is not given. Sends only what changed. */
export async function editPullCommand(env: PullEnv, arg: unknown, edit?: PullEdit): Promise<Pull | undefined> {
  const target = await resolvePullTarget(env, arg, []);
  if (!target) return undefined;
  const client = env.clients.clientFor(target.hostId);
  try {
    const current = await client.getPull(target.db, target.pullNumber);
    let next = edit;
    if (!next) {
      const title = await env.ui.input({
        title: `Edit pull request #${target.pullNumber} (1/2): title`,
        value: current.title,
        validate: (v) => (v.trim() ? undefined : 'A pull request needs a title.'),
      });
      if (title === undefined) return undefined;
      const description = await env.ui.input({
        title: `Edit pull request #${target.pullNumber} (2/2): description (markdown)`,
        value: current.description ?? '',
      });
      if (description === undefined) return undefined;
      next = { title, description };
    }
    const title = next.title.trim();
    if (!title) {
      void env.ui.info('A pull request needs a title; nothing was changed.');
      return undefined;
    }
    const patch: { title?: string; description?: string } = {};
    if (title !== current.title) patch.title = title;
    if (next.description !== (current.description ?? '')) patch.description = next.description;
    if (Object.keys(patch).length === 0) {
      void env.ui.info(`Pull request #${target.pullNumber} is unchanged.`);
      return current;
    }
    const updated = await client.updatePull(target.db, target.pullNumber, patch);
    env.pullChanged(target);
    return updated;
  } catch (err) {
    env.ui.error(err, { action: `edit ${pullLabel(target)}`, hostId: target.hostId });
    return undefined;
  }
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
    void env.ui.info(`Pull request #${target.pullNumber} is ${pullStateLabel(updated.state).toLowerCase()}.`);
    return updated;
  } catch (err) {
    env.ui.error(err, { action: `${verb} ${pullLabel(target)}`, hostId: target.hostId });
    return undefined;
  }
}

export async function commentOnPullCommand(env: PullEnv, arg: unknown, body?: string): Promise<PullComment | undefined> {
  const target = await resolvePullTarget(env, arg, []);
  if (!target) return undefined;
  let text = body;
  if (text === undefined) {
    text = await env.ui.input({
      title: `Comment on pull request #${target.pullNumber}`,
      placeholder: 'Markdown',
      validate: (v) => (v.trim() ? undefined : 'Write something first.'),
    });
    if (text === undefined) return undefined;
  }
  if (!text.trim()) {
    void env.ui.info('An empty comment was not posted.');
    return undefined;
  }
  try {
    const comment = await env.clients.clientFor(target.hostId).createPullComment(target.db, target.pullNumber, { body: text });
    env.pullChanged(target);
    return comment;
  } catch (err) {
    env.ui.error(err, { action: `comment on ${pullLabel(target)}`, hostId: target.hostId });
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Merge: confirm, start, watch the operation, then show the pull as merged or the failure.

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
    const result = await env.ui.withProgress(`Previewing the merge of pull request #${target.pullNumber}…`, (_p, signal) => preview(target, pull, signal));
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
      void env.ui.info(`Pull request #${n} is ${pullStateLabel(pull.state).toLowerCase()}; only an open pull request can be merged.`);
      return { kind: 'notOpen', pull };
    }
    const from = branchRefLabel(pull.from_branch, target.db);
    const to = branchRefLabel(pull.to_branch, target.db);
    const intro = `This merges ${from} into ${to} of ${target.db.owner}/${target.db.name} on the server.`;
    const detail = await mergeDetail(env, target, pull, intro);
    if (detail === undefined) return { kind: 'dismissed' };
    const ok = await env.ui.confirm(`Merge pull request #${n} "${pull.title}"?`, 'Merge', detail);
    if (!ok) return { kind: 'dismissed' };
    let ref: OperationRef | undefined;
    const outcome = await env.operations.run({
      title: `Merging pull request #${n} into ${to}`,
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
      .info(`Pull request #${n} ${merged.state === 'merged' ? 'is merged' : `merge finished (state: ${merged.state})`}: ${from} → ${to}.`, ...actions)
      .then(async (choice) => {
        if (choice === SHOW_PULL) await env.showPull(target);
        else if (choice === OPEN_ON_WEB && host) await env.ui.openExternal(pullWebUrl(host.siteUrl, target));
      });
    return { kind: 'merged', pull: merged };
  } catch (err) {
    env.ui.error(err, { action: `merge ${pullLabel(target)}`, hostId: target.hostId });
    return { kind: 'error' };
  }
}
