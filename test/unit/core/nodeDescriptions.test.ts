import { strict as assert } from 'node:assert';
import {
  describeBranch,
  describeCommit,
  describeDatabase,
  describeOperation,
  describePull,
  describeRelease,
  describeTag,
  formatBytes,
} from '../../../src/core/nodeDescriptions';
import { formatRelativeTime, formatShortAge, formatTimestamp } from '../../../src/core/relativeTime';
import type { Commit } from '../../../src/core/review/commitLog';
import { isCommitHash, shortHash } from '../../../src/core/commitHash';
import { aBranch, aDatabase, anOperation, aPullSummary, aRelease, aTag } from '../../builders/wire';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const HASH = 'rmnjb8cjc5tblj21ed4qs821649eduie';

describe('relative times and hashes', () => {
  it('says how long ago, in words', () => {
    assert.equal(formatRelativeTime('2026-03-10T11:59:50Z', NOW), 'just now');
    assert.equal(formatRelativeTime('2026-03-10T11:57:00Z', NOW), '3 minutes ago');
    assert.equal(formatRelativeTime('2026-03-10T10:00:00Z', NOW), '2 hours ago');
    assert.equal(formatRelativeTime('2026-03-09T12:00:00Z', NOW), 'yesterday');
    assert.equal(formatRelativeTime('2025-03-10T12:00:00Z', NOW), 'last year');
    assert.equal(formatRelativeTime(undefined, NOW), undefined);
    assert.equal(formatRelativeTime('garbage', NOW), undefined);
  });

  it('shows full timestamps in UTC', () => {
    assert.equal(formatTimestamp('2026-03-10T11:57:00.123Z'), '2026-03-10 11:57:00 UTC');
  });

  it('shortens commit hashes and recognises them', () => {
    assert.equal(shortHash(HASH), 'rmnjb8cj');
    assert.ok(isCommitHash(HASH));
    assert.ok(!isCommitHash('main'));
    assert.ok(!isCommitHash(HASH.toUpperCase()));
    assert.ok(!isCommitHash(`${HASH}w`.slice(1).replace(/.$/, 'w')));
  });

  it('formats sizes', () => {
    assert.equal(formatBytes(512), '512 B');
    assert.equal(formatBytes(1536), '1.5 KB');
    assert.equal(formatBytes(50 * 1024 * 1024), '50 MB');
  });
});

