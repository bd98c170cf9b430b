// Create branches, tags and releases; copy commit hashes.
import type { Branch, Release, RevisionSource, Tag } from '../shared/wire';
import { isCommitHash, shortHash } from '../core/commitHash';
import { formatRelativeTime } from '../core/relativeTime';
import type { PickItem } from '../platform/ui';
import type { CommandDeps } from './commandDeps';
import { refName, resolveDatabase } from './commandTargets';
import type { DatabaseTarget } from '../core/targets';
import { isTreeNode } from '../tree/treeNodes';
import * as l10n from '../shared/l10n';

/** How many list pages a picker reads at most; more than this and the user types the name. */
const MAX_PICKER_PAGES = 5;

/** Branch and tag names as Dolt accepts them (git-like ref rules). */
export function validateRefName(text: string, what: 'branch' | 'tag'): string | undefined {
  const v = text.trim();
  if (v === '') return `Enter a ${what} name.`;
  if (/\s/.test(v)) return `A ${what} name cannot contain spaces.`;
  if (/[~^:?*[\\\x00-\x1f\x7f]/.test(v)) return `A ${what} name cannot contain ~ ^ : ? * [ or \\.`;
  if (v.startsWith('-') || v.startsWith('/') || v.endsWith('/') || v.endsWith('.')) {
    return `A ${what} name cannot start with "-" or "/", nor end with "/" or ".".`;
  }
  if (v.includes('..') || v.includes('//') || v.includes('@{') || v.endsWith('.lock')) {
    return `A ${what} name cannot contain "..", "//" or "@{", nor end with ".lock".`;
  }
  if (what === 'branch' && isCommitHash(v)) return 'That looks like a commit hash; pick another name.';
  return undefined;
}

async function listAll<T>(fetchPage: (pageToken: string | undefined) => Promise<{ items: T[]; nextPageToken?: string }>): Promise<T[]> {
  const out: T[] = [];
  let token: string | undefined;
  for (let i = 0; i < MAX_PICKER_PAGES; i++) {
    const page = await fetchPage(token);
    out.push(...page.items);
    if (!page.nextPageToken) break;
    token = page.nextPageToken;
  }
  return out;
}

function branches(deps: CommandDeps, t: DatabaseTarget): Promise<Branch[]> {
  const c = deps.clients.clientFor(t.hostId);
  return listAll((pageToken) => c.listBranches(t.db, pageToken ? { pageToken } : {}));
}

function tags(deps: CommandDeps, t: DatabaseTarget): Promise<Tag[]> {
  const c = deps.clients.clientFor(t.hostId);
  return listAll((pageToken) => c.listTags(t.db, pageToken ? { pageToken } : {}));
}

/** Where a new branch or tag starts: the node it was invoked on, or a branch/tag/pasted commit. */
async function pickSource(deps: CommandDeps, node: unknown, t: DatabaseTarget, title: string): Promise<RevisionSource | undefined> {
  if (isTreeNode(node)) {
    if (node.kind === 'branch') return { branch: node.branch.name };
    if (node.kind === 'tag') return { commit: node.tag.commit_sha };
    if (node.kind === 'release') return { commit: node.release.commit_sha };
    if (node.kind === 'commit') return { commit: node.commit.hash };
  }
  const now = Date.now();
  const items = Promise.all([branches(deps, t), tags(deps, t)]).then(([bs, ts]) => [
    ...bs.map((b): PickItem<RevisionSource> => ({
      label: `$(git-branch) ${b.name}`,
      description: [shortHash(b.head_commit_sha), formatRelativeTime(b.last_updated_at, now)].filter(Boolean).join(' · '),
      value: { branch: b.name },
    })),
    ...ts.map((tag): PickItem<RevisionSource> => ({
      label: `$(tag) ${tag.name}`,
      description: shortHash(tag.commit_sha),
      value: { commit: tag.commit_sha },
    })),
  ]);
  const picked = await deps.ui.pickOrType(items, { title, placeholder: l10n.t('Start from a branch or tag, or paste a commit hash') });
  if (!picked) return undefined;
  if ('value' in picked) return picked.value;
  const typed = picked.typed.trim();
  return isCommitHash(typed) ? { commit: typed } : { branch: typed };
}

function sourceText(s: RevisionSource): string {
  return s.branch !== undefined ? `branch ${s.branch}` : `commit ${shortHash(s.commit)}`;
}

export async function createBranch(deps: CommandDeps, node?: unknown): Promise<Branch | undefined> {
  const t = await resolveDatabase(deps, node, 'Create Branch');
  if (!t) return undefined;
  const title = `Create Branch in ${refName(t.db)}`;
  const from = await pickSource(deps, node, t, title);
  if (!from) return undefined;
  const name = (
    await deps.ui.input({ title, prompt: l10n.t('New branch from {0}', sourceText(from)), validate: (v) => validateRefName(v, 'branch') })
  )?.trim();
  if (!name) return undefined;
  const client = deps.clients.clientFor(t.hostId);
  try {
    const branch = await deps.ui.withProgress(l10n.t('Creating branch {0}…', name), (_p, signal) =>
      client.createBranch(t.db, { name, from }, { signal }),
    );
    deps.tree.refreshDatabase(t.hostId, t.db, ['branches']);
    void deps.ui.info(l10n.t('Created branch {0} at {1} in {2}.', branch.name, shortHash(branch.head_commit_sha), refName(t.db)));
    return branch;
  } catch (e) {
    deps.ui.error(e, { action: l10n.t('create branch {0}', name), hostId: t.hostId, hostLabel: deps.clients.labelOf(t.hostId) });
    return undefined;
  }
}

/** Creates a tag; a message makes it annotated, an empty one lightweight. */
export async function createTag(deps: CommandDeps, node?: unknown): Promise<Tag | undefined> {
  const t = await resolveDatabase(deps, node, 'Create Tag');
  if (!t) return undefined;
  const title = `Create Tag in ${refName(t.db)}`;
  const from = await pickSource(deps, node, t, title);
  if (!from) return undefined;
  const name = (
    await deps.ui.input({ title, prompt: l10n.t('New tag at {0}', sourceText(from)), validate: (v) => validateRefName(v, 'tag') })
  )?.trim();
  if (!name) return undefined;
  const message = await deps.ui.input({
    title,
    prompt: l10n.t('Message (optional: a message makes an annotated tag, none a lightweight one)'),
  });
  if (message === undefined) return undefined;
  const client = deps.clients.clientFor(t.hostId);
  try {
    const body = message.trim() ? { name, from, message: message.trim() } : { name, from };
    const tag = await deps.ui.withProgress(l10n.t('Creating tag {0}…', name), (_p, signal) => client.createTag(t.db, body, { signal }));
    deps.tree.refreshDatabase(t.hostId, t.db, ['tags']);
    void deps.ui.info(
      tag.message !== undefined
        ? l10n.t('Created annotated tag {0} at {1} in {2}.', tag.name, shortHash(tag.commit_sha), refName(t.db))
        : l10n.t('Created tag {0} at {1} in {2}.', tag.name, shortHash(tag.commit_sha), refName(t.db)),
    );
    return tag;
  } catch (e) {
    deps.ui.error(e, { action: l10n.t('create tag {0}', name), hostId: t.hostId, hostLabel: deps.clients.labelOf(t.hostId) });
    return undefined;
  }
}

/**
 * Creates a release: tag (existing, or new with create_tag_if_not_exists), title, commit from a
 * branch head or pasted, optional description.
 */
export async function createRelease(deps: CommandDeps, node?: unknown): Promise<Release | undefined> {
  const t = await resolveDatabase(deps, node, 'Create Release');
  if (!t) return undefined;
  const title = `Create Release in ${refName(t.db)}`;
  const tag = await pickReleaseTag(deps, t, node, title);
  if (!tag) return undefined;
  const { tagName, newTag } = tag;
  const commit = tag.commit || (await pickReleaseCommit(deps, t, node, title, tagName));
  if (!commit) return undefined;
  const releaseTitle = (
    await deps.ui.input({
      title,
      prompt: l10n.t('Release title (tag {0} at {1})', tagName, shortHash(commit)),
      value: tagName,
      validate: (v) => (v.trim() ? undefined : 'Enter a title.'),
    })
  )?.trim();
  if (!releaseTitle) return undefined;
  const description = await deps.ui.input({ title, prompt: l10n.t('Description (optional, markdown)') });
  if (description === undefined) return undefined;
  const client = deps.clients.clientFor(t.hostId);
  try {
    const release = await deps.ui.withProgress(l10n.t('Creating release {0}…', releaseTitle), (_p, signal) =>
      client.createRelease(
        t.db,
        {
          tag: tagName,
          title: releaseTitle,
          commit_sha: commit,
          ...(description.trim() ? { description: description.trim() } : {}),
          ...(newTag ? { create_tag_if_not_exists: true } : {}),
        },
        { signal },
      ),
    );
    deps.tree.refreshDatabase(t.hostId, t.db, newTag ? ['releases', 'tags'] : ['releases']);
    void deps.ui.info(l10n.t('Created release {0} (tag {1} at {2}).', release.title, release.tag, shortHash(release.commit_sha)));
    return release;
  } catch (e) {
    deps.ui.error(e, { action: l10n.t('create release {0}', releaseTitle), hostId: t.hostId, hostLabel: deps.clients.labelOf(t.hostId) });
    return undefined;
  }
}

/**
 * The release's tag: the tag node it ran on, an existing tag picked, or a new name typed (its
 * commit is asked next, unless a tag of that name exists after all).
 */
async function pickReleaseTag(
  deps: CommandDeps,
  t: DatabaseTarget,
  node: unknown,
  title: string,
): Promise<{ tagName: string; commit: string | undefined; newTag: boolean } | undefined> {
  if (isTreeNode(node) && node.kind === 'tag') return { tagName: node.tag.name, commit: node.tag.commit_sha, newTag: false };
  const existing = tags(deps, t);
  const pickedTag = await deps.ui.pickOrType(
    existing.then((ts) =>
      ts.map((tag) => ({ label: tag.name, description: l10n.t('existing tag · {0}', shortHash(tag.commit_sha)), value: tag })),
    ),
    { title, placeholder: l10n.t('Pick an existing tag, or type a new tag name') },
  );
  if (!pickedTag) return undefined;
  if ('value' in pickedTag) return { tagName: pickedTag.value.name, commit: pickedTag.value.commit_sha, newTag: false };
  const problem = validateRefName(pickedTag.typed, 'tag');
  if (problem) {
    void deps.ui.info(problem);
    return undefined;
  }
  const tagName = pickedTag.typed.trim();
  const known = (await existing.catch(() => [] as Tag[])).find((tag) => tag.name === tagName);
  return known ? { tagName, commit: known.commit_sha, newTag: false } : { tagName, commit: undefined, newTag: true };
}

/** The commit of a new tag: the head of the branch node it ran on, a branch head picked, or a pasted hash. */
async function pickReleaseCommit(
  deps: CommandDeps,
  t: DatabaseTarget,
  node: unknown,
  title: string,
  tagName: string,
): Promise<string | undefined> {
  if (isTreeNode(node) && node.kind === 'branch') return node.branch.head_commit_sha;
  const now = Date.now();
  const heads = branches(deps, t).then((bs) =>
    bs.map((b) => ({
      label: `$(git-branch) ${b.name}`,
      description: [`head ${shortHash(b.head_commit_sha)}`, formatRelativeTime(b.last_updated_at, now)].filter(Boolean).join(' · '),
      value: b.head_commit_sha,
    })),
  );
  const picked = await deps.ui.pickOrType(heads, {
    title,
    placeholder: l10n.t('Commit for the new tag {0}: a branch head, or paste a commit hash', tagName),
  });
  if (!picked) return undefined;
  if ('value' in picked) return picked.value;
  if (isCommitHash(picked.typed)) return picked.typed.trim();
  void deps.ui.info(l10n.t('"{0}" is not a commit hash (32 characters of 0-9 and a-v). Pick a branch or paste a hash.', picked.typed));
  return undefined;
}

export async function copyCommitHash(deps: CommandDeps, node?: unknown): Promise<string | undefined> {
  if (!isTreeNode(node)) return undefined;
  const hash =
    node.kind === 'branch'
      ? node.branch.head_commit_sha
      : node.kind === 'tag'
        ? node.tag.commit_sha
        : node.kind === 'release'
          ? node.release.commit_sha
          : node.kind === 'commit'
            ? node.commit.hash
            : undefined;
  if (!hash) return undefined;
  await deps.ui.copy(hash);
  void deps.ui.info(l10n.t('Copied commit {0}.', shortHash(hash)));
  return hash;
}
