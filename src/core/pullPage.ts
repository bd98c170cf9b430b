import type { BranchRef, DatabaseRef, Pull, PullComment, PullState } from '../shared/wire';
import { webviewCsp } from './webviewCsp';
import type { MarkdownRenderer } from './markdown';
import type { RemoteImages } from './remoteImages';
import { LOAD_IMAGES_NOTICE, imageEnv } from './remoteImages';
import { formatRelativeTime } from './relativeTime';
import * as l10n from '../shared/l10n';

// The HTML of the pull request webview, built in the host from API data. Every string from the
// server goes through escapeHtml or the sanitizing markdown renderer; nothing is trusted.

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

export function sameDatabase(a: DatabaseRef, b: DatabaseRef): boolean {
  return a.owner === b.owner && a.name === b.name;
}

/** `branch` for a branch of `home`, `owner/name:branch` for a branch of another database (a fork). */
export function branchRefLabel(ref: BranchRef, home: DatabaseRef): string {
  return sameDatabase(ref.database, home) ? ref.branch_name : `${ref.database.owner}/${ref.database.name}:${ref.branch_name}`;
}

export function pullStateLabel(state: PullState): string {
  switch (state) {
    case 'open':
      return 'Open';
    case 'closed':
      return 'Closed';
    case 'merged':
      return 'Merged';
    default:
      // Unknown states are shown as the server sent them (enums are open).
      return state;
  }
}

/** Which actions a pull in this state offers; unknown states offer none but refresh. */
export function actionsForState(state: PullState): readonly ('merge' | 'close' | 'reopen')[] {
  switch (state) {
    case 'open':
      return ['merge', 'close'];
    case 'closed':
      return ['reopen'];
    default:
      return [];
  }
}

/** "3 hours ago", "just now"; the server's timestamps against the caller's clock (one formatter
 * for the tree and the pull view, so both say the same about the same moment). */
export function relativeTime(iso: string, now: Date): string {
  return formatRelativeTime(iso, now.getTime()) ?? iso;
}

