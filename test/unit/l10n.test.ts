// Every string the extension shows goes through l10n.t (src/shared/l10n.ts, issue #27): this test
// reads the sources (TypeScript's parser) and fails on a literal with words in it that reaches a
// person some other way. What counts as reaching a person (the sinks):
//  - an argument of a message or prompt: ui.info/confirm/choose/withProgress, progress.report,
//    show*Message, a grid's announce;
//  - an object property a person reads: title, prompt, placeholder, label, description, detail,
//    tooltip, ariaLabel, text, emptyText (quick pick items, input boxes, tree items, panels);
//  - DOM text: textContent/title/placeholder/ariaLabel assigned, setAttribute('aria-label'|'title'|
//    'placeholder', …), createTextNode, el(doc, tag, cls, text), new TreeItem(…);
//  - HTML written as a string: text between tags (`>Merge<`).
// A text is "words" when, without codicons ($(icon)), placeholders and ${…}, it has two letters in a row.
// Limits, said plainly: a literal stored in a variable first, or returned by a core function and
// shown by its caller, is not followed.
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { bypasses, collectShownConstants, sources } from '../helpers/l10nScan';
// @ts-expect-error plain ESM script without types
import { BUNDLE, bundleText, extractBundle } from '../../scripts/l10n-export.mjs';
import { format, t, tHtml, useBundle } from '../../src/shared/l10n';
// @ts-expect-error plain ESM module without types
import { pseudoBundle, unwrappedWords } from '../e2e/lib/pseudoL10n.mjs';

/** The folders of src/ whose every visible string goes through l10n.t. */
const CONVERTED = ['api', 'auth', 'commands', 'core', 'notebook', 'platform', 'renderer', 'shared', 'tree', 'views', 'webview'];
/** Not converted yet (issue #27 open): listed by name, checked once they move to CONVERTED. */
const NOT_YET: string[] = [];
/** A server of its own: its text goes over HTTP to clients, not to the extension's user. */
const NOT_UI = ['hub'];

describe('localizable text (l10n.t)', () => {
  it('every folder of src/ is converted, listed as not yet, or not UI', () => {
    const dirs = readdirSync('src', { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    assert.deepEqual(dirs, [...CONVERTED, ...NOT_YET, ...NOT_UI].sort());
  });

  // Constants shown in one file and declared in another: every file is read once first. Parsing
  // all of src takes about 2 s on a quiet machine and passed the suite's 10 s in a CI run beside
  // the hub suite and e2e: it gets a minute (it has no wait that could hang).
  before(function () {
    this.timeout(60_000);
    collectShownConstants([...sources('src')].map((file) => ({ file, text: readFileSync(file, 'utf8') })));
  });

  for (const dir of CONVERTED)
    it(`src/${dir}: no visible literal bypasses l10n.t`, () => {
      const found = [...sources(join('src', dir))].flatMap((f) => bypasses(f, readFileSync(f, 'utf8')));
      assert.deepEqual(found, [], 'wrap these in l10n.t');
    });

  it('src/extension.ts: no visible literal bypasses l10n.t', () => {
    assert.deepEqual(bypasses('src/extension.ts', readFileSync('src/extension.ts', 'utf8')), []);
  });

  it('the check finds each kind of sink (it can fail)', () => {
    const probe = [
      "ui.info('Deleted the branch');",
      'void ui.withProgress(`Merging ${x}`, task);',
      "const item = { label: '$(add) New branch', value: 1 };",
      "node.textContent = 'Loading rows';",
      "b.setAttribute('aria-label', 'Close');",
      "el(doc, 'button', 'btn', 'Save');",
      'const html = `<h2>Checks</h2>`;',
      "new vscode.TreeItem('Tables');",
      "progress.report('Reading the file');",
      "if ((await ui.info(msg, l10n.t('Open'))) === 'Open') go();",
      "const again = 'Start Again'; void ui.choose(msg, [again]);",
      "const LABELS = { branches: 'Branches' }; new vscode.TreeItem(LABELS[c]);",
      "ui.info(l10n.t('Imported {0}{1}', name, commit ? ' and committed' : ''));",
    ].join('\n');
    assert.equal(bypasses('probe.ts', probe).length, 13, bypasses('probe.ts', probe).join('\n'));
    const fine = [
      "ui.info(l10n.t('Deleted {0}', name));",
      'const item = { label: `$(git-branch) ${name}` };',
      "log.info('started');",
      "el(doc, 'div', 'cell', value);",
    ].join('\n');
    assert.deepEqual(bypasses('fine.ts', fine), []);
  });

  it('l10n/bundle.l10n.json is what the sources ask for (npm run l10n)', () => {
    const { bundle, errors } = extractBundle() as { bundle: Record<string, string>; errors: string[] };
    assert.deepEqual(errors, []);
    assert.equal(readFileSync(BUNDLE, 'utf8'), bundleText(bundle));
  });

  it('the pseudo-locale wraps every message and finds a word left outside', () => {
    const english = JSON.parse(readFileSync(BUNDLE, 'utf8')) as Record<string, string>;
    const pseudo = pseudoBundle(english) as Record<string, string>;
    assert.deepEqual(Object.keys(pseudo), Object.keys(english));
    for (const [k, v] of Object.entries(pseudo)) assert.equal(v, `⟦${k}⟧`);
    useBundle(pseudo);
    try {
      assert.equal(t('Deleted {0}', 'x'), 'Deleted x', 'not in the bundle: English');
      assert.equal(t('Sign In'), '⟦Sign In⟧');
      assert.equal(tHtml('Read in the fork {0}/{1}.', '<b>a</b>', 'b'), '⟦Read in the fork <b>a</b>/b.⟧');
    } finally {
      useBundle(undefined);
    }
    assert.deepEqual(unwrappedWords('⟦Tables⟧ products ⟦at ⟦x⟧ y⟧ Loading', ['products']), ['Loading']);
  });

  it('tHtml escapes the translation and keeps its HTML arguments', () => {
    useBundle({ 'Hi {0}': '<Hi> "{0}"' });
    try {
      assert.equal(tHtml('Hi {0}', '<code>x</code>'), '&lt;Hi&gt; &quot;<code>x</code>&quot;');
    } finally {
      useBundle(undefined);
    }
  });

  it('t fills placeholders and translates through a bundle, English where it has no entry', () => {
    assert.equal(format('{0} of {1} ({0})', ['a', 2]), 'a of 2 (a)');
    useBundle({ 'Deleted {0}': '[Gelöscht {0}]' });
    try {
      assert.equal(t('Deleted {0}', 'x'), '[Gelöscht x]');
      assert.equal(t('Kept {0}', 'y'), 'Kept y');
    } finally {
      useBundle(undefined);
    }
    assert.equal(t('Deleted {0}', 'x'), 'Deleted x');
  });
});
