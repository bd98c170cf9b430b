import { strict as assert } from 'node:assert';
import { webviewCsp } from '../../../src/core/webviewCsp';
import { createMarkdownRenderer } from '../../../src/core/markdown';
import { actionsForState, branchRefLabel, relativeTime, renderPullContent, renderPullDocument } from '../../../src/core/pullPage';
import type { Pull, PullComment } from '../../../src/shared/wire';
import { aPull, aPullComment } from '../../builders/wire';

const db = { owner: 'alice', name: 'inventory' };

function pull(over: Partial<Pull> = {}): Pull {
  return aPull({
    pull_number: 7,
    title: 'Add <b>prices</b>',
    description: 'Adds **prices**. [evil](command:workbench.action.quit)',
    created_at: '2026-11-21T08:00:00Z',
    from_branch: { database: db, branch_name: 'prices' },
    to_branch: { database: db, branch_name: 'main' },
    ...over,
  });
}

function comment(over: Partial<PullComment> = {}): PullComment {
  return aPullComment({
    author: 'carol',
    body: 'Looks good <script>alert(1)</script>',
    created_at: '2026-11-21T09:00:00Z',
    updated_at: '2026-11-21T09:00:00Z',
    ...over,
  });
}

const now = new Date('2026-11-21T10:00:00Z');
const md = createMarkdownRenderer();

