// The pull view's Commits section (issue #25): commit rows escaped and in the order given, and the
// "since your last review" line for a reviewer who never reviewed, is up to date, is behind by N
// commits, or reviewed a head the branch no longer has.
import { strict as assert } from 'node:assert';
import { renderHeadMovedNotice, renderPullCommitsSection, renderReviewLine } from '../../../src/core/pullCommitsPage';
import type { PullCommits } from '../../../src/core/review/pullCommits';
import type { Commit } from '../../../src/core/review/commitLog';

const h = (c: string): string => c.repeat(32);
const commit = (hash: string, subject: string): Commit => ({
  hash,
  shortHash: hash.slice(0, 8),
  subject,
  message: subject,
  author: 'bob <b>',
  email: '',
  date: '2026-03-10 09:00:00',
  time: Date.parse('2026-03-10T09:00:00Z'),
  parents: [],
  isMerge: false,
});
const loaded = (hashes: string[]): PullCommits => ({
  pinned: { pair: { kind: 'twoDot', from: h('0'), to: hashes[0]! }, readInFork: false },
  readIn: { owner: 'alice', name: 'prices' },
  commits: hashes.map((x, i) => commit(x, i === 0 ? '<img src=x onerror=alert(1)>' : `c${i}`)),
  more: false,
  completeness: { complete: true },
});

describe('the pull view Commits section', () => {
  const l = loaded([h('c'), h('b'), h('a')]);

  it('lists the commits in order, server text escaped', () => {
    const html = renderPullCommitsSection(l, new Date('2026-03-10T12:00:00Z'));
    assert.deepEqual(
      [...html.matchAll(/data-commit="([^"]+)"/g)].map((m) => m[1]),
      [h('c'), h('b'), h('a')],
    );
    assert.ok(!html.includes('<img') && html.includes('&lt;img src=x'), 'a subject is text');
    assert.ok(html.includes('bob &lt;b&gt;'));
  });

  it('says where the reviewer stands', () => {
    assert.equal(renderReviewLine(l, undefined), '', 'no account: no line');
    assert.match(renderReviewLine(l, { reviewed: undefined }), /data-review-state="never"/);
    assert.match(renderReviewLine(l, { reviewed: h('c') }), /data-review-state="current"/);
    const behind = renderReviewLine(l, { reviewed: h('a') });
    assert.match(behind, /data-new-commits="2"/);
    assert.match(behind, /2 new commits since your last review at <code>aaaaaaaa<\/code>/);
    assert.match(behind, /data-review="since"/);
    const rewritten = renderReviewLine(l, { reviewed: h('z') });
    assert.match(rewritten, /The branch changed since your last review/);
    assert.match(rewritten, /data-new-commits=""/);
  });

  it('the moved notice names the branch and both heads', () => {
    const html = renderHeadMovedNotice('feature <x>', h('a'), h('b'));
    assert.match(html, /feature &lt;x&gt; moved on: it is at <code>bbbbbbbb<\/code>, this view shows <code>aaaaaaaa<\/code>/);
    assert.match(html, /data-action="refresh"/);
  });
});
