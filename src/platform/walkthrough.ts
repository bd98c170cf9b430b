// Marks a Get Started step done (package.json `walkthroughs`): sets its context key, which the
// step's `onContext:` completion event waits for. Harmless to call again.
import * as vscode from 'vscode';
import { WalkthroughKeys } from '../shared/ids';

export type WalkthroughStep = keyof typeof WalkthroughKeys;

export function markStepDone(step: WalkthroughStep): void {
  void vscode.commands.executeCommand('setContext', WalkthroughKeys[step], true);
}
