// The extension host's side of src/shared/l10n.ts: every `l10n.t` in any layer goes through
// vscode.l10n.t (the bundle of the display language, l10n/bundle.l10n.<locale>.json), and webviews
// get the same bundle written into their page.
import * as vscode from 'vscode';
import { setTranslator, type L10nBundleMessage } from '../shared/l10n';

export function installHostL10n(): void {
  setTranslator((message, args) => vscode.l10n.t(message, ...args));
}

/** The loaded bundle as JSON for a webview page's `data-l10n`, or '' in English (no bundle). */
export function webviewBundleJson(): string {
  const bundle = vscode.l10n.bundle;
  return bundle ? JSON.stringify(bundle) : '';
}

/** The bundle for the notebook renderer (see L10nBundleMessage). */
export function rendererBundleMessage(): L10nBundleMessage {
  return { type: 'l10n', bundle: vscode.l10n.bundle ?? null };
}
