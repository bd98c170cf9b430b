import * as vscode from 'vscode';
import { markStepDone } from '../platform/walkthrough';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../core/logger';
import type { ErrorContext } from '../core/errorMessages';
import { describeError, isCancellation } from '../core/errorMessages';
import { Notebooks } from '../shared/ids';
import { QUERY_RESULT_MIME } from '../shared/mime';
import type { QueryOutput, QueryTarget } from '../shared/queryResultOutput';
import { resolveCellTarget } from '../core/sql/notebookDocument';
import { splitStatements } from '../core/sql/statements';
import { historyEntryOf } from '../core/sql/history';
import { markdownFallback } from '../core/sql/markdownFallback';
import { targetLabel } from '../core/sql/refs';
import { runQuery, type RefResolver } from './queryRunner';
import type { SqlPort } from '../core/sql/sqlPort';
import type { QueryHistoryStore } from './queryHistoryStore';
import { OutputMeta, targetOf } from './sqlNotebookSerializer';
import { loadAllFields } from './loadAllSession';
import * as l10n from '../shared/l10n';

export interface SqlRunDeps {
  /** The one way to run SQL at a target: the row limit and timeout settings applied there. */
  sql: Pick<SqlPort, 'userQuery' | 'current'>;
  labelOf(hostId: string): string;
  refs: RefResolver;
  history: QueryHistoryStore;
  /** F1's reportError: notification with "Sign in" / "Copy request id"; silent for cancellation. */
  reportError(error: unknown, context: ErrorContext): void;
  log: Logger;
}

/** The cell's target: its own metadata, else the notebook's. */
export function cellTarget(cell: vscode.NotebookCell): QueryTarget | undefined {
  return resolveCellTarget(targetOf(cell.metadata), targetOf(cell.notebook.metadata));
}

/** One query output as a notebook output: the grid's JSON plus a markdown table fallback. */
export function toCellOutput(output: QueryOutput): vscode.NotebookCellOutput {
  return new vscode.NotebookCellOutput(
    [
      vscode.NotebookCellOutputItem.json(output, QUERY_RESULT_MIME),
      vscode.NotebookCellOutputItem.text(markdownFallback(output), 'text/markdown'),
    ],
    { [OutputMeta.commit]: output.commit, [OutputMeta.ref]: output.target.ref, ...(output.key ? { [OutputMeta.key]: output.key } : {}) },
  );
}

/**
 * Runs SQL cells in order at each cell's target. Every statement of a cell gets its own
 * result grid; a statement that does not succeed stops the cell. Cancel aborts the request.
 */
export class SqlNotebookController implements vscode.Disposable {
  private readonly controller: vscode.NotebookController;
  private order = 0;
  private readonly onDidRunEmitter = new vscode.EventEmitter<vscode.NotebookCell>();
  /** Fires after a cell ran (the status bar re-checks whether its branch moved). */
  readonly onDidRun = this.onDidRunEmitter.event;

  constructor(private readonly deps: SqlRunDeps) {
    this.controller = vscode.notebooks.createNotebookController(Notebooks.controller, Notebooks.type, 'Versioned DB SQL');
    this.controller.supportedLanguages = ['sql'];
    this.controller.supportsExecutionOrder = true;
    this.controller.description = l10n.t('Runs read-only SQL at a branch, tag or commit');
    this.controller.executeHandler = (cells, notebook) => this.execute(cells, notebook);
    // The only kernel for this notebook type: preferred, so running never asks to pick one.
    const prefer = (nb: vscode.NotebookDocument): void => {
      if (nb.notebookType === Notebooks.type) this.controller.updateNotebookAffinity(nb, vscode.NotebookControllerAffinity.Preferred);
    };
    vscode.workspace.notebookDocuments.forEach(prefer);
    this.openSub = vscode.workspace.onDidOpenNotebookDocument(prefer);
  }

  private readonly openSub: vscode.Disposable;

  private async execute(cells: vscode.NotebookCell[], notebook: vscode.NotebookDocument): Promise<void> {
    this.deps.log.debug(`running ${cells.length} cell(s) of ${notebook.uri.toString()}`);
    for (const cell of cells) {
      if (cell.kind !== vscode.NotebookCellKind.Code) continue;
      const ok = await this.runCell(cell);
      // Running all: a failed cell stops the rest, as later cells usually depend on it.
      if (!ok && cells.length > 1) break;
    }
  }

