import { PULL_ACTIONS, type PullAction, type PullHostMessage, type PullWebviewMessage } from '../shared/pullProtocol';
import { bindPullChanges, replaceSection } from './pullChanges';
import { bindPullCommits } from './pullCommits';

// The pull request view's only script. It renders nothing itself: the host sends sanitized HTML.
// It turns clicks and form submits into messages, and keeps an unsent comment across reloads.

interface WebviewApi {
  postMessage(message: PullWebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): WebviewApi;

interface SavedState {
  draft?: string;
}

const vscode = acquireVsCodeApi();
const content = document.getElementById('content') as HTMLElement;
const commentForm = document.getElementById('comment-form') as HTMLFormElement;
const commentBody = document.getElementById('comment-body') as HTMLTextAreaElement;

function saved(): SavedState {
  const s = vscode.getState();
  return typeof s === 'object' && s !== null ? (s as SavedState) : {};
}

commentBody.value = saved().draft ?? '';
commentBody.addEventListener('input', () => vscode.setState({ ...saved(), draft: commentBody.value }));

function editForm(): HTMLFormElement | null {
  return content.querySelector<HTMLFormElement>('form.edit-form');
}

function setBusy(busy: boolean): void {
  document.body.classList.toggle('busy', busy);
  for (const b of Array.from(document.querySelectorAll<HTMLButtonElement>('button'))) b.disabled = busy;
}

document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target.closest('button') : null;
  if (!target) return;
  const action = target.dataset['action'];
  if (action !== undefined && (PULL_ACTIONS as readonly string[]).includes(action)) {
    vscode.postMessage({ type: 'action', action: action as PullAction });
  } else if (target.dataset['toggle'] === 'edit') {
    const form = editForm();
    if (form) {
      form.hidden = !form.hidden;
      if (!form.hidden) form.querySelector<HTMLInputElement>('input[name=title]')?.focus();
    }
  }
});

document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  event.preventDefault();
  if (form === commentForm) {
    const body = commentBody.value;
    if (body.trim()) vscode.postMessage({ type: 'comment', body });
  } else if (form.classList.contains('edit-form')) {
    const title = form.querySelector<HTMLInputElement>('input[name=title]')?.value ?? '';
    const description = form.querySelector<HTMLTextAreaElement>('textarea[name=description]')?.value ?? '';
    vscode.postMessage({ type: 'edit', title, description });
  }
});

// Ctrl/Cmd+Enter posts the comment, as in other editors' comment boxes.
commentBody.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    commentForm.requestSubmit();
  }
});

window.addEventListener('message', (event: MessageEvent<PullHostMessage>) => {
  const msg = event.data;
  switch (msg?.type) {
    case 'update':
      content.innerHTML = msg.html;
      break;
    case 'busy':
      setBusy(msg.busy);
      break;
    case 'commented':
      commentBody.value = '';
      vscode.setState({ ...saved(), draft: '' });
      break;
    case 'edited': {
      const form = editForm();
      if (form) form.hidden = true;
      break;
    }
    case 'section':
      replaceSection(msg.id, msg.html);
      break;
    default:
      break;
  }
});

bindPullChanges((m) => vscode.postMessage(m));
bindPullCommits((m) => vscode.postMessage(m));
// Back from the side bar the view stays the active editor (no view state change): say so here.
window.addEventListener('focus', () => vscode.postMessage({ type: 'focused' }));
vscode.postMessage({ type: 'ready' });
