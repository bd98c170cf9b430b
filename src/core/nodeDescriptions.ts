// How each resource reads in the tree: label, one-line description, full tooltip, state.
// Pure: times are relative to a `now` the caller passes; nothing reads settings.
import type { Branch, Database, DatabaseRef, Operation, PullSummary, Release, Tag } from '../shared/wire';
import { formatRelativeTime, formatShortAge, formatTimestamp } from './relativeTime';
import { shortHash } from './commitHash';
import type { Commit } from './review/commitLog';
import { sinceReviewDetail, sinceReviewText, type SinceReview } from './review/sinceReview';
import type { TableEntry } from './sql/tableCatalog';
import type { TableColumnInfo } from './sql/tableQuery';
import * as l10n from '../shared/l10n';

/** A tooltip as data; the tree provider renders it (escaping server text). */
export interface Tooltip {
  readonly title: string;
  readonly fields: readonly (readonly [string, string])[];
  /** Free text such as a description or message, shown below the fields. */
  readonly body?: string;
}

export interface NodeText {
  readonly label: string;
  readonly description?: string;
  readonly tooltip: Tooltip;
  /** What a screen reader says for the row, when it says more than the label and description (e.g. a mark drawn as an icon). */
  readonly accessibilityLabel?: string;
}

function join(...parts: (string | undefined)[]): string | undefined {
  const kept = parts.filter((p): p is string => p !== undefined && p !== '');
  return kept.length ? kept.join(' · ') : undefined;
}

function fields(...pairs: [string, string | undefined][]): (readonly [string, string])[] {
  return pairs.filter((p): p is [string, string] => p[1] !== undefined && p[1] !== '');
}

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return `${bytes} B`;
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${v} B` : `${v.toFixed(v < 10 ? 1 : 0)} ${units[u]}`;
}

export function refText(ref: DatabaseRef): string {
  return `${ref.owner}/${ref.name}`;
}

export function describeDatabase(ref: DatabaseRef, db: Database | undefined, now: number): NodeText {
  const label = refText(ref);
  if (!db) return { label, tooltip: { title: label, fields: [] } };
  return {
    label,
    description: join(
      db.visibility === 'private' ? 'private' : undefined,
      db.parent ? `fork of ${refText(db.parent)}` : undefined,
      formatRelativeTime(db.last_write_at, now),
    ),
    tooltip: {
      title: label,
      fields: fields(
        [l10n.t('Visibility'), db.visibility],
        [l10n.t('Size'), formatBytes(db.size_bytes)],
        [l10n.t('Stars'), String(db.star_count)],
        [l10n.t('Fork network'), String(db.fork_network_count)],
        [l10n.t('Forked from'), db.parent ? refText(db.parent) : undefined],
        [l10n.t('Network root'), db.network_root ? refText(db.network_root) : undefined],
        [l10n.t('Last write'), formatTimestamp(db.last_write_at)],
      ),
      ...(db.description ? { body: db.description } : {}),
    },
  };
}

export function describeBranch(b: Branch, now: number): NodeText {
  return {
    label: b.name,
    description: join(shortHash(b.head_commit_sha), formatRelativeTime(b.last_updated_at, now)),
    tooltip: {
      title: l10n.t('Branch {0}', b.name),
      fields: fields([l10n.t('Head commit'), b.head_commit_sha], [l10n.t('Updated'), formatTimestamp(b.last_updated_at)]),
    },
  };
}

export function describeTag(t: Tag, now: number): NodeText {
  return {
    label: t.name,
    description: join(shortHash(t.commit_sha), t.message ? firstLine(t.message) : undefined, formatRelativeTime(t.tagged_at, now)),
    tooltip: {
      title: `${t.message !== undefined ? 'Annotated tag' : 'Tag'} ${t.name}`,
      fields: fields([l10n.t('Commit'), t.commit_sha], [l10n.t('Tagged'), formatTimestamp(t.tagged_at)]),
      ...(t.message ? { body: t.message } : {}),
    },
  };
}

export function describeRelease(r: Release, now: number): NodeText {
  return {
    label: r.title || r.tag,
    description: join(r.tag, shortHash(r.commit_sha), formatRelativeTime(r.created_at, now)),
    tooltip: {
      title: l10n.t('Release {0}', r.title),
      fields: fields(
        [l10n.t('Tag'), r.tag],
        [l10n.t('Commit'), r.commit_sha],
        [l10n.t('Created'), formatTimestamp(r.created_at)],
        [l10n.t('Updated'), r.updated_at !== r.created_at ? formatTimestamp(r.updated_at) : undefined],
      ),
      ...(r.description ? { body: r.description } : {}),
    },
  };
}

/** A pull's item; `since`: where its branch stands since the current account's review (issue #25), said first. */
export function describePull(p: PullSummary, now: number, since?: SinceReview): NodeText {
  return {
    label: `#${p.pull_number} ${p.title}`,
    description: join(since && sinceReviewText(since), p.state, p.creator, formatRelativeTime(p.created_at, now)),
    tooltip: {
      title: l10n.t('Pull request #{0}: {1}', p.pull_number, p.title),
      fields: fields(
        [l10n.t('State'), p.state],
        [l10n.t('Creator'), p.creator],
        [l10n.t('Opened'), formatTimestamp(p.created_at)],
        [l10n.t('Your review'), since && sinceReviewDetail(since)],
      ),
      ...(p.description ? { body: p.description } : {}),
    },
  };
}

