// Opening a pull request: the branch to merge into, the branch to merge from (this database or
// any fork of its network), a title and a description. UI injected, as in pullActions.ts.
import type { Pull } from '../shared/wire';
import type { DbRef } from '../api/dbRef';
import type { PullTarget } from '../core/targets';
import { branchRefLabel, sameDatabase } from '../core/pullPage';
import type { PickItem } from '../platform/ui';
import { forkNetwork, networkBranches, type NetworkBranch } from './pullNetwork';
import { pullLabel, resolveDatabaseTarget, type PullEnv } from './pullActions';
import type { UnsentText } from '../core/errorMessages';
import * as l10n from '../shared/l10n';

function branchItem(nb: NetworkBranch, home: DbRef): PickItem<NetworkBranch> {
  const label = branchRefLabel({ database: nb.db, branch_name: nb.branch.name }, home);
  return {
    label,
    description: nb.branch.head_commit_sha.slice(0, 8),
    ...(sameDatabase(nb.db, home) ? {} : { detail: l10n.t('fork {0}/{1}', nb.db.owner, nb.db.name) }),
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
  /** The source branch's database when it is a fork's (Edit and Try Again after a failure). */
  fromDb?: DbRef;
  /** Preselects the branch to merge into. */
  toBranch?: string;
  /** The title and description to start from (Edit and Try Again after a failure). */
  text?: { title: string; description: string };
}

/** Steps 1 and 2: the branch to merge into (this database's), then the one to merge from (forks' too). */
async function pickBranches(
  env: PullEnv,
  db: DbRef,
  branches: NetworkBranch[],
  preset: CreatePullPreset,
): Promise<{ to: NetworkBranch; from: NetworkBranch } | undefined> {
  const here = branches.filter((b) => sameDatabase(b.db, db));
  if (here.length === 0) return void env.ui.info(l10n.t('{0}/{1} has no branches to merge into.', db.owner, db.name));
  const to = await env.ui.pick(
    here.map((b) => ({ ...branchItem(b, db), picked: b.branch.name === (preset.toBranch ?? 'main') })),
    {
      title: l10n.t('Open a pull request on {0}/{1} (1/4): merge into', db.owner, db.name),
      placeholder: l10n.t('The branch that receives the changes'),
    },
  );
  if (!to) return undefined;
  const fromCandidates = branches.filter((b) => !sameBranch(b, to));
  if (fromCandidates.length === 0)
    return void env.ui.info(l10n.t('There is no other branch in {0}/{1} or its forks to merge from.', db.owner, db.name));
  // Same-database branches first, then forks; a preset branch first of all.
  const rank = (x: NetworkBranch): number =>
    (sameDatabase(x.db, db) ? 0 : 2) + (x.branch.name === preset.fromBranch && sameDatabase(x.db, preset.fromDb ?? db) ? -3 : 0);
  fromCandidates.sort((a, b) => rank(a) - rank(b));
  const from = await env.ui.pick(
    fromCandidates.map((b) => branchItem(b, db)),
    {
      title: l10n.t('Open a pull request (2/4): merge from'),
      placeholder: l10n.t('Changes to merge into {0} (branches of forks are included)', to.branch.name),
    },
  );
  return from ? { to, from } : undefined;
}

/** Steps 3 and 4: the title (required) and the description (optional markdown). */
async function askTitleAndDescription(
  env: PullEnv,
  fromBranch: string,
  start: CreatePullPreset['text'],
): Promise<{ title: string; description: string } | undefined> {
  const title = await env.ui.input({
    title: l10n.t('Open a pull request (3/4): title'),
    value: start?.title ?? defaultPullTitle(fromBranch),
    validate: (v) => (v.trim() ? undefined : 'A pull request needs a title.'),
  });
  if (title === undefined) return undefined;
  const description = await env.ui.input({
    title: l10n.t('Open a pull request (4/4): description (optional, markdown)'),
    placeholder: l10n.t('What does it change, and why?'),
    ...(start ? { value: start.description } : {}),
    lines: l10n.t('Pull request description'),
  });
  return description === undefined ? undefined : { title: title.trim(), description };
}

export async function createPullCommand(env: PullEnv, arg: unknown, preset: CreatePullPreset = {}): Promise<Pull | undefined> {
  const target = await resolveDatabaseTarget(env, arg);
  if (!target) return undefined;
  const { hostId, db } = target;
  const client = env.clients.clientFor(hostId);
  let unsent: UnsentText | undefined;
  try {
    const branches = await env.ui.withProgress(
      l10n.t('Reading branches of {0}/{1} and its forks', db.owner, db.name),
      async (_p, signal) => {
        const network = await forkNetwork(client, db, { signal, log: env.log });
        return networkBranches(client, network, { signal, log: env.log });
      },
    );
    const picked = await pickBranches(env, db, branches, preset);
    if (!picked) return undefined;
    const { from, to } = picked;
    const text = await askTitleAndDescription(env, from.branch.name, preset.text);
    if (!text) return undefined;
    const again: CreatePullPreset = { fromBranch: from.branch.name, fromDb: from.db, toBranch: to.branch.name, text };
    unsent = { text: text.description.trim() ? text.description : text.title, again: () => createPullCommand(env, target, again) };
    const pull = await client.createPull(db, {
      title: text.title,
      ...(text.description.trim() ? { description: text.description } : {}),
      from_branch: { database: { owner: from.db.owner, name: from.db.name }, branch_name: from.branch.name },
      to_branch: { database: { owner: db.owner, name: db.name }, branch_name: to.branch.name },
    });
    const created: PullTarget = { hostId, db, pullNumber: pull.pull_number };
    env.log.info(`opened ${pullLabel(created)}`);
    env.pullChanged(created);
    await env.showPull(created);
    return pull;
  } catch (err) {
    const action = l10n.t('open a pull request on {0}/{1}', db.owner, db.name);
    env.ui.error(err, { action, hostId, ...(unsent ? { unsent } : {}) });
    return undefined;
  }
}
