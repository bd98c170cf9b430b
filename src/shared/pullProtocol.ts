// Messages between the pull request webview (src/webview/pull.ts) and its host
// (src/views/pullPanel.ts). The webview is untrusted territory — it renders other people's
// markdown — so the host accepts only messages that parse here and ignores everything else.

/**
 * `loadImages`: the user asked to load the remote images of this view (see remoteImages.ts).
 * `settleConflicts`: the primary action of a pull whose merge preview conflicts.
 */
export type PullAction = 'merge' | 'close' | 'reopen' | 'refresh' | 'openOnWeb' | 'loadImages' | 'settleConflicts';

export const PULL_ACTIONS: readonly PullAction[] = ['merge', 'close', 'reopen', 'refresh', 'openOnWeb', 'loadImages', 'settleConflicts'];

/** Webview → host. */
export type PullWebviewMessage =
  /** The script has loaded and listens: the host (re)sends the current content. */
  | { type: 'ready' }
  /** The view got the focus (the user came back to it): the host looks whether the pull's branch moved. */
  | { type: 'focused' }
  | { type: 'action'; action: PullAction }
  | { type: 'comment'; body: string }
  | { type: 'edit'; title: string; description: string }
  // The Changes section (src/views/pullChanges.ts): open a table's diff ('' = every table), mark it viewed.
  | { type: 'changes.open'; table: string }
  | { type: 'changes.viewed'; table: string; viewed: boolean }
  // The Commits section (src/views/pullCommits.ts): open one of the pull's commits in the Changes view.
  | { type: 'commits.open'; commit: string }
  // The Row comments section (src/views/pullThreads.ts): reply on the thread started by this comment.
  | { type: 'threads.reply'; rootId: string }
  // Apply Suggestion: the suggested value of this comment, committed onto the pull's branch.
  | { type: 'threads.apply'; commentId: string }
  // Since your last review (src/views/pullCommits.ts): remember the head as reviewed, or show what changed since.
  | { type: 'review.mark' }
  | { type: 'review.since' };

/** Host → webview. */
export type PullHostMessage =
  /** New inner HTML for the content area (already sanitized by the host). */
  | { type: 'update'; html: string }
  /** An action is running (buttons disabled) or finished. */
  | { type: 'busy'; busy: boolean }
  /** The comment was posted: clear the box. */
  | { type: 'commented' }
  /** The edit was saved: close the edit form. */
  | { type: 'edited' }
  /** New inner HTML (sanitized by the host) for the element with this id (the Changes section). */
  | { type: 'section'; id: string; html: string };

/** Longest comment, title or description the host forwards; beyond that it is not a typo. */
export const MAX_TEXT_LENGTH = 65_536;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Validates a message posted by the webview; undefined for anything malformed. */
export function parsePullWebviewMessage(raw: unknown): PullWebviewMessage | undefined {
  if (!isRecord(raw)) return undefined;
  switch (raw['type']) {
    case 'ready':
    case 'focused':
      return { type: raw['type'] };
    case 'action': {
      const action = raw['action'];
      return typeof action === 'string' && (PULL_ACTIONS as readonly string[]).includes(action)
        ? { type: 'action', action: action as PullAction }
        : undefined;
    }
    case 'comment': {
      const body = raw['body'];
      if (typeof body !== 'string' || body.length > MAX_TEXT_LENGTH) return undefined;
      return { type: 'comment', body };
    }
    case 'edit': {
      const title = raw['title'];
      const description = raw['description'];
      if (typeof title !== 'string' || typeof description !== 'string') return undefined;
      if (title.length > MAX_TEXT_LENGTH || description.length > MAX_TEXT_LENGTH) return undefined;
      return { type: 'edit', title, description };
    }
    case 'changes.open': {
      const table = raw['table'];
      return typeof table === 'string' && table.length <= 1024 ? { type: 'changes.open', table } : undefined;
    }
    case 'changes.viewed': {
      const table = raw['table'];
      const viewed = raw['viewed'];
      return typeof table === 'string' && table !== '' && table.length <= 1024 && typeof viewed === 'boolean'
        ? { type: 'changes.viewed', table, viewed }
        : undefined;
    }
    case 'commits.open': {
      const commit = raw['commit'];
      return typeof commit === 'string' && /^[0-9a-v]{32}$/.test(commit) ? { type: 'commits.open', commit } : undefined;
    }
    case 'review.mark':
    case 'review.since':
      return { type: raw['type'] };
    case 'threads.reply': {
      const rootId = raw['rootId'];
      return typeof rootId === 'string' && rootId !== '' && rootId.length <= 256 ? { type: 'threads.reply', rootId } : undefined;
    }
    case 'threads.apply': {
      const commentId = raw['commentId'];
      return typeof commentId === 'string' && commentId !== '' && commentId.length <= 256
        ? { type: 'threads.apply', commentId }
        : undefined;
    }
    default:
      return undefined;
  }
}