describe('pull request page', () => {
  it('shows title, number, state, creator, branches and when it was opened', () => {
    const html = renderPullContent({ db, pull: pull(), comments: [], now }, md);
    assert.match(html, /<span class="pull-title">Add &lt;b&gt;prices&lt;\/b&gt;<\/span>/);
    assert.match(html, /#7/);
    assert.match(html, /class="state state-open">Open</);
    assert.match(html, /<strong class="creator">bob<\/strong>/);
    assert.match(html, /<code class="from-branch">prices<\/code> into <code class="to-branch">main<\/code>/);
    assert.match(html, /Opened <time datetime="2026-11-21T08:00:00Z" title="2026-11-21 08:00 UTC">2 hours ago<\/time>/);
  });

  it('renders the description as markdown with command links refused', () => {
    const html = renderPullContent({ db, pull: pull(), comments: [], now }, md);
    assert.match(html, /<strong>prices<\/strong>/);
    assert.doesNotMatch(html, /href="command:/);
  });

  it('renders comments in order with author, time and sanitized body', () => {
    const html = renderPullContent(
      {
        db,
        pull: pull(),
        comments: [comment(), comment({ comment_id: 'c2', author: 'dave', body: 'Second', updated_at: '2026-11-21T09:30:00Z' })],
        now,
      },
      md,
    );
    assert.match(html, /Comments \(2\)/);
    assert.ok(html.indexOf('carol') < html.indexOf('dave'), 'comments keep backend order');
    assert.doesNotMatch(html, /<script>/);
    assert.match(html, /&lt;script&gt;/);
    assert.match(html, /dave<\/strong> commented <time[^>]*>1 hour ago<\/time> <span class="edited">\(edited\)<\/span>/);
  });

  it('names the fork for a cross-fork pull', () => {
    const fork = { owner: 'bob', name: 'inventory' };
    const p = pull({ from_branch: { database: fork, branch_name: 'fix' } });
    assert.equal(branchRefLabel(p.from_branch, db), 'bob/inventory:fix');
    assert.match(renderPullContent({ db, pull: p, comments: [], now }, md), /bob\/inventory:fix/);
  });

  it('offers merge and close on an open pull, reopen on a closed one, neither on a merged one', () => {
    assert.deepEqual(actionsForState('open'), ['merge', 'close']);
    assert.deepEqual(actionsForState('closed'), ['reopen']);
    assert.deepEqual(actionsForState('merged'), []);
    const merged = renderPullContent({ db, pull: pull({ state: 'merged' }), comments: [], now }, md);
    assert.doesNotMatch(merged, /data-action="merge"/);
    assert.match(merged, /state-merged">Merged/);
    const closed = renderPullContent({ db, pull: pull({ state: 'closed' }), comments: [], now }, md);
    assert.match(closed, /data-action="reopen"/);
    assert.doesNotMatch(closed, /data-action="close"/);
  });

  it('shows an unknown state verbatim without breaking the class attribute', () => {
    const html = renderPullContent({ db, pull: pull({ state: 'draft" onclick="x' }), comments: [], now }, md);
    assert.match(html, /class="state state-unknown">draft&quot; onclick=&quot;x</);
  });

  it('says so when there is no description and no comment', () => {
    const html = renderPullContent({ db, pull: pull({ description: undefined }), comments: [], now }, md);
    assert.match(html, /No description provided/);
    assert.match(html, /No comments yet/);
  });

  it('relative times read naturally', () => {
    assert.equal(relativeTime('2026-11-21T09:59:40Z', now), 'just now');
    assert.equal(relativeTime('2026-11-20T10:00:00Z', now), 'yesterday');
    assert.equal(relativeTime('not a time', now), 'not a time');
  });

  it('the document carries a strict CSP and loads only the nonce-bearing script', () => {
    const doc = renderPullDocument({
      title: 'Pull #7',
      nonce: 'abc123',
      cspSource: 'https://webview.example',
      scriptUri: 'https://webview.example/dist/webview/pull.js',
      contentHtml: '<p>x</p>',
    });
    const csp = webviewCsp('https://webview.example', 'abc123');
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-abc123'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.ok(doc.includes(`content="${csp.replace(/'/g, '&#39;')}"`));
    const scripts = doc.match(/<script[^>]*>/g) ?? [];
    assert.deepEqual(scripts, ['<script nonce="abc123" src="https://webview.example/dist/webview/pull.js">']);
  });

  it('fetches no remote image until the user asks: placeholders, a "Load images" button and a CSP without https images', () => {
    const p = pull({ description: 'Chart: ![sales](https://img.example/sales.png)' });
    const comments = [aPullComment({ body: '![pixel](https://tracker.example/p.gif)' })];
    const blocked = renderPullContent({ db, pull: p, comments, now }, md);
    assert.doesNotMatch(blocked, /<img/);
    // The URLs appear only as text in the edit box, never in an attribute a browser fetches.
    assert.doesNotMatch(blocked, /(src|href|srcset)="https:\/\/(img|tracker)\.example/);
    assert.doesNotMatch(blocked.replace(/<textarea[\s\S]*?<\/textarea>/g, ''), /https:\/\/(img|tracker)\.example/);
    assert.match(blocked, /\[sales · img\.example\]/);
    assert.match(blocked, /\[pixel · tracker\.example\]/);
    assert.match(blocked, /<button type="button" data-action="loadImages"[^>]*>Load images<\/button>/);
    const cspBlocked = webviewCsp('https://webview.example', 'n');
    assert.match(cspBlocked, /img-src https:\/\/webview\.example(;|$)/);
    assert.doesNotMatch(cspBlocked, /img-src[^;]* https:(;|$| )/);
    const doc = renderPullDocument({
      title: 't',
      nonce: 'n',
      cspSource: 'https://webview.example',
      scriptUri: 'https://webview.example/p.js',
      contentHtml: blocked,
    });
    assert.ok(doc.includes('img-src https://webview.example;'));

    const loaded = renderPullContent({ db, pull: p, comments, now, images: 'loaded' }, md);
    assert.match(loaded, /<img src="https:\/\/img\.example\/sales\.png" alt="sales">/);
    assert.match(loaded, /<img src="https:\/\/tracker\.example\/p\.gif" alt="pixel">/);
    assert.doesNotMatch(loaded, /data-action="loadImages"/);
    assert.match(webviewCsp('https://webview.example', 'n', 'loaded'), /img-src https:\/\/webview\.example https:;/);
    // No images, no button.
    assert.doesNotMatch(renderPullContent({ db, pull: pull({ description: 'plain' }), comments: [], now }, md), /loadImages/);
  });
});
