// The Resolve view of a conflicting pull (issue #24): the choices per cell, row and table, kept
// here; what Apply will do, asked of the session after every choice and shown before Apply; the
// outcome afterwards (the merge previewed again). The session (src/commands/resolveCommands.ts)
// reads the conflicts and applies them; this panel only holds the choices and renders.
import type * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import { WebviewHost } from '../platform/webviewHost';
import { Disposable } from '../platform/disposable';
import { WebviewTypes } from '../shared/ids';
import type { Cell } from '../shared/wire';
import type { CellChoice, Choices } from '../core/review/conflictResolution';
import { renderResolveContent, renderResolveDocument, type ResolvePageTable } from '../core/resolvePage';
import { parseResolveMessage, type ResolveHostMessage, type ResolveSide, type ResolveWebviewMessage } from '../shared/resolveProtocol';

export interface ResolveSession {
  readonly title: string;
  readonly tables: readonly ResolvePageTable[];
  /** The problem with a typed value for a column (the grid's checks), or undefined. */
  check(table: string, column: string, value: Cell): string | undefined;
  /** What Apply will do with these choices, or why it cannot yet. */
  plan(choices: ReadonlyMap<string, Choices>): { text: string; canApply: boolean };
  /** Applies, then previews the merge again; the outcome to show. */
  apply(choices: ReadonlyMap<string, Choices>): Promise<{ ok: boolean; text: string }>;
}

type MutableChoices = { cells: Map<string, Map<string, CellChoice>>; rows: Map<string, ResolveSide> };

export class ResolvePanel extends Disposable {
  private readonly host: WebviewHost<ResolveWebviewMessage, ResolveHostMessage>;
  private readonly choices = new Map<string, MutableChoices>();
  private readonly problems = new Map<string, string>();
  private outcome: { ok: boolean; text: string } | undefined;
  /** The last HTML sent (for tests). */
  lastContent = '';

  constructor(
    extensionUri: vscode.Uri,
    log: Logger,
    private readonly session: ResolveSession,
  ) {
    super();
    this.host = this._register(
      new WebviewHost(
        {
          viewType: WebviewTypes.resolve,
          title: session.title,
          extensionUri,
          script: 'webview/resolve.js',
          html: (env) => renderResolveDocument({ ...env, title: session.title, contentHtml: this.content() }),
          parse: parseResolveMessage,
          log,
        },
        (m) => this.handle(m),
      ),
    );
    this._register(this.host.onDidDispose(() => this.dispose()));
  }

  get onDidDispose(): vscode.Event<void> {
    return this.host.onDidDispose;
  }

  private of(table: string): MutableChoices {
    let c = this.choices.get(table);
    if (!c) this.choices.set(table, (c = { cells: new Map(), rows: new Map() }));
    return c;
  }

  private setCell(table: string, row: string, column: string, choice: CellChoice): void {
    const t = this.of(table);
    t.cells.set(row, new Map([...(t.cells.get(row) ?? []), [column, choice]]));
    this.problems.delete(`${table} ${row} ${column}`);
  }

  private setSide(table: string, row: string | undefined, side: ResolveSide): void {
    const t = this.session.tables.find((x) => x.table === table);
    if (!t) return;
    for (const c of t.cells) if (row === undefined || c.key === row) this.setCell(table, c.key, c.column, { kind: side });
    for (const r of t.rows) if (row === undefined || r.key === row) this.of(table).rows.set(r.key, side);
  }

  private content(): string {
    const plan = this.session.plan(this.choices);
    this.lastContent = renderResolveContent({
      title: this.session.title,
      tables: this.session.tables,
      choice: (t, r, c) => this.choices.get(t)?.cells.get(r)?.get(c),
      rowSide: (t, r) => this.choices.get(t)?.rows.get(r),
      problems: this.problems,
      plan: plan.text,
      // Once applied, the choices are spent: the view read the conflicts before they were settled.
      canApply: plan.canApply && this.problems.size === 0 && this.outcome?.ok !== true,
      ...(this.outcome ? { outcome: this.outcome } : {}),
    });
    return this.lastContent;
  }

  async handle(m: ResolveWebviewMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        break;
      case 'pick':
        this.setCell(m.table, m.row, m.column, { kind: m.side });
        break;
      case 'typed': {
        const problem = this.session.check(m.table, m.column, m.value);
        if (problem) this.problems.set(`${m.table} ${m.row} ${m.column}`, problem);
        else this.setCell(m.table, m.row, m.column, { kind: 'value', value: m.value });
        break;
      }
      case 'side':
        this.setSide(m.table, m.row, m.side);
        break;
      case 'apply':
        this.host.post({ type: 'busy', busy: true });
        try {
          this.outcome = await this.session.apply(this.choices);
        } finally {
          this.host.post({ type: 'busy', busy: false });
        }
        break;
    }
    this.host.post({ type: 'update', html: this.content() });
  }
}
