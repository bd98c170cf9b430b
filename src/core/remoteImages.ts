// One policy for remote images in every webview: none is fetched until the user asks. Loading an
// image from a URL someone wrote in a pull description or comment tells that server the viewer's
// address and when they looked, so images render as placeholders with a "Load images" button,
// and the webview's CSP allows https images only once the user pressed it (for that view).
import * as l10n from '../shared/l10n';

export type RemoteImages = 'blocked' | 'loaded';

/** The CSP `img-src` of every webview: its own resources, plus https only when loaded. */
export function imgSrc(cspSource: string, images: RemoteImages): string {
  return images === 'loaded' ? `img-src ${cspSource} https:` : `img-src ${cspSource}`;
}

/** What a markdown render notes while it runs (markdown-it's `env`). */
export interface ImageRenderEnv {
  images: RemoteImages;
  /** How many remote images were shown as placeholders. */
  blocked: number;
}

export function imageEnv(images: RemoteImages): ImageRenderEnv {
  return { images, blocked: 0 };
}

/** The text standing for an image not loaded: its alt text and the host it would come from. */
export function placeholderText(alt: string, src: string): string {
  let host: string;
  try {
    host = new URL(src).host;
  } catch {
    host = '';
  }
  const label = alt.trim() === '' ? 'image' : alt.trim();
  return host === '' ? `[${label}]` : `[${label} · ${host}]`;
}

export const LOAD_IMAGES_NOTICE = (): string =>
  l10n.t('Remote images are not loaded: loading them tells their server your address and when you looked.');
