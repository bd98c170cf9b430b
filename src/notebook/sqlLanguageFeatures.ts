import * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import { Notebooks } from '../shared/ids';
import type { QueryTarget } from '../shared/queryResultOutput';
import { completionsAt, hoverAt, type CompletionKind, type Schema } from '../core/sql/completion';
import type { SchemaService } from './schemaService';
import { cellTarget } from './sqlNotebookController';

const KINDS: Record<CompletionKind, vscode.CompletionItemKind> = {
  table: vscode.CompletionItemKind.Class,
  column: vscode.CompletionItemKind.Field,
  keyword: vscode.CompletionItemKind.Keyword,
  function: vscode.CompletionItemKind.Function,
};

type SchemaLookup = (document: vscode.TextDocument, token: vscode.CancellationToken) => Promise<Schema | undefined>;

/** The target a document runs at: a notebook cell's, or a .sql editor's. */
function documentTarget(
  document: vscode.TextDocument,
  editorTarget: (document: vscode.TextDocument) => QueryTarget | undefined,
): QueryTarget | undefined {
  if (document.uri.scheme !== 'vscode-notebook-cell') return editorTarget(document);
  for (const nb of vscode.workspace.notebookDocuments) {
    if (nb.notebookType !== Notebooks.type) continue;
    const cell = nb.getCells().find((c) => c.document === document);
    if (cell) return cellTarget(cell);
  }
  return undefined;
}

function completionProvider(schemaFor: SchemaLookup): vscode.CompletionItemProvider {
  return {
    async provideCompletionItems(document, position, token) {
      const schema = await schemaFor(document, token);
      if (!schema) return undefined;
      const offset = document.offsetAt(position);
      const ctx = completionsAt(document.getText(), offset, schema);
      const range = new vscode.Range(document.positionAt(offset - ctx.prefix.length), position);
      return ctx.items.map((i) => {
        const item = new vscode.CompletionItem(i.label, KINDS[i.kind]);
        item.detail = i.detail;
        item.range = range;
        item.sortText = `${i.rank}${i.label.toLowerCase()}`;
        return item;
      });
    },
  };
}

function hoverProvider(schemaFor: SchemaLookup): vscode.HoverProvider {
  return {
    async provideHover(document, position, token) {
      const schema = await schemaFor(document, token);
      if (!schema) return undefined;
      const info = hoverAt(document.getText(), document.offsetAt(position), schema);
      if (!info) return undefined;
      const md = new vscode.MarkdownString();
      md.appendCodeblock(info.lines.join('\n'), 'sql');
      return new vscode.Hover(md, new vscode.Range(document.positionAt(info.start), document.positionAt(info.end)));
    },
  };
}

/**
 * Completion and hover for SQL cells (and .sql files run at a remembered target), from the
 * schema at the cell's ref. Schema failures only log: typing must never raise a notification.
 */
export function registerSqlLanguageFeatures(
  schemas: SchemaService,
  editorTarget: (document: vscode.TextDocument) => QueryTarget | undefined,
  log: Logger,
): vscode.Disposable[] {
  const schemaFor: SchemaLookup = async (document, token) => {
    const target = documentTarget(document, editorTarget);
    if (!target) return undefined;
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    try {
      return await schemas.schemaFor(target, abort.signal);
    } catch (e) {
      log.debug(`no schema for completion: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    } finally {
      sub.dispose();
    }
  };
  const selector: vscode.DocumentSelector = [
    { notebookType: Notebooks.type, language: 'sql' },
    { language: 'sql', scheme: 'file' },
    { language: 'sql', scheme: 'untitled' },
  ];
  return [
    vscode.languages.registerCompletionItemProvider(selector, completionProvider(schemaFor), '.', ' '),
    vscode.languages.registerHoverProvider(selector, hoverProvider(schemaFor)),
  ];
}
