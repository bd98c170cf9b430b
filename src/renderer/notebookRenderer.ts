// Notebook renderer entry (dist/renderer.js, ESM, loaded by VS Code into the notebook
// webview for outputs of QUERY_RESULT_MIME). Declares the few renderer API types it uses
// instead of depending on the vscode-notebook-renderer package.
import { isQueryOutput, type GridToHostMessage, type HostToGridMessage } from '../shared/queryResultOutput';
import { isPagedOutput, type GridPagingMessage, type HostPagingMessage } from '../shared/gridPaging';
import type { CopyFormat, ExportFormat } from '../shared/queryResultFormat';
import { ResultGrid } from './resultGrid';
import type { GridHost } from './gridOutput';
import * as l10n from '../shared/l10n';
import { isL10nBundleMessage, L10N_REQUEST } from '../shared/l10n';

interface OutputItem {
  readonly id: string;
  readonly mime: string;
  json(): unknown;
  text(): string;
}

interface RendererContext {
  postMessage?(message: unknown): void;
  onDidReceiveMessage?(listener: (e: unknown) => void): { dispose(): void };
}

interface RendererApi {
  renderOutputItem(item: OutputItem, element: HTMLElement, signal?: AbortSignal): void;
  disposeOutputItem?(id?: string): void;
}

/** Clipboard in the webview itself, for when no host messaging is available. */
function copyInPage(text: string): void {
  void navigator.clipboard?.writeText(text).catch(() => undefined);
}

type Post = (m: GridToHostMessage | (GridPagingMessage & { outputId?: string })) => boolean;

/** What one output's grid asks of the host. */
function gridHost(post: Post, messaging: boolean, outputId: string): GridHost {
  return {
    copy(text: string, format: CopyFormat, rows: number) {
      if (!post({ type: 'copy', text, format, rows })) copyInPage(text);
    },
    export(format: ExportFormat, content: string, suggestedName: string, rows: number) {
      post({ type: 'export', format, content, suggestedName, rows });
    },
    // Paging messages carry the output id, so the host can answer the grid that asked.
    post: messaging ? (m: GridPagingMessage) => post({ ...m, outputId }) : undefined,
  };
}

/** A host message to the grids it is for. */
function deliver(grids: Map<string, ResultGrid>, m: HostToGridMessage | (HostPagingMessage & { outputId?: string })): void {
  if (m.type === 'exported') for (const g of grids.values()) g.announce(l10n.t('Saved to {0}', m.path));
  else if (m.type.startsWith('page.') || m.type === 'paged.show' || m.type === 'ref.moved' || m.type === 'loadAll.refused') {
    // Paging answers name the output they belong to (Load All Rows, paged.show) or the source.
    const target = 'outputId' in m && typeof m.outputId === 'string' ? grids.get(m.outputId) : undefined;
    for (const g of target ? [target] : grids.values()) g.receive(m as HostPagingMessage);
  }
}

export function activate(ctx: RendererContext): RendererApi {
  const grids = new Map<string, ResultGrid>();
  const post: Post = (m) => {
    if (!ctx.postMessage) return false;
    ctx.postMessage(m);
    return true;
  };
  // Outputs drawn before a translated bundle came are drawn again (L10nBundleMessage).
  const shown = new Map<string, { item: OutputItem; element: HTMLElement }>();
  ctx.onDidReceiveMessage?.((raw) => {
    if (isL10nBundleMessage(raw)) {
      l10n.useBundle(raw.bundle ?? undefined);
      if (raw.bundle) for (const { item, element } of [...shown.values()]) api.renderOutputItem(item, element);
      return;
    }
    deliver(grids, raw as HostToGridMessage | (HostPagingMessage & { outputId?: string }));
  });
  const hostFor = (outputId: string): GridHost => gridHost(post, Boolean(ctx.postMessage), outputId);
  // A grid that showed a paged source (after Load All Rows) tells the host it is gone when it is
  // re-rendered or disposed, so the host stops serving it; the output itself still holds the
  // first response, and a new render shows that again with Load All Rows.
  const drop = (id: string): void => {
    const g = grids.get(id);
    if (!g) return;
    const sourceId = g.pagedSourceId;
    if (sourceId) post({ type: 'paged.closed', sourceId, outputId: id });
    g.dispose();
    grids.delete(id);
  };
  const api: RendererApi = {
    renderOutputItem(item, element) {
      drop(item.id);
      shown.set(item.id, { item, element });
      element.replaceChildren();
      let data: unknown;
      try {
        data = item.json();
      } catch {
        data = undefined;
      }
      if (!isQueryOutput(data) && !isPagedOutput(data)) {
        const p = element.ownerDocument.createElement('div');
        p.textContent = l10n.t('This output is not a Versioned DB query result (or it was saved by a newer version). Run the cell again.');
        element.appendChild(p);
        return;
      }
      grids.set(item.id, new ResultGrid(data, hostFor(item.id), element));
    },
    disposeOutputItem(id) {
      if (id === undefined) {
        for (const key of [...grids.keys()]) drop(key);
        shown.clear();
        return;
      }
      drop(id);
      shown.delete(id);
    },
  };
  ctx.postMessage?.(L10N_REQUEST);
  return api;
}
