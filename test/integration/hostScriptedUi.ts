// The scripted Ui (test/helpers/scriptedUi.ts) as integration tests use it inside the extension
// host: progress runs under a real VS Code notification, as it would for a person.
import * as vscode from 'vscode';
import { ScriptedUi, type Reply, type ScriptedUiOptions, type Step } from '../helpers/scriptedUi';

export function notificationProgress<T>(title: string, task: (report: (message: string) => void) => Promise<T>): Promise<T> {
  return Promise.resolve(
    vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, (progress) =>
      task((message) => progress.report({ message })),
    ),
  );
}

export function hostScriptedUi(
  script: readonly (Step | Reply)[] | Record<string, Reply | readonly Reply[]> = [],
  options: ScriptedUiOptions = {},
): ScriptedUi {
  return new ScriptedUi(script, { runProgress: notificationProgress, ...options });
}