export function describeFork(ref: DatabaseRef): NodeText {
  return { label: refText(ref), tooltip: { title: l10n.t('Fork {0}', refText(ref)), fields: [] } };
}

export function isOperationActive(op: Pick<Operation, 'status'>): boolean {
  return op.status === 'queued' || op.status === 'running';
}

export function describeOperation(op: Operation, now: number): NodeText {
  const result = op.result;
  let outcome: string | undefined;
  if (op.status === 'failed' && op.error) outcome = `${op.error.title} (${op.error.code})`;
  else if (result?.database) outcome = `created ${refText(result.database)}`;
  else if (result?.pull_id !== undefined) outcome = `pull #${String(result.pull_id)}`;
  else if (typeof result?.commit_sha === 'string') outcome = `commit ${shortHash(result.commit_sha)}`;
  return {
    label: `${op.type} ${op.status}`,
    description: join(formatRelativeTime(op.created_at, now), outcome),
    tooltip: {
      title: l10n.t('Operation {0}', op.type),
      fields: fields(
        [l10n.t('Status'), op.status],
        [l10n.t('Id'), op.id],
        [l10n.t('Enqueued'), formatTimestamp(op.created_at)],
        [l10n.t('Error'), op.error ? `${op.error.title} (${op.error.code}, ${op.error.status})` : undefined],
        [l10n.t('Result'), outcome],
      ),
      ...(op.error?.detail ? { body: op.error.detail } : {}),
    },
  };
}

function firstLine(text: string): string {
  const line = text.split(/\r?\n/, 1)[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

// ---- Tables at a ref (issue #14) ----------------------------------------------------------------

/** The Tables node under a branch, tag or release: what it lists and at which commit. */
export function describeTables(db: DatabaseRef, ref: string, commit: string): NodeText {
  return {
    label: l10n.t('Tables'),
    description: l10n.t('at {0}', shortHash(commit)),
    tooltip: {
      title: l10n.t('Tables and views of {0} at {1}', refText(db), ref),
      fields: fields([l10n.t('Ref'), ref], [l10n.t('Commit'), commit]),
    },
  };
}

export function describeTable(t: TableEntry, ref: string, commit: string): NodeText {
  const title = t.kind === 'view' ? l10n.t('View {0}', t.name) : l10n.t('Table {0}', t.name);
  return {
    label: t.name,
    ...(t.kind === 'view' ? { description: l10n.t('view') } : {}),
    tooltip: { title, fields: fields([l10n.t('At'), ref], [l10n.t('Commit'), commit]) },
  };
}

/** `id` · `bigint · primary key`, `note` · `text · nullable`. */
export function describeColumn(c: TableColumnInfo): NodeText {
  const nullability = c.primaryKey ? 'primary key' : c.nullable === false ? 'not null' : 'nullable';
  const description = `${c.type || 'no declared type'} · ${nullability}`;
  return {
    label: c.name,
    description,
    tooltip: {
      title: l10n.t('Column {0}', c.name),
      fields: fields(
        [l10n.t('Type'), c.type || l10n.t('none declared')],
        [l10n.t('Primary key'), c.primaryKey ? l10n.t('yes') : l10n.t('no')],
        [l10n.t('Nullable'), c.primaryKey || c.nullable === false ? l10n.t('no') : l10n.t('yes')],
      ),
    },
  };
}

// ---- history (issue #15)

/**
 * A commit in a Commits list, as `git log --oneline` puts it: the short hash first, then a compact
 * age and the author, then the subject. A side bar of default width shows about 27 characters at
 * this depth: hash, age and author stay visible there and the subject is cut (the tooltip has the
 * whole message); a wider side bar shows more of it. A merge is marked by its icon (the tree's
 * provider draws git-merge), not by a word that would push the author past the row's edge, and a
 * screen reader says "Merge commit" first.
 */
export function describeCommit(c: Commit, now: number): NodeText {
  const iso = c.time === undefined ? undefined : new Date(c.time).toISOString();
  const description = join(formatShortAge(iso, now), c.author, c.subject || '(no message)') ?? '';
  return {
    label: c.shortHash,
    description,
    ...(c.isMerge ? { accessibilityLabel: l10n.t('Merge commit {0}, {1}', c.shortHash, description) } : {}),
    tooltip: {
      title: `${c.isMerge ? 'Merge commit' : 'Commit'} ${c.shortHash}`,
      fields: fields(
        [l10n.t('Commit'), c.hash],
        [l10n.t('Author'), c.email ? `${c.author} <${c.email}>` : c.author],
        [l10n.t('Date'), join(formatTimestamp(iso) ?? c.date, formatRelativeTime(iso, now))],
        [l10n.t('Parents'), c.parents.length ? c.parents.map((p) => shortHash(p)).join(', ') : l10n.t('none (first commit)')],
      ),
      ...(c.message ? { body: c.message } : {}),
    },
  };
}
