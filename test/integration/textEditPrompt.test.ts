// A text asked for over several lines (Ui.editText, src/commands/textEditPrompt.ts), in a real
// extension host: the untitled editor opens with the starting text, Use This Text resolves what
// the editor holds, Cancel Editing or closing the editor resolves nothing, asking again cancels
// the text before, and no editor is left open or dirty.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands, EXTENSION_ID } from '../../src/shared/ids';
import type { VersionedDbApi } from '../../src/extension';
import { waitFor } from '../helpers/waitFor.cjs';

/** The editor of the untitled document `editText` opened, once it holds `text`. */
async function editorHolding(text: string): Promise<vscode.TextEditor> {
  return waitFor(
    `an untitled editor holding ${JSON.stringify(text)}`,
    async () => {
      const e = vscode.window.activeTextEditor;
      return e?.document.uri.scheme === 'untitled' && e.document.getText() === text ? e : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 50 },
  );
}

/** Waits until the document is closed (no tab, no save prompt). */
async function closed(doc: vscode.TextDocument): Promise<void> {
  await waitFor('the editor closed', async () => doc.isClosed || undefined, { timeoutMs: 20_000, intervalMs: 50 });
}

describe('a text edited over several lines in an editor (Ui.editText)', () => {
  let api: VersionedDbApi;
  before(async () => {
    api = (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as VersionedDbApi;
  });

  it('Use This Text answers what the editor holds; the editor closes unsaved', async () => {
    const asked = api.commandDeps.ui.editText({ name: 'Suggested value', title: 'A value', value: 'first\nsecond' });
    const editor = await editorHolding('first\nsecond');
    assert.match(editor.document.uri.path, /^Suggested value \d+$/);
    await editor.edit((b) => b.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), 'one\n  two "2"\n\nthree'));
    // A change of language mode closes and reopens the document: the edit goes on.
    const reopened = await vscode.languages.setTextDocumentLanguage(editor.document, 'markdown');
    await vscode.commands.executeCommand(Commands.useEditedText);
    assert.equal(await asked, 'one\n  two "2"\n\nthree');
    await closed(reopened);
  });

  it('Cancel Editing, closing the editor, or asking again answer nothing', async () => {
    const cancelled = api.commandDeps.ui.editText({ name: 'Suggested value', title: 'A value', value: 'x' });
    const first = await editorHolding('x');
    await vscode.commands.executeCommand(Commands.cancelEditedText);
    assert.equal(await cancelled, undefined);
    await closed(first.document);

    const shut = api.commandDeps.ui.editText({ name: 'Suggested value', title: 'A value', value: 'y' });
    const second = await editorHolding('y');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    assert.equal(await shut, undefined);
    await closed(second.document);

    const replaced = api.commandDeps.ui.editText({ name: 'Suggested value', title: 'A value', value: 'z1' });
    const third = await editorHolding('z1');
    const next = api.commandDeps.ui.editText({ name: 'Suggested value', title: 'A value', value: 'z2' });
    assert.equal(await replaced, undefined);
    await closed(third.document);
    await editorHolding('z2');
    await vscode.commands.executeCommand(Commands.useEditedText);
    assert.equal(await next, 'z2');
  });

  it('an input box for several lines opens a starting text with line breaks in the editor at once, checked as the box checks', async () => {
    const ui = api.commandDeps.ui;
    const validate = (v: string): string | undefined => (v.trim() ? undefined : 'Write something first.');
    const described = ui.input({
      title: 'Edit pull request #1 (2/2): description (markdown)',
      value: 'Para one.\n\nPara two.',
      lines: 'Pull request description',
      validate,
    });
    const editor = await editorHolding('Para one.\n\nPara two.');
    assert.match(editor.document.uri.path, /^Pull request description \d+\.md$/);
    assert.equal(editor.document.languageId, 'markdown');
    await editor.edit((b) => b.insert(new vscode.Position(2, 9), '\nPara three.'));
    await vscode.commands.executeCommand(Commands.useEditedText);
    assert.equal(await described, 'Para one.\n\nPara two.\nPara three.');
    await closed(editor.document);

    const emptied = ui.input({ title: 'A comment', value: 'a\nb', lines: 'Comment', validate });
    const second = await editorHolding('a\nb');
    await second.edit((b) => b.delete(new vscode.Range(0, 0, 1, 1)));
    await vscode.commands.executeCommand(Commands.useEditedText);
    assert.equal(await emptied, undefined, 'refused as the box would refuse it: nothing');
    await closed(second.document);
  });

  it('never reuses an open untitled document of the same name (one a window reload restored, say)', async () => {
    // Documents of the names the next texts could take, each with a text of its own.
    const taken = await Promise.all(
      Array.from({ length: 15 }, (_, k) =>
        vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'untitled', path: `Suggested value ${k + 1}` })),
      ),
    );
    const edit = new vscode.WorkspaceEdit();
    for (const d of taken) edit.insert(d.uri, new vscode.Position(0, 0), 'restored text');
    await vscode.workspace.applyEdit(edit);
    try {
      const asked = api.commandDeps.ui.editText({ name: 'Suggested value', title: 'A value', value: 'new' });
      const editor = await editorHolding('new');
      assert.ok(!taken.some((d) => d.uri.toString() === editor.document.uri.toString()), editor.document.uri.toString());
      await vscode.commands.executeCommand(Commands.useEditedText);
      assert.equal(await asked, 'new');
      assert.ok(
        taken.every((d) => d.getText() === 'restored text'),
        'the other documents are untouched',
      );
    } finally {
      // Reverted: nothing left dirty for the tests after.
      for (const d of taken) {
        await vscode.window.showTextDocument(d);
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      }
    }
  });
});
