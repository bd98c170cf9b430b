// What the Changes commands do, with the UI injected so the logic is unit-tested with a scripted
// fake: check a `versionedDb.showChanges` argument, and Compare Refs… (two refs, two or three dots).
// No `vscode` import: changesCommands.ts registers these.
import type { Branch, Tag } from '../shared/wire';
import type { HubClient } from '../api/hubClient';
import { paginate } from '../api/pagination';
import type { ChangesRequest } from '../core/review/requests';
import { parseRevision } from '../core/review/revisions';
import { parseScope } from '../core/changes/changeSetScope';
import type { DatabaseTarget } from '../core/targets';
import { databaseTargetOf } from '../tree/databaseTargets';
import { pullTargetFromArg } from './pullActions';
import type { PickItem, Ui } from '../platform/ui';
import * as l10n from '../shared/l10n';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A ChangesRequest from a command argument, or a message saying what is wrong with it. */
export function parseChangesRequest(arg: unknown): { request: ChangesRequest } | { error: string } {
  if (!isRecord(arg)) return { error: 'Show Changes needs a request: { kind, target, ... } (see src/core/review/requests.ts).' };
  const table = typeof arg['table'] === 'string' && arg['table'] !== '' ? { table: arg['table'] } : {};
  const target = databaseTargetOf(arg['target']);
  if (!target) return { error: 'Show Changes: the request names no database ({ hostId, db: { owner, name } }).' };
  const check = (what: string, v: unknown): string | undefined => {
    if (typeof v !== 'string' || v === '') return `Show Changes: the ${what} is missing.`;
    try {
      parseRevision(v);
      return undefined;
    } catch (e) {
      return `Show Changes: ${e instanceof Error ? e.message : String(e)}`;
    }
  };
  switch (arg['kind']) {
    case 'commit': {
      const problem = check('commit', arg['commit']);
      if (problem) return { error: problem };
      return { request: { kind: 'commit', target, commit: arg['commit'] as string, ...table } };
    }
    case 'refs': {
      const problem = check('first ref', arg['from']) ?? check('second ref', arg['to']);
      if (problem) return { error: problem };
      return {
        request: {
          kind: 'refs',
          target,
          from: arg['from'] as string,
          to: arg['to'] as string,
          threeDot: arg['threeDot'] === true,
          ...table,
        },
      };
    }
    case 'pull': {
      const pull = pullTargetFromArg(arg['target']);
      if (!pull) return { error: 'Show Changes: the request names no pull request ({ hostId, db, pullNumber }).' };
      return { request: { kind: 'pull', target: pull, ...table } };
    }
    case 'changeSet': {
      const scope = parseScope(arg['scope']);
      if (!scope) return { error: 'Show Changes: the request names no change set ({ hostId, owner, name, branch, table, baseCommit }).' };
      return { request: { kind: 'changeSet', target, scope, ...table } };
    }
    default:
      return { error: `Show Changes: unknown kind of request ${JSON.stringify(arg['kind'])} (commit, refs, pull or changeSet).` };
  }
}

export interface CompareEnv {
  readonly ui: Pick<Ui, 'pickOrType' | 'pick' | 'info'>;
  clientFor(hostId: string): Pick<HubClient, 'listBranches' | 'listTags'>;
  /** The database of the node, or one the user picks among the tree's. */
  database(arg: unknown): Promise<DatabaseTarget | undefined>;
  showChanges(request: ChangesRequest): Promise<unknown>;
}

type RefItem = { name: string };

async function refItems(env: CompareEnv, t: DatabaseTarget, signal?: AbortSignal): Promise<PickItem<RefItem>[]> {
  const client = env.clientFor(t.hostId);
  const branches: Branch[] = [];
  const tags: Tag[] = [];
  for await (const b of paginate((pageToken) => client.listBranches(t.db, { pageToken, signal }, { signal }))) branches.push(b);
  for await (const tg of paginate((pageToken) => client.listTags(t.db, { pageToken, signal }, { signal }))) tags.push(tg);
  return [
    ...branches.map((b) => ({ label: `$(git-branch) ${b.name}`, description: b.head_commit_sha.slice(0, 7), value: { name: b.name } })),
    ...tags.map((tg) => ({ label: `$(tag) ${tg.name}`, description: tg.commit_sha.slice(0, 7), value: { name: tg.name } })),
  ];
}

/** The name a picked or typed ref stands for; a typed one must be a valid revision. */
function refOf(answer: { value: RefItem } | { typed: string }): { ref: string } | { error: string } {
  if ('value' in answer) return { ref: answer.value.name };
  const text = answer.typed.trim();
  try {
    parseRevision(text);
    return { ref: text };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** The ref a tree node stands for (a branch or tag node): offered as the newer side. */
function nodeRef(arg: unknown): string | undefined {
  if (!isRecord(arg)) return undefined;
  if (arg['kind'] === 'branch' && isRecord(arg['branch']) && typeof arg['branch']['name'] === 'string') return arg['branch']['name'];
  if (arg['kind'] === 'tag' && isRecord(arg['tag']) && typeof arg['tag']['name'] === 'string') return arg['tag']['name'];
  return undefined;
}

/** Compare Refs…: pick the older and the newer ref (branch, tag or a typed hash), then two or three dots. */
export async function compareRefs(env: CompareEnv, arg: unknown): Promise<ChangesRequest | undefined> {
  const target = await env.database(arg);
  if (!target) return undefined;
  const items = refItems(env, target);
  const fromAnswer = await env.ui.pickOrType(items, {
    title: l10n.t('Compare {0}/{1}: from (the older side)', target.db.owner, target.db.name),
    placeholder: l10n.t('A branch, a tag, or type a commit hash'),
  });
  if (!fromAnswer) return undefined;
  const from = refOf(fromAnswer);
  if ('error' in from) {
    void env.ui.info(l10n.t('Cannot compare from that: {0}', from.error));
    return undefined;
  }
  const preset = nodeRef(arg);
  const toItems = items.then((list) => {
    const rest = list.filter((i) => i.value.name !== from.ref);
    const first = rest.filter((i) => i.value.name === preset);
    return [...first, ...rest.filter((i) => i.value.name !== preset)];
  });
  const toAnswer = await env.ui.pickOrType(toItems, {
    title: l10n.t('Compare {0} with: to (the newer side)', from.ref),
    placeholder: l10n.t('A branch, a tag, or type a commit hash'),
  });
  if (!toAnswer) return undefined;
  const to = refOf(toAnswer);
  if ('error' in to) {
    void env.ui.info(l10n.t('Cannot compare with that: {0}', to.error));
    return undefined;
  }
  if (to.ref === from.ref) {
    void env.ui.info(l10n.t('{0} compared with itself has no changes; pick two different refs.', from.ref));
    return undefined;
  }
  const dots = await env.ui.pick(
    [
      {
        label: `${from.ref}..${to.ref}`,
        description: l10n.t('two dots'),
        detail: l10n.t('How {0} differs from {1}', to.ref, from.ref),
        value: false,
      },
      {
        label: `${from.ref}...${to.ref}`,
        description: l10n.t('three dots'),
        detail: l10n.t('What {0} changed since it left {1} (from their merge base)', to.ref, from.ref),
        value: true,
      },
    ],
    { title: l10n.t('Which changes?') },
  );
  if (dots === undefined) return undefined;
  const request: ChangesRequest = { kind: 'refs', target, from: from.ref, to: to.ref, threeDot: dots };
  await env.showChanges(request);
  return request;
}
