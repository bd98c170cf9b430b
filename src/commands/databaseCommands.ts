// Add, remove, create and fork databases; copy owner/name; open on the web.
import type { Database, DatabaseRef } from '../shared/wire';
import { databaseWebUrl, parseDatabaseInput, validateDatabaseName, type ParsedDatabaseInput } from '../core/databaseInput';
import type { CommandDeps } from './commandDeps';
import { refName, requireAccount, resolveDatabase, resolveHost } from './commandTargets';
import { isTreeNode } from '../tree/treeNodes';
import * as l10n from '../shared/l10n';

/**
 * Adds a database by owner/name or pasted web URL (or a fork node's database), after checking it
 * with GET so a typo never lands in the tree. Resolves the added ref, or undefined.
 */
export async function addDatabase(deps: CommandDeps, node?: unknown): Promise<DatabaseRef | undefined> {
  let hostId: string | undefined;
  let parsed: ParsedDatabaseInput | undefined;
  if (isTreeNode(node) && node.kind === 'fork') {
    hostId = node.hostId;
    parsed = node.fork;
  } else {
    const known = deps.clients.hosts().map((h) => h.siteUrl);
    const text = await deps.ui.input({
      title: l10n.t('Add Database'),
      prompt: l10n.t('A database as owner/name, or paste its web address'),
      placeholder: l10n.t('owner/name or https://…/repositories/owner/name'),
      validate: (v) => {
        if (v.trim() === '') return undefined; // no nagging on an empty box
        try {
          parseDatabaseInput(v, known);
          return undefined;
        } catch (e) {
          return (e as Error).message;
        }
      },
    });
    if (text === undefined || text.trim() === '') return undefined;
    parsed = parseDatabaseInput(text, known);
    if (parsed.siteUrl) {
      const host = deps.clients.hosts().find((h) => h.siteUrl === parsed!.siteUrl);
      if (!host) {
        void deps.ui.info(
          l10n.t('{0} is not one of your hosts. Add it to the versionedDb.hosts setting, then add the database again.', parsed.siteUrl),
        );
        return undefined;
      }
      hostId = host.id;
    } else {
      hostId = await resolveHost(deps, node, `Add ${parsed.owner}/${parsed.name}`);
    }
  }
  if (!hostId) return undefined;
  const ref = { owner: parsed.owner, name: parsed.name };
  const client = deps.clients.clientFor(hostId);
  let info: Database;
  try {
    info = await deps.ui.withProgress(l10n.t('Checking {0}…', refName(ref)), (_p, signal) => client.getDatabase(ref, { signal }));
  } catch (e) {
    deps.ui.error(e, { action: l10n.t('add {0}', refName(ref)), hostId, hostLabel: deps.clients.labelOf(hostId) });
    return undefined;
  }
  const added = await deps.databases.add(hostId, ref);
  deps.tree.setDatabaseInfo(hostId, info);
  void deps.ui.info(added ? l10n.t('Added {0}.', refName(ref)) : l10n.t('{0} is already in the tree.', refName(ref)));
  return ref;
}

/** Forgets a database in the tree; nothing is deleted on the server. */
export async function removeDatabase(deps: CommandDeps, node?: unknown): Promise<boolean> {
  const target = await resolveDatabase(deps, node, 'Remove Database from View');
  if (!target) return false;
  const removed = await deps.databases.remove(target.hostId, target.db);
  if (removed)
    void deps.ui.info(
      l10n.t('Removed {0} from the view. It still exists on {1}.', refName(target.db), deps.clients.labelOf(target.hostId)),
    );
  return removed;
}

type OwnerChoice = { kind: 'me'; username: string } | { kind: 'org' };

