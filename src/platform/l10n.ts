// The extension host's side of src/shared/l10n.ts: every `l10n.t` in any layer goes through
// vscode.l10n.t (the bundle of the display language, l10n/bundle.l10n.<locale>.json), and webviews
// get the same bundle written into their page.
//
// VERSIONED_DB_L10N_BUNDLE (the path of a bundle file) replaces the display language's bundle: the
// pseudo-locale e2e run uses it (test/e2e/lib/pseudoL10n.mjs), as a translator can to see a
// translation in place. VS Code loads an extension's bundle only for a display language it has a
// language pack for, which a test machine does not.
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { setTranslator, useBundle, type L10nBundleMessage } from '../shared/l10n';

let override: Record<string, string> | undefined;

export function installHostL10n(env: NodeJS.ProcessEnv = process.env): void {
  const file = env['VERSIONED_DB_L10N_BUNDLE'];
  if (file) {
    override = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    useBundle(override);
    return;
  }
  setTranslator((message, args) => vscode.l10n.t(message, ...args));
}

function bundle(): Record<string, string> | undefined {
  return override ?? vscode.l10n.bundle;
}

/** The loaded bundle as JSON for a webview page's `data-l10n`, or '' in English (no bundle). */
export function webviewBundleJson(): string {
  const b = bundle();
  return b ? JSON.stringify(b) : '';
}

/** The bundle for the notebook renderer (see L10nBundleMessage). */
export function rendererBundleMessage(): L10nBundleMessage {
  return { type: 'l10n', bundle: bundle() ?? null };
}
