// The pseudo-locale of issue #27: every message of l10n/bundle.l10n.json wrapped in ⟦ ⟧ (its
// placeholders and codicons kept), so a screenshot shows at a glance which text went through
// l10n.t and which did not. `E2E_PSEUDO_L10N=1 npm run test:e2e` writes it and starts code-server
// with VERSIONED_DB_L10N_BUNDLE pointing at it (src/platform/l10n.ts), and runs only the scenarios
// that export `pseudoL10n = true` (and those only then).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const PSEUDO_L10N = process.env.E2E_PSEUDO_L10N === '1';
export const OPEN = '⟦';
export const CLOSE = '⟧';

/** English text → the same text wrapped. */
export function pseudoBundle(english) {
  return Object.fromEntries(Object.keys(english).map((k) => [k, `${OPEN}${english[k]}${CLOSE}`]));
}

/** Writes the pseudo bundle made from the checkout's l10n/bundle.l10n.json into `dir`; its path. */
export function writePseudoBundle(root, dir) {
  const english = JSON.parse(readFileSync(join(root, 'l10n', 'bundle.l10n.json'), 'utf8'));
  const file = join(dir, 'bundle.l10n.qps-ploc.json');
  writeFileSync(file, JSON.stringify(pseudoBundle(english), null, 1));
  return file;
}

/**
 * The words of `text` outside ⟦ ⟧ that are not data: what is left must be empty. `data` lists the
 * names the hub holds (owners, databases, branches, tables, columns, values) as they appear.
 */
export function unwrappedWords(text, data) {
  let rest = text;
  for (;;) {
    const next = rest.replace(/⟦[^⟦⟧]*⟧/g, ' ');
    if (next === rest) break;
    rest = next;
  }
  const known = new Set(data.map((d) => String(d).toLowerCase()));
  return (rest.match(/\p{L}[\p{L}'_-]+/gu) ?? []).filter((w) => !known.has(w.toLowerCase()));
}