/** Creates a database under me or an organization; visibility has no default and must be picked. */
export async function createDatabase(deps: CommandDeps, node?: unknown): Promise<DatabaseRef | undefined> {
  const hostId = await resolveHost(deps, node, 'Create Database');
  if (!hostId) return undefined;
  const account = await requireAccount(deps, hostId, 'Creating a database');
  if (!account) return undefined;
  const title = 'Create Database';
  const ownerChoice = await deps.ui.pick<OwnerChoice>(
    [
      { label: account.username, description: l10n.t('me'), value: { kind: 'me', username: account.username } },
      { label: l10n.t('An organization…'), description: l10n.t('type its name next'), value: { kind: 'org' } },
    ],
    { title, placeholder: l10n.t('Owner of the new database') },
  );
  if (!ownerChoice) return undefined;
  let owner: string | undefined = ownerChoice.kind === 'me' ? ownerChoice.username : undefined;
  if (ownerChoice.kind === 'org') {
    owner = await deps.ui.input({ title, prompt: l10n.t('Organization name'), validate: (v) => validateDatabaseName(v.trim()) });
    owner = owner?.trim();
  }
  if (!owner) return undefined;
  const name = (
    await deps.ui.input({
      title,
      prompt: l10n.t('Name of the new database under {0}', owner),
      validate: (v) => validateDatabaseName(v.trim()),
    })
  )?.trim();
  if (!name) return undefined;
  const visibility = await deps.ui.pick(
    [
      { label: l10n.t('Public'), description: l10n.t('anyone can read it'), value: 'public' },
      { label: l10n.t('Private'), description: l10n.t('only people with access can see it'), value: 'private' },
    ],
    { title, placeholder: l10n.t('Visibility (required)') },
  );
  if (!visibility) return undefined;
  const description = await deps.ui.input({ title, prompt: l10n.t('Description (optional)') });
  if (description === undefined) return undefined;
  const client = deps.clients.clientFor(hostId);
  try {
    const created = await deps.ui.withProgress(l10n.t('Creating {0}/{1}…', owner, name), (_p, signal) =>
      client.createDatabase(
        { owner: owner!, name, visibility, ...(description.trim() ? { description: description.trim() } : {}) },
        { signal },
      ),
    );
    const ref = { owner: created.owner, name: created.name };
    await deps.databases.add(hostId, ref);
    deps.tree.setDatabaseInfo(hostId, created);
    void deps.ui.info(l10n.t('Created {0} ({1}).', refName(ref), created.visibility));
    return ref;
  } catch (e) {
    deps.ui.error(e, { action: l10n.t('create {0}/{1}', owner, name), hostId, hostLabel: deps.clients.labelOf(hostId) });
    return undefined;
  }
}

/**
 * Forks into my namespace: a progress notification until the fork operation ends, then the fork
 * is added to the tree. Resolves the fork's ref when it succeeded.
 */
export async function forkDatabase(deps: CommandDeps, node?: unknown): Promise<DatabaseRef | undefined> {
  const target = await resolveDatabase(deps, node, 'Fork Database');
  if (!target) return undefined;
  const { hostId, db } = target;
  const account = await requireAccount(deps, hostId, 'Forking');
  if (!account) return undefined;
  const client = deps.clients.clientFor(hostId);
  const what = `the fork of ${refName(db)} into ${account.username}`;
  try {
    const outcome = await deps.operations.run({
      title: l10n.t('Forking {0} into {1}', refName(db), account.username),
      what,
      start: (signal) => client.createFork(db, { owner: account.username }, { signal }),
      client,
      log: deps.log,
    });
    if (outcome.kind === 'failed') {
      await deps.operations.showFailure(what, outcome.error, {
        operationId: outcome.ref.id,
        ...(outcome.requestId ? { requestId: outcome.requestId } : {}),
      });
      return undefined;
    }
    if (outcome.kind === 'stoppedWaiting') return undefined;
    const fork = outcome.operation.result?.database ?? { owner: account.username, name: db.name };
    await deps.databases.add(hostId, fork);
    deps.tree.refreshDatabase(hostId, db, ['forks', 'operations']);
    void deps.ui.info(l10n.t('Forked {0} into {1}.', refName(db), refName(fork)));
    return fork;
  } catch (e) {
    deps.ui.error(e, { action: l10n.t('fork {0}', refName(db)), hostId, hostLabel: deps.clients.labelOf(hostId) });
    return undefined;
  }
}

export async function copyDatabaseName(deps: CommandDeps, node?: unknown): Promise<string | undefined> {
  const target = await resolveDatabase(deps, node, 'Copy owner/name');
  if (!target) return undefined;
  const text = refName(target.db);
  await deps.ui.copy(text);
  void deps.ui.info(l10n.t('Copied {0}.', text));
  return text;
}

export async function openOnWeb(deps: CommandDeps, node?: unknown): Promise<string | undefined> {
  const target = await resolveDatabase(deps, node, 'Open on the Web');
  if (!target) return undefined;
  const host = deps.clients.host(target.hostId);
  if (!host) {
    void deps.ui.info(l10n.t('{0} is not available.', deps.clients.labelOf(target.hostId)));
    return undefined;
  }
  const url = databaseWebUrl(host.siteUrl, target.db.owner, target.db.name);
  await deps.ui.openExternal(url);
  return url;
}