describe('node descriptions', () => {
  it('branch: short hash and relative time; tooltip has the full hash', () => {
    const t = describeBranch(aBranch({ head_commit_sha: HASH, last_updated_at: '2026-03-10T11:00:00Z' }), NOW);
    assert.equal(t.label, 'main');
    assert.equal(t.description, 'rmnjb8cj · 1 hour ago');
    assert.deepEqual(t.tooltip.fields[0], ['Head commit', HASH]);
  });

  it('branch without a time shows only the hash', () => {
    assert.equal(describeBranch(aBranch({ name: 'b', head_commit_sha: HASH }), NOW).description, 'rmnjb8cj');
  });

  it('tag: annotated tags show the first line of their message', () => {
    const t = describeTag(aTag({ commit_sha: HASH, message: 'First release\nmore', tagged_at: '2026-03-08T12:00:00Z' }), NOW);
    assert.equal(t.description, 'rmnjb8cj · First release · 2 days ago');
    assert.match(t.tooltip.title, /^Annotated tag v1/);
    assert.equal(t.tooltip.body, 'First release\nmore');
    assert.match(describeTag(aTag({ name: 'v0', commit_sha: HASH }), NOW).tooltip.title, /^Tag v0/);
  });

  it('release: title, tag and commit', () => {
    const r = describeRelease(
      aRelease({
        title: 'One',
        commit_sha: HASH,
        created_at: '2026-03-10T11:00:00Z',
        updated_at: '2026-03-10T11:00:00Z',
        description: '**notes**',
      }),
      NOW,
    );
    assert.equal(r.label, 'One');
    assert.equal(r.description, 'v1 · rmnjb8cj · 1 hour ago');
    assert.equal(r.tooltip.body, '**notes**');
    assert.ok(!r.tooltip.fields.some(([k]) => k === 'Updated'), 'never-edited release shows no Updated');
  });

  it('pull: number, title, state, creator', () => {
    const p = describePull(
      aPullSummary({ pull_number: 7, title: 'Fix prices', state: 'merged', created_at: '2026-03-10T11:00:00Z', creator: 'bob' }),
      NOW,
    );
    assert.equal(p.label, '#7 Fix prices');
    assert.equal(p.description, 'merged · bob · 1 hour ago');
  });

  it('operation: failed ones show the error title and code; fork results name the fork', () => {
    const failed = describeOperation(
      anOperation({
        type: 'merge',
        status: 'failed',
        created_at: '2026-03-10T11:59:00Z',
        error: { status: 409, code: 'CONFLICT', title: 'Merge conflict', detail: 'in prices' },
      }),
      NOW,
    );
    assert.equal(failed.label, 'merge failed');
    assert.equal(failed.description, '1 minute ago · Merge conflict (CONFLICT)');
    assert.equal(failed.tooltip.body, 'in prices');
    const fork = describeOperation(
      anOperation({
        type: 'fork',
        status: 'succeeded',
        created_at: '2026-03-10T11:00:00Z',
        result: { database: { owner: 'bob', name: 'prices' } },
      }),
      NOW,
    );
    assert.match(fork.description ?? '', /created bob\/prices/);
    const unknown = describeOperation(anOperation({ type: 'dolt_ci', created_at: '2026-03-10T11:00:00Z' }), NOW);
    assert.equal(unknown.label, 'dolt_ci running');
  });

  it('database: private, fork of, last write; tooltip has size and network', () => {
    const d = describeDatabase(
      { owner: 'bob', name: 'prices' },
      aDatabase({
        owner: 'bob',
        name: 'prices',
        visibility: 'private',
        fork_network_count: 3,
        size_bytes: 2048,
        parent: { owner: 'alice', name: 'prices' },
        last_write_at: '2026-03-10T11:00:00Z',
      }),
      NOW,
    );
    assert.equal(d.label, 'bob/prices');
    assert.equal(d.description, 'private · fork of alice/prices · 1 hour ago');
    assert.ok(d.tooltip.fields.some(([k, v]) => k === 'Size' && v === '2.0 KB'));
    assert.equal(describeDatabase({ owner: 'a', name: 'b' }, undefined, NOW).description, undefined);
  });
});

describe('a commit row in a narrow side bar (issue #25)', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');
  const commit = (over: Partial<Commit> = {}): Commit => ({
    hash: 'rmnjb8cjc5tblj21ed4qs821649eduie',
    shortHash: 'rmnjb8cj',
    subject: 'Raise the price of every dairy product sold in the northern stores',
    message: 'Raise the price of every dairy product sold in the northern stores\n\nAs agreed.',
    author: 'alice',
    email: 'alice@example.com',
    date: '2026-03-10 09:00:00',
    time: Date.parse('2026-03-10T09:00:00Z'),
    parents: ['p1'],
    isMerge: false,
    ...over,
  });

  it('puts the short hash first, then a compact age and the author, then the subject', () => {
    const t = describeCommit(commit(), now);
    assert.equal(t.label, 'rmnjb8cj');
    assert.equal(t.description, '3h · alice · Raise the price of every dairy product sold in the northern stores');
    assert.equal(t.tooltip.body, commit().message, 'the whole message in the tooltip');
    assert.ok(t.tooltip.fields.some(([k, v]) => k === 'Date' && v.includes('3 hours ago')));
  });

  it('marks merges for a screen reader (the row shows an icon) and names a commit with no message', () => {
    const merge = describeCommit(commit({ isMerge: true, parents: ['a', 'b'], subject: 'Merge' }), now);
    assert.equal(merge.description, '3h · alice · Merge', 'no word ahead of the age and author');
    assert.equal(merge.accessibilityLabel, 'Merge commit rmnjb8cj, 3h · alice · Merge');
    assert.equal(describeCommit(commit(), now).accessibilityLabel, undefined, 'a plain commit reads as shown');
    assert.equal(describeCommit(commit({ subject: '' }), now).description, '3h · alice · (no message)');
  });

  it('compact ages', () => {
    const ago = (s: number): string | undefined => formatShortAge(new Date(now - s * 1000).toISOString(), now);
    assert.deepEqual(
      [ago(10), ago(120), ago(3 * 3600), ago(2 * 86400), ago(14 * 86400), ago(90 * 86400), ago(800 * 86400)],
      ['now', '2m', '3h', '2d', '2w', '3mo', '2y'],
    );
    assert.equal(ago(-600), 'now');
    assert.equal(formatShortAge('not a date', now), undefined);
  });
});
