// Webview script of the SQL result panel (dist/resultPanel.js): the same grid as the notebook,
// for queries run from a plain .sql editor. Talks to the host through acquireVsCodeApi.
import type { GridToHostMessage, HostToGridMessage } from '../shared/queryResultOutput';
import type { GridPagingMessage, HostPagingMessage } from '../shared/gridPaging';
import type { GridEditMessage, HostEditMessage } from '../shared/editProtocol';
import { ResultGrid } from './resultGrid';
import type { GridContent } from './gridOutput';
import * as l10n from '../shared/l10n';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };

const vscode = acquireVsCodeApi();
// The host's l10n bundle (WebviewHost writes it into <body data-l10n>), before any text is made.
l10n.useBundleJson(document.body.dataset['l10n']);
const post = (m: GridToHostMessage | GridPagingMessage | GridEditMessage): void => vscode.postMessage(m);
const root = document.getElementById('root') as HTMLElement;
const nonce = document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce ?? '';
let grid: ResultGrid | undefined;

function status(text: string): void {
  const p = document.createElement('div');
  p.className = 'vdb-empty';
  p.textContent = text;
  root.replaceChildren(p);
}

window.addEventListener('message', (event: MessageEvent<HostToGridMessage | HostPagingMessage | HostEditMessage>) => {
  const m = event.data;
  switch (m.type) {
    case 'running':
      grid?.dispose();
      grid = undefined;
      status(`Running at ${m.target.owner}/${m.target.name} @ ${m.target.ref}…`);
      break;
    case 'show':
      show(m.output);
      break;
    case 'exported':
      grid?.announce(l10n.t('Saved to {0}', m.path));
      break;
    case 'copied':
      grid?.announce(l10n.t('Copied {0} rows', m.rows));
      break;
    case 'paged.show':
      // A table browser or a diff opens straight on a paged source.
      if (!grid) show(m.output);
      else grid.receive(m);
      break;
    default:
      // Paging: pages, totals, resets, Load All Rows, the ref moving; editing: the change set's overlay.
      grid?.receive(m);
  }
});

function show(output: GridContent): void {
  grid?.dispose();
  root.replaceChildren();
  grid = new ResultGrid(
    output,
    {
      copy: (text, format, rows) => post({ type: 'copy', text, format, rows }),
      export: (format, content, suggestedName, rows) => post({ type: 'export', format, content, suggestedName, rows }),
      post,
    },
    root,
    { maxHeight: Math.max(200, window.innerHeight - 120), nonce },
  );
  focusGridIfIdle();
}

/**
 * The keyboard lands on the grid when the panel gets the focus with nothing inside focused (it
 * opened, or the user came back to its tab), as an editor puts the cursor in its text: arrows
 * move at once, no Tab hunting past the toolbar.
 */
function focusGridIfIdle(): void {
  if (!document.hasFocus()) return;
  if (document.activeElement && document.activeElement !== document.body) return;
  root.querySelector<HTMLElement>('.vdb-grid')?.focus({ preventScroll: true });
}
window.addEventListener('focus', () => {
  focusGridIfIdle();
  post({ type: 'focused' });
});
post({ type: 'ready' });
