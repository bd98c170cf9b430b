import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands, EXTENSION_ID } from '../../src/shared/ids';

interface ManifestCommand {
  readonly command: string;
}

describe('activation in a real extension host', () => {
  it('activates without throwing', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not loaded`);
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('registers every command its manifest contributes, so no palette entry is dead', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    const declared = ((ext.packageJSON as { contributes?: { commands?: ManifestCommand[] } }).contributes?.commands ?? []).map(
      (c) => c.command,
    );
    assert.ok(declared.length > 0, 'the manifest contributes no commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = declared.filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], `declared but not registered: ${missing.join(', ')}`);
  });

  it('shows its log from the command palette', async () => {
    // The log is the output channel "Versioned DB"; shown, its document is a visible editor.
    const isLog = (e: vscode.TextEditor): boolean =>
      e.document.uri.scheme === 'output' && decodeURIComponent(e.document.uri.toString()).includes('Versioned DB');
    const visible = (): string => vscode.window.visibleTextEditors.map((e) => e.document.uri.toString()).join(', ') || 'none';
    await vscode.commands.executeCommand('workbench.action.closePanel');
    assert.ok(!vscode.window.visibleTextEditors.some(isLog), `the log is visible before the command: ${visible()}`);
    const shown = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        listener.dispose();
        resolve(false);
      }, 10_000);
      const listener = vscode.window.onDidChangeVisibleTextEditors((editors) => {
        if (!editors.some(isLog)) return;
        clearTimeout(timer);
        listener.dispose();
        resolve(true);
      });
    });
    await vscode.commands.executeCommand(Commands.showLog);
    assert.ok(vscode.window.visibleTextEditors.some(isLog) || (await shown), `the log did not appear; visible editors: ${visible()}`);
  });
});
