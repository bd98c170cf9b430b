// The one way any layer shows a person text: `l10n.t('Deleted {0}', name)`, with the English text
// as the key, as `vscode.l10n.t` takes it. Core, api, tree models and webviews cannot import
// vscode, so the function lives here and the translation behind it is installed once per runtime:
// - the extension host: `installHostL10n()` (src/platform/l10n.ts) routes every call to
//   `vscode.l10n.t`, which reads l10n/bundle.l10n.<locale>.json;
// - a webview: the host writes `vscode.l10n.bundle` into its page (`data-l10n` on <body>,
//   WebviewHost) and the page's script calls `useBundleJson` before it draws anything;
// - tests: nothing installed, the English text (placeholders filled), or `useBundle(pseudo)`.
// Keys are extracted by scripts/l10n-export.mjs into l10n/bundle.l10n.json;
// test/unit/l10n.test.ts fails when a visible literal bypasses l10n.t.

export type L10nArg = string | number | boolean;
export type Translator = (message: string, args: readonly L10nArg[]) => string;

/** `{0}`, `{1}`… replaced by the arguments, as vscode.l10n.t does. */
export function format(message: string, args: readonly L10nArg[]): string {
  return message.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole));
}

// Kept on globalThis, not in a module variable: the extension host loads some modules as bundles
// of their own (esbuild.mjs LAZY_MODULES: api.js, importFile.js…), each with its own copy of this
// file, and all of them must translate through the one installed translator.
const KEY = Symbol.for('versionedDb.l10n.translator');
const holder = globalThis as { [KEY]?: Translator };
const translator: Translator = (message, args) => (holder[KEY] ?? format)(message, args);

/** The text a person reads for `message` (English text as the key) in the current locale. */
export function t(message: string, ...args: L10nArg[]): string {
  return translator(message, args);
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * `t` for text inside HTML the host writes (the pull view): the translation is escaped, the
 * arguments are HTML already (escaped values, or markup such as <code>…</code>) and go in as they are.
 */
export function tHtml(message: string, ...htmlArgs: (string | number)[]): string {
  const marks = htmlArgs.map((_, i) => `\u0000${i}\u0000`);
  const text = translator(message, marks).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
  return text.replace(/\u0000(\d+)\u0000/g, (_, i: string) => String(htmlArgs[Number(i)] ?? ''));
}

/** Installs how `t` translates (the extension host's vscode.l10n.t). */
export function setTranslator(next: Translator): void {
  holder[KEY] = next;
}

/** Translates through a bundle (English text → translation), English where it has no entry. */
export function useBundle(bundle: Readonly<Record<string, string>> | undefined): void {
  holder[KEY] = bundle ? (m, args) => format(bundle[m] ?? m, args) : format;
}

/** A webview's start: the bundle the host wrote into the page, as JSON (absent in English). */
export function useBundleJson(json: string | undefined): void {
  if (!json) return;
  try {
    useBundle(JSON.parse(json) as Record<string, string>);
  } catch {
    useBundle(undefined);
  }
}

/**
 * The notebook renderer's bundle: its webview is VS Code's, with no <body data-l10n>, so the
 * renderer asks (`l10n.get`) and the host answers, and also sends it unasked when its messaging
 * starts (the renderer may load first). `bundle` is null in English.
 */
export type L10nBundleMessage = { type: 'l10n'; bundle: Record<string, string> | null };
export const L10N_REQUEST = { type: 'l10n.get' } as const;

export function isL10nRequest(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === L10N_REQUEST.type;
}

export function isL10nBundleMessage(raw: unknown): raw is L10nBundleMessage {
  return typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'l10n';
}
