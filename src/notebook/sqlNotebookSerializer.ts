import * as vscode from 'vscode';
import {
  parseNotebook,
  serializeNotebook,
  type NotebookCellData,
  type NotebookData,
  type NotebookTarget,
} from '../core/sql/notebookDocument';

/** Cell metadata keys (kept in the file as `target` and `ranAtCommit`). */
export const CellMeta = { target: 'target' } as const;
/** Output metadata: the commit the ref pointed at when the output was produced. */
export const OutputMeta = { commit: 'commit', ref: 'ref', key: 'key' } as const;

export function targetOf(metadata: { readonly [key: string]: unknown } | undefined): NotebookTarget | undefined {
  const t = metadata?.[CellMeta.target] as Partial<NotebookTarget> | undefined;
  if (!t || typeof t !== 'object') return undefined;
  if (typeof t.hostId !== 'string' || typeof t.owner !== 'string' || typeof t.name !== 'string' || typeof t.ref !== 'string')
    return undefined;
  return { hostId: t.hostId, owner: t.owner, name: t.name, ref: t.ref };
}

/**
 * `.vdbnb` files <-> VS Code notebooks. Outputs are written only when `saveOutputs` is on
 * (read through the getter at save time, so changing the setting applies to the next save).
 */
export class SqlNotebookSerializer implements vscode.NotebookSerializer {
  constructor(private readonly saveOutputs: () => boolean) {}

  deserializeNotebook(content: Uint8Array): vscode.NotebookData {
    const data = parseNotebook(new TextDecoder().decode(content));
    return toVscode(data);
  }

  serializeNotebook(data: vscode.NotebookData): Uint8Array {
    return new TextEncoder().encode(serializeNotebook(fromVscode(data), { saveOutputs: this.saveOutputs() }));
  }
}

export function toVscode(data: NotebookData): vscode.NotebookData {
  const cells = data.cells.map((c) => {
    const cell = new vscode.NotebookCellData(
      c.kind === 'sql' ? vscode.NotebookCellKind.Code : vscode.NotebookCellKind.Markup,
      c.source,
      c.kind === 'sql' ? 'sql' : 'markdown',
    );
    if (c.target) cell.metadata = { [CellMeta.target]: c.target };
    if (c.outputs?.length) {
      cell.outputs = c.outputs.map(
        (o) =>
          new vscode.NotebookCellOutput(
            o.items.map((it) => new vscode.NotebookCellOutputItem(new TextEncoder().encode(it.data), it.mime)),
            c.ranAtCommit ? { [OutputMeta.commit]: c.ranAtCommit } : {},
          ),
      );
    }
    return cell;
  });
  const nb = new vscode.NotebookData(cells);
  if (data.target) nb.metadata = { [CellMeta.target]: data.target };
  return nb;
}

export function fromVscode(data: vscode.NotebookData): NotebookData {
  const cells = data.cells.map((c): NotebookCellData => {
    const cell: NotebookCellData = { kind: c.kind === vscode.NotebookCellKind.Code ? 'sql' : 'markdown', source: c.value };
    const target = targetOf(c.metadata);
    if (target) cell.target = target;
    if (c.outputs?.length) {
      cell.outputs = c.outputs.map((o) => ({
        items: o.items.map((it) => ({ mime: it.mime, data: new TextDecoder().decode(it.data) })),
      }));
      const commit = c.outputs[0]?.metadata?.[OutputMeta.commit];
      if (typeof commit === 'string') cell.ranAtCommit = commit;
    }
    return cell;
  });
  const out: NotebookData = { version: 1, cells };
  const target = targetOf(data.metadata);
  if (target) out.target = target;
  return out;
}
