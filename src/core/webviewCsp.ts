// The Content-Security-Policy of every webview page (grids, the Changes view, the pull request
// view): nothing runs or styles but what carries the page's nonce, fonts and styles come only from
// the webview's own resources, no forms, frames or base URL, and images as `images` says (remote
// ones only after the user asks: src/core/remoteImages.ts).
import { imgSrc, type RemoteImages } from './remoteImages';

export function webviewCsp(cspSource: string, nonce: string, images: RemoteImages = 'blocked'): string {
  return [
    `default-src 'none'`,
    imgSrc(cspSource, images),
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    `form-action 'none'`,
    `base-uri 'none'`,
    `frame-src 'none'`,
  ].join('; ');
}
