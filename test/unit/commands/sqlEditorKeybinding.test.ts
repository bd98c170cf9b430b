// Ctrl+Enter belongs to Versioned DB only in .sql editors that have a Versioned DB target, so other
// SQL extensions keep it everywhere else. Checked against the keybinding package.json contributes.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { Commands, ContextKeys } from '../../../src/shared/ids';

interface Keybinding {
  command: string;
  key: string;
  mac?: string;
  when?: string;
}

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: { keybindings?: Keybinding[] } };

/** Evaluates the `a && b == 'x' && !c` subset of VS Code's when-clause language (all our keybindings use). */
function whenHolds(when: string, context: Record<string, string | boolean>): boolean {
  return when.split('&&').every((raw) => {
    const term = raw.trim();
    const eq = /^([\w.]+)\s*==\s*'?([\w.-]+)'?$/.exec(term);
    if (eq) return context[eq[1]!] === eq[2];
    if (term.startsWith('!')) return !context[term.slice(1).trim()];
    assert.match(term, /^[\w.]+$/, `unsupported when term ${term}`);
    return context[term] === true;
  });
}

describe('Ctrl+Enter in .sql editors', () => {
  const bindings = (manifest.contributes.keybindings ?? []).filter((k) => k.command === Commands.runSqlInEditor);

  it('is bound to Run SQL Statement (Cmd+Enter on macOS)', () => {
    assert.equal(bindings.length, 1);
    assert.equal(bindings[0]!.key, 'ctrl+enter');
    assert.equal(bindings[0]!.mac, 'cmd+enter');
  });

  it('applies only in a focused .sql editor with a Versioned DB target, never in a notebook', () => {
    const when = bindings[0]!.when ?? '';
    const sqlEditor = { editorTextFocus: true, editorLangId: 'sql', notebookEditorFocused: false };
    assert.equal(whenHolds(when, { ...sqlEditor, [ContextKeys.sqlEditorHasTarget]: true }), true);
    assert.equal(
      whenHolds(when, { ...sqlEditor, [ContextKeys.sqlEditorHasTarget]: false }),
      false,
      'a .sql file without a target: left to other extensions',
    );
    assert.equal(whenHolds(when, { ...sqlEditor, editorLangId: 'python', [ContextKeys.sqlEditorHasTarget]: true }), false);
    assert.equal(whenHolds(when, { ...sqlEditor, notebookEditorFocused: true, [ContextKeys.sqlEditorHasTarget]: true }), false);
  });
});
