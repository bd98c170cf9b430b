// The pull view's Row comments section with suggested values (issue #25): the value shown literally
// (escaped, NULL and empty text in words), Apply Suggestion only while no reply records it applied
// and only when applying is possible, and the applied commit named once it is.
import { strict as assert } from 'node:assert';
import { renderThreadsSection } from '../../../src/core/pullThreadsPage';
import { splitThreads } from '../../../src/core/review/rowThreads';
import { anchoredBody, type CommentAnchor } from '../../../src/core/review/commentAnchor';
import { createMarkdownRenderer } from '../../../src/core/markdown';
import { aPullComment } from '../../builders/wire';

const HEAD = '0123456789abcdefghijklmnopqrstuv';
const LATER = 'vutsrqponmlkjihgfedcba9876543210';

describe('the Row comments section with suggested values', () => {
  const md = createMarkdownRenderer();
  const a = (o: Partial<CommentAnchor>): CommentAnchor => ({ table: 't', key: { id: '1' }, column: 'name', commit: HEAD, ...o });
  const render = (bodies: [string, string][], canApply = true): string =>
    renderThreadsSection(
      splitThreads(bodies.map(([id, body]) => aPullComment({ comment_id: id, body }))).threads,
      new Map(),
      md,
      new Date('2026-11-22T00:00:00Z'),
      canApply,
    );

  it('shows the value as text with Apply Suggestion, and never as markup', () => {
    const html = render([['c1', anchoredBody(a({ suggestion: { value: '<img src=x onerror=alert(1)> **b**' } }), 'Try.')]]);
    assert.match(html, /<pre class="suggested-value">&lt;img src=x onerror=alert\(1\)&gt; \*\*b\*\*<\/pre>/);
    assert.ok(!html.includes('<img'), html);
    assert.match(html, /<button type="button" data-thread-apply="c1">Apply Suggestion<\/button>/);
    assert.ok(!render([['c1', anchoredBody(a({ suggestion: { value: 'x' } }), 'Try.')]], false).includes('data-thread-apply'));
  });

  it('NULL and empty text in words', () => {
    assert.match(render([['c1', anchoredBody(a({ suggestion: { value: null } }), '')]]), /Suggested value:<\/span> <em>NULL<\/em>/);
    assert.match(render([['c1', anchoredBody(a({ suggestion: { value: '' } }), '')]]), /Suggested value:<\/span> <em>empty text<\/em>/);
  });

  it('once a reply records it applied: the commit instead of the button', () => {
    const html = render([
      ['c1', anchoredBody(a({ suggestion: { value: 'x' } }), 'Try.')],
      ['c2', anchoredBody(a({ commit: LATER, replyTo: 'c1', applied: 'c1' }), 'Applied.')],
    ]);
    assert.ok(!html.includes('data-thread-apply'), html);
    assert.match(html, new RegExp(`data-suggestion-applied="${LATER}">applied in <code>${LATER.slice(0, 7)}`));
  });
});
