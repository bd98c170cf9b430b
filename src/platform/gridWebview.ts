// The HTML of every webview that shows the result grid (the SQL result panel, the table browser,
// the review views): one strict CSP (a nonce'd script and style, the webview's own fonts, no
// remote images), one root element, one script from dist/.
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { imgSrc } from '../core/remoteImages';

/** Options for a panel that shows the grid: scripts on, only dist/ readable, kept when hidden. */
export function gridWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist')],
    retainContextWhenHidden: true,
  };
}

/** The page: `script` is a file in dist/ (e.g. `resultPanel.js`). */
export function gridWebviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, script: string, title: string): string {
  const nonce = randomBytes(16).toString('base64');
  const src = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', script));
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    `font-src ${webview.cspSource}`,
    // The one image policy of every webview: nothing remote unless the user asks (these views never do).
    imgSrc(webview.cspSource, 'blocked'),
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(title)}</title></head>
<body><div id="root"></div><script nonce="${nonce}" src="${src.toString()}"></script></body></html>`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