  private async runCell(cell: vscode.NotebookCell): Promise<boolean> {
    const execution = this.controller.createNotebookCellExecution(cell);
    execution.executionOrder = ++this.order;
    execution.start(Date.now());
    const abort = new AbortController();
    const sub = execution.token.onCancellationRequested(() => abort.abort());
    const target = cellTarget(cell);
    try {
      const ok = target ? await this.runStatements(cell, target, execution, abort.signal) : await this.noTarget(execution);
      execution.end(ok, Date.now());
      if (target) markStepDone('ranQuery');
      return ok;
    } catch (e) {
      await this.failed(e, target, execution, abort.signal);
      return false;
    } finally {
      sub.dispose();
      this.onDidRunEmitter.fire(cell);
    }
  }

  private async noTarget(execution: vscode.NotebookCellExecution): Promise<boolean> {
    await execution.replaceOutput(
      errorOutput(
        'No database to run at. Click the database item in this cell\'s status bar (or "Change Where This Notebook Runs…") and pick a database and a branch, tag or commit.',
      ),
    );
    return false;
  }

  /** Runs the cell's statements one by one, each output added as it comes; false when one failed. */
  private async runStatements(
    cell: vscode.NotebookCell,
    target: QueryTarget,
    execution: vscode.NotebookCellExecution,
    signal: AbortSignal,
  ): Promise<boolean> {
    const statements = splitStatements(cell.document.getText());
    if (statements.length === 0) {
      await execution.clearOutput();
      return true;
    }
    this.deps.log.debug(`cell ${cell.index}: ${statements.length} statement(s) at ${targetLabel(target)}`);
    const resolution = await this.deps.refs.resolve(target, { signal, fresh: true });
    const outputs: vscode.NotebookCellOutput[] = [];
    for (const s of statements) {
      const ran = await runQuery(this.deps.sql, target, s.text, {
        signal,
        ...(resolution.commit ? { commit: resolution.commit } : {}),
        hostLabel: this.deps.labelOf(target.hostId),
      });
      // Past the row limit: a key for Load All Rows to find this result by, and whether it can.
      const output: QueryOutput = ran.result.status === 'row_limit' ? { ...ran, key: randomUUID(), ...loadAllFields(ran) } : ran;
      outputs.push(toCellOutput(output));
      await execution.replaceOutput(outputs);
      this.recorded(output, s.text, target);
      // row_limit still shows useful rows; anything else but success stops the cell.
      if (output.result.status !== 'success' && output.result.status !== 'row_limit') return false;
    }
    return true;
  }

  /** Into the query history and the log. */
  private recorded(output: QueryOutput, sql: string, target: QueryTarget): void {
    void this.deps.history
      .add(historyEntryOf(output, sql, target))
      .then(undefined, (e: unknown) => this.deps.log.warn(`could not save query history: ${String(e)}`));
    this.deps.log.info(`ran at ${targetLabel(target)}: ${output.result.status}, ${output.result.rows.length} rows, ${output.elapsedMs} ms`);
  }

  /** A cancelled run says so in the cell; any other failure too, and is reported with its fixing action. */
  private async failed(
    e: unknown,
    target: QueryTarget | undefined,
    execution: vscode.NotebookCellExecution,
    signal: AbortSignal,
  ): Promise<void> {
    if (isCancellation(e) || signal.aborted) {
      await execution
        .replaceOutput(infoOutput('Cancelled. The request was aborted; run the cell again to retry.'))
        .then(undefined, () => undefined);
      execution.end(undefined, Date.now());
      return;
    }
    const context: ErrorContext = {
      action: target ? l10n.t('run the query at {0}', targetLabel(target)) : l10n.t('run the query'),
      ...(target ? { hostId: target.hostId, hostLabel: this.deps.labelOf(target.hostId) } : {}),
    };
    const text = describeError(e, context)?.message ?? String(e);
    await execution.replaceOutput(errorOutput(text)).then(undefined, () => undefined);
    execution.end(false, Date.now());
    this.deps.reportError(e, context);
  }

  dispose(): void {
    this.openSub.dispose();
    this.controller.dispose();
    this.onDidRunEmitter.dispose();
  }
}

function errorOutput(message: string): vscode.NotebookCellOutput {
  const err = new Error(message);
  err.name = 'Versioned DB';
  // No stack: it would show extension internals, not the user's problem.
  err.stack = undefined;
  return new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.error(err)]);
}

function infoOutput(message: string): vscode.NotebookCellOutput {
  return new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.text(message, 'text/plain')]);
}
