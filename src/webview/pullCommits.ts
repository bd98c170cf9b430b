import type { PullWebviewMessage } from '../shared/pullProtocol';

// The pull view's Commits and Row comments sections in the browser: a commit's hash opens its
// changes, a thread's Reply asks for a reply. The host renders both sections (escaped HTML) and
// checks what the messages name.

export function bindPullCommits(post: (m: PullWebviewMessage) => void): void {
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLButtonElement>('button[data-commit-open]') : null;
    const commit = button?.dataset['commitOpen'];
    if (commit) post({ type: 'commits.open', commit });
    // Reply on a row comment thread (the Row comments section).
    const reply = event.target instanceof Element ? event.target.closest<HTMLButtonElement>('button[data-thread-reply]') : null;
    const rootId = reply?.dataset['threadReply'];
    if (rootId) post({ type: 'threads.reply', rootId });
    const apply = event.target instanceof Element ? event.target.closest<HTMLButtonElement>('button[data-thread-apply]') : null;
    const commentId = apply?.dataset['threadApply'];
    if (commentId) post({ type: 'threads.apply', commentId });
    const review =
      event.target instanceof Element ? event.target.closest<HTMLButtonElement>('button[data-review]')?.dataset['review'] : undefined;
    if (review === 'mark') post({ type: 'review.mark' });
    else if (review === 'since') post({ type: 'review.since' });
  });
}
