// How a grid cell looks, read from its computed style, in the terms a canvas draws it
// (gridMotion.ts): background layers, the placeholder's bar, the invalid cell's corner mark, inset
// shadows as bands along the edges, the outline, the text's colour, font, alignment and padding,
// and the marks its ::before and ::after add. Only what gridStyles.ts uses is understood.

/** A band along each edge of the cell, from an inset box-shadow without blur. */
export interface Bands {
  color: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export interface Paint {
  /** Colours filled over the whole cell, in order. */
  layers: string[];
  /** A placeholder's bar (a row not loaded yet). */
  bar?: string;
  /** An invalid cell's corner mark. */
  corner?: string;
  shadows: Bands[];
  outline?: string;
  color: string;
  font: string;
  right: boolean;
  strike: boolean;
  padLeft: number;
  padRight: number;
  /** What ::before adds where the cell has no text (an editable grid's empty string). */
  before?: { text: string; color: string };
  /** What ::after adds at the right (attr() resolved on the element read). */
  after?: { text: string; color: string; right: number; font: string };
}

const COLOR = /rgba?\([^)]*\)|#[0-9a-f]{3,8}\b/gi;
const TRANSPARENT = /^(transparent|rgba\(0, 0, 0, 0\))$/;

export function readPaint(view: Window | null | undefined, target: HTMLElement): Paint {
  const st = view?.getComputedStyle(target);
  if (!st) return plain();
  const layers: string[] = [];
  if (!TRANSPARENT.test(st.backgroundColor)) layers.push(st.backgroundColor);
  const p: Paint = {
    layers,
    shadows: insetBands(st.boxShadow),
    color: st.color,
    font: fontOf(st),
    right: st.textAlign === 'right' || st.textAlign === 'end',
    strike: st.textDecorationLine.includes('line-through'),
    padLeft: parseFloat(st.paddingLeft) || 0,
    padRight: parseFloat(st.paddingRight) || 0,
  };
  gradient(p, st.backgroundImage, target.classList.contains('placeholder'));
  if (st.outlineStyle !== 'none' && parseFloat(st.outlineWidth) > 0) p.outline = st.outlineColor;
  const before = view?.getComputedStyle(target, '::before');
  const beforeText = before ? contentText(before.content) : undefined;
  if (before && beforeText) p.before = { text: beforeText, color: before.color };
  const after = view?.getComputedStyle(target, '::after');
  const afterText = after ? contentText(after.content) : undefined;
  if (after && afterText) p.after = { text: afterText, color: after.color, right: parseFloat(after.right) || 0, font: fontOf(after) };
  return p;
}

/** A computed style's font as the canvas takes it. */
function fontOf(st: CSSStyleDeclaration): string {
  return `${st.fontStyle} ${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
}

function plain(): Paint {
  return { layers: [], shadows: [], color: '#000', font: '12px monospace', right: false, strike: false, padLeft: 6, padRight: 6 };
}

/**
 * A background image: the placeholder's bar (its second colour), a corner mark (an angled
 * gradient), or a tint laid over the background colour (a gradient of one colour, as frozen cells
 * use to stay opaque).
 */
function gradient(p: Paint, image: string, placeholder: boolean): void {
  if (!image || image === 'none') return;
  const colors = image.match(COLOR) ?? [];
  if (placeholder) p.bar = colors[1] ?? colors[0];
  else if (/\d+deg/.test(image)) p.corner = colors[0];
  else if (colors[0] && !TRANSPARENT.test(colors[0])) p.layers.push(colors[0]);
}

/** Inset shadows without blur as the bands they paint: the box minus itself shrunk and shifted. */
export function insetBands(boxShadow: string): Bands[] {
  if (!boxShadow || boxShadow === 'none') return [];
  const out: Bands[] = [];
  for (const one of boxShadow.split(/,(?![^(]*\))/)) {
    if (!/\binset\b/.test(one)) continue;
    const color = one.match(COLOR)?.[0];
    if (!color) continue;
    const [dx = 0, dy = 0, , spread = 0] = (one.replace(COLOR, '').match(/-?[\d.]+px/g) ?? []).map((n) => parseFloat(n));
    const bands = { color, left: spread + dx, right: spread - dx, top: spread + dy, bottom: spread - dy };
    if (bands.left > 0 || bands.right > 0 || bands.top > 0 || bands.bottom > 0) out.push(bands);
  }
  return out;
}

/** A pseudo-element's computed content as text (a quoted string; attr() comes resolved), or undefined. */
export function contentText(content: string): string | undefined {
  if (!content || content === 'none' || content === 'normal') return undefined;
  const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(content);
  return quoted ? (quoted[1] ?? '').replace(/\\(.)/g, '$1') : undefined;
}