/** "2026-11-21 10:58 UTC" — unambiguous for a reader in any time zone. */
export function absoluteTime(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function timeHtml(iso: string, now: Date): string {
  return `<time datetime="${escapeHtml(iso)}" title="${escapeHtml(absoluteTime(iso))}">${escapeHtml(relativeTime(iso, now))}</time>`;
}

export interface PullPageInput {
  /** The database the pull belongs to (its `to_branch` database). */
  db: DatabaseRef;
  pull: Pull;
  comments: readonly PullComment[];
  now: Date;
  /** Present when the host has a web page for this pull. */
  webUrl?: string;
  /** Remote images stay placeholders until the user presses "Load images" (default blocked). */
  images?: RemoteImages;
}

/** Getters: each text is translated when read, not when this module loads. */
const ACTION_LABELS: Record<string, string> = {
  get merge() {
    return l10n.t('Merge');
  },
  get close() {
    return l10n.t('Close');
  },
  get reopen() {
    return l10n.t('Reopen');
  },
};

/** The inner HTML of the view's content area; re-rendered after every action. */
export function renderPullContent(input: PullPageInput, md: MarkdownRenderer): string {
  const { pull, db, now } = input;
  const stateClass = `state state-${/^[a-z_]+$/.test(pull.state) ? pull.state : 'unknown'}`;
  const from = branchRefLabel(pull.from_branch, db);
  const to = branchRefLabel(pull.to_branch, db);
  const env = imageEnv(input.images ?? 'blocked');
  const description = pull.description?.trim()
    ? md.render(pull.description, env)
    : `<p class="empty">${l10n.tHtml('No description provided.')}</p>`;

  const buttons = [
    ...actionsForState(pull.state).map(
      // Merge and reopen move the pull forward; close is the quieter, secondary action.
      (a) => `<button type="button" data-action="${a}"${a === 'close' ? ' class="secondary"' : ''}>${ACTION_LABELS[a]}</button>`,
    ),
    `<button type="button" data-toggle="edit" class="secondary">${l10n.tHtml('Edit')}</button>`,
    `<button type="button" data-action="refresh" class="secondary">${l10n.tHtml('Refresh')}</button>`,
    input.webUrl ? `<button type="button" data-action="openOnWeb" class="secondary">${l10n.tHtml('Open on Web')}</button>` : '',
  ].join('');

  const comments = input.comments.length
    ? input.comments
        .map((c) => {
          const edited = c.updated_at !== c.created_at ? ` <span class="edited">${l10n.tHtml('(edited)')}</span>` : '';
          return (
            `<article class="comment" data-comment-id="${escapeHtml(c.comment_id)}">` +
            `<div class="comment-head"><strong>${escapeHtml(c.author)}</strong> ${l10n.tHtml('commented {0}{1}', timeHtml(c.created_at, now), edited)}</div>` +
            `<div class="comment-body markdown">${md.render(c.body, env)}</div></article>`
          );
        })
        .join('')
    : `<p class="empty">${l10n.tHtml('No comments yet.')}</p>`;
  const notice =
    env.blocked > 0
      ? `<div class="image-notice"><span>${escapeHtml(LOAD_IMAGES_NOTICE())}</span><button type="button" data-action="loadImages" class="secondary">${l10n.tHtml('Load images')}</button></div>`
      : '';

  return [
    `<header>`,
    `<h1><span class="pull-title">${escapeHtml(pull.title)}</span> <span class="pull-number">#${pull.pull_number}</span></h1>`,
    `<p class="meta"><span class="${stateClass}">${escapeHtml(pullStateLabel(pull.state))}</span> `,
    `<strong class="creator">${escapeHtml(pull.creator)}</strong> ${l10n.tHtml('wants to merge')} `,
    `<code class="from-branch">${escapeHtml(from)}</code> ${l10n.tHtml('into')} <code class="to-branch">${escapeHtml(to)}</code>`,
    ` ${l10n.tHtml('in')} <span class="database">${escapeHtml(db.owner)}/${escapeHtml(db.name)}</span></p>`,
    `<p class="times">${l10n.tHtml('Opened {0}', timeHtml(pull.created_at, now))}</p>`,
    `</header>`,
    `<div class="actions">${buttons}</div>`,
    notice,
    `<form class="edit-form" hidden>`,
    `<label>${l10n.tHtml('Title')} <input name="title" type="text" required value="${escapeHtml(pull.title)}"></label>`,
    `<label>${l10n.tHtml('Description')} <textarea name="description" rows="6">${escapeHtml(pull.description ?? '')}</textarea></label>`,
    `<div class="form-buttons"><button type="submit">${l10n.tHtml('Save')}</button><button type="button" data-toggle="edit" class="secondary">${l10n.tHtml('Cancel')}</button></div>`,
    `</form>`,
    `<section class="description markdown">${description}</section>`,
    `<section class="comments"><h2>${l10n.tHtml('Comments ({0})', input.comments.length)}</h2>${comments}</section>`,
  ].join('');
}

export interface PullDocumentInput {
  title: string;
  /** A fresh random value per render; the only script and style allowed carry it. */
  nonce: string;
  /** `webview.cspSource`. */
  cspSource: string;
  /** The webview URI of dist/webview/pull.js. */
  scriptUri: string;
  contentHtml: string;
  /** Whether the user asked to load remote images in this view (default blocked). */
  images?: RemoteImages;
  /** Styles of the review sections (our own constants, never server text). */
  extraStyle?: string;
}

const STYLE = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 0 20px 20px; max-width: 900px; }
h1 { font-size: 1.5em; margin: 0.8em 0 0.3em; }
.pull-number { color: var(--vscode-descriptionForeground); font-weight: normal; }
.meta, .times { margin: 0.3em 0; }
.times, .comment-head, .empty, .edited { color: var(--vscode-descriptionForeground); }
.state { display: inline-block; padding: 1px 8px; border-radius: 10px; font-weight: 600; color: var(--vscode-badge-foreground); background: var(--vscode-badge-background); }
.state-open { background: var(--vscode-charts-green, #388a34); color: #fff; }
.state-merged { background: var(--vscode-charts-purple, #8250df); color: #fff; }
.state-closed { background: var(--vscode-charts-red, #c33); color: #fff; }
.actions, .form-buttons { display: flex; gap: 8px; margin: 12px 0; flex-wrap: wrap; }
button { font: inherit; padding: 4px 12px; border: 1px solid var(--vscode-button-border, transparent); color: var(--vscode-button-foreground); background: var(--vscode-button-background); cursor: pointer; }
button:hover { background: var(--vscode-button-hoverBackground); }
button.secondary { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
button:disabled { opacity: 0.5; cursor: default; }
section { border-top: 1px solid var(--vscode-panel-border, #8884); padding-top: 8px; margin-top: 12px; }
h2 { font-size: 1.1em; }
.comment { border: 1px solid var(--vscode-panel-border, #8884); border-radius: 4px; margin: 10px 0; }
.comment-head { padding: 6px 10px; background: var(--vscode-sideBarSectionHeader-background, #8881); }
.comment-body { padding: 0 10px; }
.markdown code, code { font-family: var(--vscode-editor-font-family); }
.markdown pre { background: var(--vscode-textCodeBlock-background); padding: 8px; overflow: auto; }
.markdown img { max-width: 100%; }
.remote-image { color: var(--vscode-descriptionForeground); font-style: italic; }
.image-notice { display: flex; gap: 8px; align-items: center; padding: 6px 10px; margin: 8px 0; background: var(--vscode-editorWidget-background, #8881); border: 1px solid var(--vscode-panel-border, #8884); }
label { display: block; margin: 8px 0; }
input[type=text], textarea { display: block; width: 100%; box-sizing: border-box; font: inherit; color: var(--vscode-input-foreground); background: var(--vscode-input-background); border: 1px solid var(--vscode-input-border, #8884); padding: 4px; }
textarea { font-family: var(--vscode-editor-font-family); }
.busy { opacity: 0.6; }
.error { color: var(--vscode-errorForeground); }
`;

/** The whole webview document: CSP, style, content and the new-comment box. */
export function renderPullDocument(input: PullDocumentInput): string {
  const { nonce } = input;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(webviewCsp(input.cspSource, nonce, input.images))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(input.title)}</title>
<style nonce="${escapeHtml(nonce)}">${STYLE}${input.extraStyle ?? ''}</style>
</head>
<body>
<main id="content">${input.contentHtml}</main>
<section class="new-comment">
<h2>${l10n.tHtml('Add a comment')}</h2>
<form id="comment-form">
<textarea id="comment-body" name="body" rows="5" placeholder="${l10n.tHtml('Leave a comment (markdown)')}" aria-label="${l10n.tHtml('Comment')}"></textarea>
<div class="form-buttons"><button type="submit" id="comment-submit">${l10n.tHtml('Comment')}</button></div>
</form>
</section>
<script nonce="${escapeHtml(nonce)}" src="${escapeHtml(input.scriptUri)}"></script>
</body>
</html>`;
}
