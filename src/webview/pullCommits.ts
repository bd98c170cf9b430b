import type { PullWebviewMessage } from '../shared/pullProtocol';

// The pull view's Commits section in the browser: a commit's hash opens its changes. The host
// renders the section (escaped HTML) and checks the hash is one of the pull's commits.

export function bindPullCommits(post: (m: PullWebviewMessage) => void): void {
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLButtonElement>('button[data-commit-open]') : null;
    const commit = button?.dataset['commitOpen'];
    if (commit) post({ type: 'commits.open', commit });
  });
}
