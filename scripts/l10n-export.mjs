// Writes l10n/bundle.l10n.json: every message of an `l10n.t('…', …)` (or `l10n.tHtml`) call under src/ (the hub, a
// server of its own, shows no extension text). The key and the value are the English text, as
// vscode.l10n.t reads them. Our own, not @vscode/l10n-dev's `export`: that one only finds calls
// whose file imports 'vscode' or '@vscode/l10n', and core, api and webview code imports neither
// (src/shared/l10n.ts). test/unit/l10n.test.ts fails when the committed bundle is stale.
//   node scripts/l10n-export.mjs          write the bundle
//   node scripts/l10n-export.mjs --check  exit 1 when it would change
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = new URL('..', import.meta.url).pathname;
export const BUNDLE = join(ROOT, 'l10n', 'bundle.l10n.json');

function* sources(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (relative(ROOT, p) !== join('src', 'hub')) yield* sources(p);
    } else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) yield p;
  }
}

/** The `l10n.t` messages of one file; a call whose message is not a plain literal is an error. */
export function messagesOf(file, text = readFileSync(file, 'utf8')) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const errors = [];
  const visit = (n) => {
    if (
      ts.isCallExpression(n) &&
      ts.isPropertyAccessExpression(n.expression) &&
      (n.expression.name.text === 't' || n.expression.name.text === 'tHtml') &&
      n.expression.expression.getText(sf) === 'l10n'
    ) {
      const first = n.arguments[0];
      if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) found.push(first.text);
      else
        errors.push(`${relative(ROOT, file)}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}: l10n.t needs a literal message`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return { found, errors };
}

/** The bundle the sources need, keys sorted. */
export function extractBundle() {
  const all = new Set();
  const errors = [];
  for (const f of sources(join(ROOT, 'src'))) {
    const r = messagesOf(f);
    r.found.forEach((m) => all.add(m));
    errors.push(...r.errors);
  }
  const bundle = Object.fromEntries([...all].sort().map((m) => [m, m]));
  return { bundle, errors };
}

export function bundleText(bundle) {
  return `${JSON.stringify(bundle, null, 2)}\n`;
}

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) {
  const { bundle, errors } = extractBundle();
  if (errors.length) {
    console.error(errors.join('\n'));
    process.exit(1);
  }
  const text = bundleText(bundle);
  if (process.argv.includes('--check')) {
    let old = '';
    try {
      old = readFileSync(BUNDLE, 'utf8');
    } catch {}
    if (old !== text) {
      console.error('l10n/bundle.l10n.json is stale: run npm run l10n');
      process.exit(1);
    }
  } else {
    writeFileSync(BUNDLE, text);
    console.log(`${relative(ROOT, BUNDLE)}: ${Object.keys(bundle).length} strings`);
  }
}
