import type { ResolveHostMessage, ResolveWebviewMessage } from '../shared/resolveProtocol';

// The Resolve view's only script: the host sends sanitized HTML; clicks and typed values become
// messages. A typed value is sent when the field changes (Enter or leaving it).

interface WebviewApi {
  postMessage(message: ResolveWebviewMessage): void;
}
declare function acquireVsCodeApi(): WebviewApi;

const vscode = acquireVsCodeApi();
const content = document.getElementById('content') as HTMLElement;

function cellOf(el: HTMLElement): { table: string; row: string; column: string } | undefined {
  const { table, row, column } = el.dataset;
  return table !== undefined && row !== undefined && column !== undefined ? { table, row, column } : undefined;
}

document.addEventListener('click', (event) => {
  const b = event.target instanceof Element ? event.target.closest('button') : null;
  if (!b) return;
  const pick = b.dataset['pick'];
  const side = b.dataset['side'];
  const cell = cellOf(b);
  if ((pick === 'ours' || pick === 'theirs') && cell) vscode.postMessage({ type: 'pick', ...cell, side: pick });
  else if ((side === 'ours' || side === 'theirs') && b.dataset['table'] !== undefined) {
    const row = b.dataset['row'];
    vscode.postMessage({ type: 'side', table: b.dataset['table'], side, ...(row !== undefined ? { row } : {}) });
  } else if (b.dataset['action'] === 'apply') vscode.postMessage({ type: 'apply' });
});

document.addEventListener('change', (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || !input.classList.contains('typed')) return;
  const cell = cellOf(input);
  // "NULL" typed on its own is SQL's NULL, as in the grid.
  if (cell) vscode.postMessage({ type: 'typed', ...cell, value: input.value === 'NULL' ? null : input.value });
});

window.addEventListener('message', (event: MessageEvent<ResolveHostMessage>) => {
  const msg = event.data;
  if (msg?.type === 'update') content.innerHTML = msg.html;
  else if (msg?.type === 'busy') {
    document.body.classList.toggle('busy', msg.busy);
    for (const b of Array.from(document.querySelectorAll<HTMLButtonElement>('button'))) b.disabled = msg.busy;
  }
});

vscode.postMessage({ type: 'ready' });
