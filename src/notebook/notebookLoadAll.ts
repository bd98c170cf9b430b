// Load All Rows in notebook outputs: the renderer posts `loadAll` with the result's key, this
// finds that result in the notebook, answers `paged.show` and serves the pages (and the
// streamed export) through a LoadAllSession. The output in the notebook is left as it is (the
// first response, with its banner), so a saved notebook holds what the query returned, and a
// re-render shows that again with Load All Rows. Sessions end with their grid (`paged.closed`),
// their cell's outputs (re-run, cleared, cell deleted) or their notebook (closed).
import * as vscode from 'vscode';
import { QUERY_RESULT_MIME } from '../shared/mime';
import { isQueryOutput, type QueryOutput } from '../shared/queryResultOutput';
import { parseGridPagingMessage, type HostPagingMessage } from '../shared/gridPaging';
import { LoadAllSession, type LoadAllDeps } from './loadAllSession';
import { OutputMeta } from './sqlNotebookSerializer';

interface Held {
  session: LoadAllSession;
  notebook: string;
  cell: string;
}

/** The result with `key` in `notebook`, and its cell. */
export function findResult(notebook: vscode.NotebookDocument, key: string): { output: QueryOutput; cell: vscode.NotebookCell } | undefined {
  for (const cell of notebook.getCells()) {
    for (const out of cell.outputs) {
      // Outputs made in this session carry the key in their metadata; a reopened file's only in the JSON.
      const meta = out.metadata?.[OutputMeta.key];
      if (meta !== undefined && meta !== key) continue;
      for (const item of out.items) {
        if (item.mime !== QUERY_RESULT_MIME) continue;
        const text = new TextDecoder().decode(item.data);
        if (!text.includes(key)) continue;
        let data: unknown;
        try {
          data = JSON.parse(text);
        } catch {
          continue;
        }
        if (isQueryOutput(data) && data.key === key) return { output: data, cell };
      }
    }
  }
  return undefined;
}

export class NotebookLoadAll implements vscode.Disposable {
  private readonly held = new Map<string, Held>();
  private readonly subs: vscode.Disposable[];

  constructor(
    private readonly messaging: vscode.NotebookRendererMessaging,
    private readonly deps: LoadAllDeps,
  ) {
    this.subs = [
      vscode.workspace.onDidChangeNotebookDocument((e) => {
        const nb = e.notebook.uri.toString();
        for (const c of e.cellChanges)
          if (c.outputs !== undefined) this.disposeWhere((h) => h.notebook === nb && h.cell === c.cell.document.uri.toString());
        for (const c of e.contentChanges) {
          const removed = new Set(c.removedCells.map((cell) => cell.document.uri.toString()));
          if (removed.size) this.disposeWhere((h) => h.notebook === nb && removed.has(h.cell));
        }
      }),
      vscode.workspace.onDidCloseNotebookDocument((nb) => this.disposeWhere((h) => h.notebook === nb.uri.toString())),
    ];
  }

  /** Sessions being served (integration tests check that they end). */
  get sessions(): LoadAllSession[] {
    return [...this.held.values()].map((h) => h.session);
  }

  /** Handles a paging message from the renderer; false when it is not one (copy, export of a whole result). */
  handle(editor: vscode.NotebookEditor, raw: unknown): boolean {
    const m = parseGridPagingMessage(raw);
    if (!m) return false;
    const outputId = typeof (raw as { outputId?: unknown }).outputId === 'string' ? (raw as { outputId: string }).outputId : undefined;
    const post = (msg: HostPagingMessage): void => {
      void this.messaging.postMessage(outputId ? { ...msg, outputId } : msg, editor);
    };
    if (m.type === 'loadAll') {
      this.loadAll(editor, m.key, post);
      return true;
    }
    if (m.type === 'paged.closed') {
      this.disposeWhere((h) => h.session.sourceId === m.sourceId);
      return true;
    }
    for (const h of this.held.values()) if (h.session.handle(m)) return true;
    // A page request for a session that has ended (its cell ran again): nothing to answer.
    return true;
  }

  private loadAll(editor: vscode.NotebookEditor, key: string | undefined, post: (m: HostPagingMessage) => void): void {
    const found = key ? findResult(editor.notebook, key) : undefined;
    if (!found) {
      post({ type: 'loadAll.refused', message: 'This result is no longer in the notebook. Run the cell again, then Load All Rows.' });
      return;
    }
    const started = LoadAllSession.start(found.output, post, this.deps);
    if ('refused' in started) {
      this.deps.log.info(`load all rows refused: ${started.refused}`);
      post({ type: 'loadAll.refused', message: started.refused });
      return;
    }
    this.held.set(started.sourceId, {
      session: started,
      notebook: editor.notebook.uri.toString(),
      cell: found.cell.document.uri.toString(),
    });
    post({ type: 'paged.show', output: started.output });
    started.begin();
  }

  private disposeWhere(match: (h: Held) => boolean): void {
    for (const [id, h] of [...this.held]) {
      if (!match(h)) continue;
      h.session.dispose();
      this.held.delete(id);
    }
  }

  dispose(): void {
    this.disposeWhere(() => true);
    for (const s of this.subs) s.dispose();
  }
}
