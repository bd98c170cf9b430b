import MarkdownIt from 'markdown-it';
import type { ImageRenderEnv } from './remoteImages';
import { placeholderText } from './remoteImages';
import * as l10n from '../shared/l10n';

// Pull request descriptions and comments are written by other people and shown inside a
// webview, so they are untrusted: raw HTML is never passed through (html: false) and only
// links a browser can open harmlessly survive. `command:` links would run VS Code commands,
// `javascript:`/`data:`/`vbscript:`/`file:` could run code or read the disk; a relative link
// has no meaning inside a webview. Everything not on the allow-list is refused and
// markdown-it then renders the source text literally.

const ALLOWED_LINK_SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'mailto']);
const ALLOWED_IMAGE_SCHEMES: ReadonlySet<string> = new Set(['https']);

function scheme(url: string): string | undefined {
  // markdown-it has already percent-encoded whitespace and control characters by the time the
  // validator runs, so "java\tscript:" arrives as "java%09script:" and has no valid scheme.
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url.trim());
  return m?.[1]?.toLowerCase();
}

/** True for the link targets the pull request view lets through. */
export function isSafeLink(url: string): boolean {
  const s = scheme(url);
  return s !== undefined && ALLOWED_LINK_SCHEMES.has(s);
}

/** Images are https only, and load only once the user asks (see remoteImages.ts). */
export function isSafeImageSource(url: string): boolean {
  const s = scheme(url);
  return s !== undefined && ALLOWED_IMAGE_SCHEMES.has(s);
}

/** A renderer of untrusted markdown to HTML that is safe to put inside a webview. */
export interface MarkdownRenderer {
  /** Without `env`, or with `env.images` 'blocked', https images become placeholders counted in `env.blocked`. */
  render(source: string, env?: ImageRenderEnv): string;
}

export function createMarkdownRenderer(): MarkdownRenderer {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
  md.validateLink = isSafeLink;

  // validateLink cannot tell a link from an image; refuse image sources that are not https by
  // turning the image into its alt text.
  const defaultImage = md.renderer.rules.image;
  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const src = token?.attrGet('src') ?? '';
    if (!token || !isSafeImageSource(src)) {
      return md.utils.escapeHtml(token?.content ?? '');
    }
    const e = env as Partial<ImageRenderEnv> | undefined;
    if (e?.images !== 'loaded') {
      if (e) e.blocked = (e.blocked ?? 0) + 1;
      return `<span class="remote-image" title="${l10n.tHtml('Image not loaded')}">${md.utils.escapeHtml(placeholderText(token.content, src))}</span>`;
    }
    return defaultImage ? defaultImage(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
  };

  const defaultLinkOpen = md.renderer.rules.link_open;
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    if (token) {
      token.attrSet('rel', 'noopener noreferrer');
    }
    return defaultLinkOpen ? defaultLinkOpen(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
  };

  return { render: (source: string, env?: ImageRenderEnv) => md.render(source, env ?? {}) };
}
