// The pull view's Commits section and its "the branch moved" notice (issue #25), as HTML. Pure:
// server text (messages, names) is escaped here; the view only inserts it.
import { escapeHtml, relativeTime, absoluteTime } from './pullPage';
import type { PullCommits } from './review/pullCommits';
import { SHORT_HASH_LENGTH } from './commitHash';
import * as l10n from '../shared/l10n';

/** Where the reviewer stands: the head they last marked reviewed, if any (per pull and account). */
export type ReviewMark = { reviewed: string } | { reviewed: undefined };

/** "Since your last review": how many of the pull's commits are newer than the head last reviewed, with the actions. */
export function renderReviewLine(loaded: PullCommits, mark: ReviewMark | undefined): string {
  if (!mark) return '';
  const head = loaded.pinned.pair.to;
  const markButton = `<button type="button" class="secondary" data-review="mark">${l10n.tHtml('Mark as Reviewed')}</button>`;
  if (mark.reviewed === undefined)
    return `<p class="review-line" data-review-state="never">${l10n.tHtml('You have not reviewed this pull yet. {0}', markButton)}</p>`;
  if (mark.reviewed === head)
    return `<p class="review-line" data-review-state="current">${l10n.tHtml('You reviewed the head this view shows.')}</p>`;
  const at = loaded.commits.findIndex((c) => c.hash === mark.reviewed);
  const since =
    at > 0
      ? `${at} new ${at === 1 ? 'commit' : 'commits'} since your last review at <code>${escapeHtml(mark.reviewed.slice(0, SHORT_HASH_LENGTH))}</code>.`
      : `The branch changed since your last review at <code>${escapeHtml(mark.reviewed.slice(0, SHORT_HASH_LENGTH))}</code>.`;
  return (
    `<p class="review-line" data-review-state="behind" data-new-commits="${at > 0 ? at : ''}">${since} ` +
    `<button type="button" data-review="since">${l10n.tHtml('Changes Since Last Review')}</button> ${markButton}</p>`
  );
}

/** The section's inner HTML: one row per commit, newest first, each opening its changes. */
export function renderPullCommitsSection(loaded: PullCommits, now: Date, mark?: ReviewMark): string {
  const { commits } = loaded;
  if (commits.length === 0)
    return `<h2>${l10n.tHtml('Commits')}</h2><p class="empty">${l10n.tHtml('The pull has no commits of its own.')}</p>`;
  const rows = commits
    .map((c) => {
      const when = c.time !== undefined ? new Date(c.time).toISOString() : '';
      const time = when
        ? `<time datetime="${escapeHtml(when)}" title="${escapeHtml(absoluteTime(when))}">${escapeHtml(relativeTime(when, now))}</time>`
        : '';
      const merge = c.isMerge ? ` <span class="label">${l10n.tHtml('merge')}</span>` : '';
      return (
        `<li class="pull-commit" data-commit="${escapeHtml(c.hash)}">` +
        `<button type="button" class="link" data-commit-open="${escapeHtml(c.hash)}" title="${l10n.tHtml('Show the changes of {0}', escapeHtml(c.shortHash))}"><code>${escapeHtml(c.shortHash)}</code></button> ` +
        `<span class="subject">${escapeHtml(c.subject || '(no message)')}</span>${merge} ` +
        `<span class="muted">${escapeHtml(c.author)} ${time}</span></li>`
      );
    })
    .join('');
  const more = loaded.more ? `<p class="muted">${l10n.tHtml('Showing the newest {0} commits.', commits.length)}</p>` : '';
  const partial = loaded.completeness.complete
    ? ''
    : `<p class="warning" role="status">${l10n.tHtml('The server sent only part of the list.')}</p>`;
  return `<h2>${l10n.tHtml('Commits')} <span class="muted" data-commit-count="">${commits.length}${loaded.more ? '+' : ''}</span></h2>${renderReviewLine(loaded, mark)}${partial}<ol class="pull-commits">${rows}</ol>${more}`;
}

/** The notice shown when the from-branch points at another commit than the view shows. */
export function renderHeadMovedNotice(branch: string, shown: string, now: string): string {
  const short = (h: string): string => escapeHtml(h.slice(0, SHORT_HASH_LENGTH));
  return (
    `<div class="head-moved" role="status" data-head="${escapeHtml(now)}"><span>${l10n.tHtml('{0} moved on: it is at', escapeHtml(branch))} <code>${short(now)}</code>, ` +
    `${l10n.tHtml('this view shows')} <code>${short(shown)}</code>${l10n.tHtml('. Counts, Viewed marks and commits are as of')} <code>${short(shown)}</code>.</span> ` +
    `<button type="button" data-action="refresh">${l10n.tHtml('Refresh')}</button></div>`
  );
}

/** Styles of the Commits section and the notice (our own constants). */
export const PULL_COMMITS_STYLE = `
.pull-commits { list-style: none; padding: 0; margin: 0; }
.pull-commit { padding: 3px 0; display: flex; gap: 6px; align-items: baseline; flex-wrap: wrap; }
.pull-commit .subject { flex: 1 1 auto; }
.pull-commits button.link { background: none; border: none; padding: 0; color: var(--vscode-textLink-foreground); }
.head-moved { display: flex; gap: 8px; align-items: center; padding: 6px 10px; margin: 8px 0; background: var(--vscode-inputValidation-warningBackground, #8881); border: 1px solid var(--vscode-inputValidation-warningBorder, #8884); }
`;
