// While the grid leaps (a scrollbar drag, a jump of many rows), the rows on screen are drawn on one
// canvas kept in view over the body instead of as row elements; when the scroll settles (the idle
// report, scrollerViewport.ts) the row elements are drawn and the canvas hidden. Laying out and
// painting a screen of new row elements is most of what a leap costs the renderer
// (bench/RESULTS.md, "What a screen of new rows costs"; "A leap drawn on a canvas": the renderer
// spends about a third less a screen of new rows), and in the diff view it shares two cores with
// the hub. The row elements stay the grid's truth (focus,
// selection, editing, screen readers, tests); the canvas only shows, and nothing on it is
// interactive (pointer-events: none: a click lands on the grid as before).
//
// How each cell looks is read from the grid's own CSS (gridStyles.ts): for each combination of row
// and cell classes a hidden probe row gets those classes once per leap and its computed colours,
// font, alignment, padding and inset shadows are drawn. Cells say what they show through
// GridRowPainter.look, as the row elements do. Text is only ever drawn with fillText.
import type { GridModel } from './gridModel';
import type { WindowItem } from './gridWindow';
import type { GridRowPainter } from './gridRowPainter';
import type { RowSource } from './rowSource';
import { el } from './dom';
import { GUTTER_WIDTH, HEADER_HEIGHT, MOTION_TOP, ROW_HEIGHT } from './gridStyles';
import { type Paint, readPaint } from './gridMotionPaint';

/** What the probe cell's data-comments holds: drawn as the cell's own comment count. */
const COMMENT_COUNT = '\uE000';

export interface MotionFrame {
  first: number;
  last: number;
  /** The scroll offsets, vertical and horizontal. */
  top: number;
  left: number;
  /** The scrolled columns in view (content coordinates, model column indexes). */
  cols: readonly WindowItem[];
  /** The viewport's size (the scroller's client area). */
  width: number;
  height: number;
}

export class GridMotion {
  private readonly layer: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private ctx: CanvasRenderingContext2D | null = null;
  private probe: { row: HTMLElement; num: HTMLElement; cell: HTMLElement } | undefined;
  private readonly paints = new Map<string, Paint>();
  private shown = false;
  private bg = '';
  private font = '';
  /** The width of a wide glyph in `font`: text no longer than room / advance cannot overflow. */
  private advance = 0;
  /** Where `font`'s baseline sits below a row's top, and a line-through above the baseline. */
  private baseline = ROW_HEIGHT / 2;
  private strikeAt = 3;

  constructor(
    private readonly doc: Document,
    private readonly scroller: HTMLElement,
    parent: HTMLElement,
    before: HTMLElement,
    private readonly painter: GridRowPainter,
    private readonly model: GridModel,
    private readonly source: () => RowSource,
    private readonly frozen: number,
  ) {
    this.layer = el(doc, 'div', 'vdb-motion');
    this.layer.hidden = true;
    this.layer.setAttribute('aria-hidden', 'true');
    this.canvas = el(doc, 'canvas');
    this.layer.appendChild(this.canvas);
    parent.insertBefore(this.layer, before);
  }

  /**
   * Draws rows [first, last] as they sit at the frame's scroll offsets. Returns false (nothing
   * drawn) when a row there failed to load: its error and Retry need the row elements.
   */
  draw(f: MotionFrame): boolean {
    const src = this.source();
    for (let r = f.first; r <= f.last; r++) if (src.rowState(r) === 'failed') return false;
    const ctx = this.context(f);
    if (!ctx) return false;
    ctx.fillStyle = this.background();
    ctx.fillRect(0, 0, f.width, Math.max(0, f.height - MOTION_TOP));
    let frozenRight = GUTTER_WIDTH;
    for (let i = 0; i < this.frozen; i++) frozenRight += this.model.widths[i] ?? 100;
    let waiting = 0;
    for (let r = f.first; r <= f.last; r++) {
      // The canvas starts below the header and its border line (MOTION_TOP): row r starts at
      // HEADER_HEIGHT + r * ROW_HEIGHT - top in the viewport.
      const y = r * ROW_HEIGHT - f.top - (MOTION_TOP - HEADER_HEIGHT);
      const rowCls = this.painter.rowClass(r);
      if (src.rowState(r) !== 'ready') waiting++;
      for (const c of f.cols) {
        const x = c.start - f.left;
        if (x + c.size > frozenRight && x < f.width) this.cell(ctx, rowCls, r, c.index, '', x, y, c.size);
      }
      let x = GUTTER_WIDTH;
      for (let i = 0; i < this.frozen; i++) {
        const cw = this.model.widths[i] ?? 100;
        this.cell(ctx, rowCls, r, i, ' frozen', x, y, cw);
        x += cw;
      }
      this.gutter(ctx, rowCls, r, y);
    }
    this.layer.dataset.rows = `${f.first}-${f.last}`;
    this.layer.dataset.waiting = String(waiting);
    if (!this.shown) {
      this.layer.hidden = false;
      this.shown = true;
    }
    return true;
  }

  /** What shows behind the rows: the grid's background, else the nearest one behind it. */
  private background(): string {
    if (this.bg) return this.bg;
    const view = this.doc.defaultView;
    for (let e: HTMLElement | null = this.scroller; e && view; e = e.parentElement) {
      const c = view.getComputedStyle(e).backgroundColor;
      if (c && !/^(transparent|rgba\(0, 0, 0, 0\))$/.test(c)) return (this.bg = c);
    }
    return (this.bg = '#fff');
  }

  /** The row elements are drawn again: the canvas goes, and with it what it read of the CSS. */
  hide(): void {
    if (!this.shown) return;
    this.shown = false;
    this.layer.hidden = true;
    // Its pixels are let go (a screen of them is megabytes, and a notebook has a grid per result).
    this.canvas.width = 0;
    this.canvas.height = 0;
    this.probe?.row.remove();
    this.probe = undefined;
    this.paints.clear();
    this.bg = '';
  }

  dispose(): void {
    this.hide();
    this.layer.remove();
  }

  private context(f: MotionFrame): CanvasRenderingContext2D | null {
    const dpr = this.doc.defaultView?.devicePixelRatio ?? 1;
    const w = Math.max(1, Math.round(f.width * dpr));
    const h = Math.max(1, Math.round(Math.max(0, f.height - MOTION_TOP) * dpr));
    if (!this.ctx) this.ctx = this.canvas.getContext('2d', { alpha: false });
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
      this.canvas.style.width = `${f.width}px`;
      this.canvas.style.height = `${Math.max(0, f.height - MOTION_TOP)}px`;
      this.font = '';
    }
    this.ctx?.setTransform(dpr, 0, 0, dpr, 0, 0);
    return this.ctx;
  }

  private cell(
    ctx: CanvasRenderingContext2D,
    rowCls: string,
    r: number,
    col: number,
    extra: string,
    x: number,
    y: number,
    w: number,
  ): void {
    const look = this.painter.look(r, col, extra);
    const p = this.paintOf(rowCls, look.cls);
    this.box(ctx, p, x, y, w);
    if (look.text) this.text(ctx, p, look.text, p.color, x, y, w);
    else if (p.before) this.text(ctx, p, p.before.text, p.before.color, x, y, w);
    // The mark after the text (a long value's ⤢, a comment count), at its place from the right.
    const after = p.after;
    if (after && (after.text !== COMMENT_COUNT || look.comments > 0)) {
      if (this.font !== after.font) this.setFont(ctx, after.font);
      ctx.fillStyle = after.color;
      ctx.textAlign = 'right';
      ctx.fillText(after.text === COMMENT_COUNT ? String(look.comments) : after.text, x + w - after.right, y + this.baseline);
    }
  }

  private gutter(ctx: CanvasRenderingContext2D, rowCls: string, r: number, y: number): void {
    const { label, problems } = this.painter.gutter(r);
    const p = this.paintOf(rowCls, problems.length ? 'vdb-rownum invalid' : 'vdb-rownum', true);
    this.box(ctx, p, 0, y, GUTTER_WIDTH);
    this.text(ctx, p, label, p.color, 0, y, GUTTER_WIDTH);
  }

  /** The cell's backgrounds, its placeholder bar or corner mark, its inset lines and its outline. */
  private box(ctx: CanvasRenderingContext2D, p: Paint, x: number, y: number, w: number): void {
    for (const fill of p.layers) {
      ctx.fillStyle = fill;
      ctx.fillRect(x, y, w, ROW_HEIGHT);
    }
    if (p.bar) {
      ctx.fillStyle = p.bar;
      ctx.fillRect(x + 8, y + (ROW_HEIGHT - 6) / 2, Math.max(0, w * 0.6 - 8), 6);
    }
    if (p.corner) {
      ctx.fillStyle = p.corner;
      ctx.beginPath();
      ctx.moveTo(x + w - 10, y);
      ctx.lineTo(x + w, y);
      ctx.lineTo(x + w, y + 10);
      ctx.fill();
    }
    for (const s of p.shadows) {
      ctx.fillStyle = s.color;
      if (s.left > 0) ctx.fillRect(x, y, s.left, ROW_HEIGHT);
      if (s.right > 0) ctx.fillRect(x + w - s.right, y, s.right, ROW_HEIGHT);
      if (s.top > 0) ctx.fillRect(x, y, w, s.top);
      if (s.bottom > 0) ctx.fillRect(x, y + ROW_HEIGHT - s.bottom, w, s.bottom);
    }
    if (p.outline) {
      ctx.strokeStyle = p.outline;
      ctx.lineWidth = 1;
      ctx.strokeRect(x + 0.5, y + 0.5, w - 1, ROW_HEIGHT - 1);
    }
  }

  /**
   * A cell's text inside its padding: cut with an ellipsis where it would overflow, as the row
   * elements' text-overflow does, and struck through on a removed row.
   */
  private text(ctx: CanvasRenderingContext2D, p: Paint, text: string, color: string, x: number, y: number, w: number): void {
    if (this.font !== p.font) this.setFont(ctx, p.font);
    const room = w - p.padLeft - p.padRight;
    if (room <= 0) return;
    // Text that cannot overflow is drawn as it is; other text is measured and cut to fit.
    const shown = text.length * this.advance <= room ? text : fit(ctx, text, room);
    ctx.fillStyle = color;
    const baseline = y + this.baseline;
    const tx = p.right ? x + w - p.padRight : x + p.padLeft;
    ctx.textAlign = p.right ? 'right' : 'left';
    ctx.fillText(shown, tx, baseline);
    if (p.strike) {
      const tw = ctx.measureText(shown).width;
      ctx.fillRect(p.right ? tx - tw : tx, baseline - this.strikeAt, tw, 1);
    }
  }

  /**
   * A font for the text after it, with where its baseline sits in a row (as a line box of the row's
   * height places it: the font's ascent and descent centred) and where a line-through goes.
   */
  private setFont(ctx: CanvasRenderingContext2D, font: string): void {
    ctx.font = font;
    ctx.textBaseline = 'alphabetic';
    this.font = font;
    const m = ctx.measureText('Wx');
    this.advance = ctx.measureText('W').width;
    const ascent = m.fontBoundingBoxAscent || m.actualBoundingBoxAscent;
    const descent = m.fontBoundingBoxDescent || m.actualBoundingBoxDescent;
    this.baseline = Math.round((ROW_HEIGHT - (ascent + descent)) / 2 + ascent);
    this.strikeAt = Math.round(ctx.measureText('x').actualBoundingBoxAscent / 2);
  }

  /** How a cell of these classes looks, read once per leap from a hidden probe with those classes. */
  private paintOf(rowCls: string, cellCls: string, isNum = false): Paint {
    const focused = this.doc.activeElement === this.scroller;
    const key = `${rowCls}|${cellCls}|${focused}`;
    let p = this.paints.get(key);
    if (p) return p;
    const probe = this.probeOf();
    probe.row.className = rowCls;
    const target = isNum ? probe.num : probe.cell;
    target.className = cellCls;
    const view = this.doc.defaultView;
    p = readPaint(view, target);
    this.paints.set(key, p);
    return p;
  }

  private probeOf(): { row: HTMLElement; num: HTMLElement; cell: HTMLElement } {
    if (this.probe) return this.probe;
    const row = el(this.doc, 'div', 'vdb-row');
    row.hidden = true;
    const num = el(this.doc, 'div', 'vdb-rownum');
    const cell = el(this.doc, 'div', 'vdb-cell');
    // A comment count is shown as attr(data-comments): the probe's stands for any cell's count.
    cell.setAttribute('data-comments', COMMENT_COUNT);
    row.append(num, cell);
    this.layer.appendChild(row);
    this.probe = { row, num, cell };
    return this.probe;
  }
}

/** The longest start of `text` that fits `room` with an ellipsis after it (all of it when it fits). */
function fit(ctx: CanvasRenderingContext2D, text: string, room: number): string {
  // No more characters than could show (the narrowest glyphs are about a third of a wide one).
  let cut = text.length > room / 2 ? text.slice(0, Math.ceil(room / 2)) : text;
  const full = ctx.measureText(cut).width;
  if (full <= room && cut.length === text.length) return text;
  const ell = '…';
  let n = Math.floor((cut.length * (room - ctx.measureText(ell).width)) / Math.max(full, 1));
  while (n > 0 && ctx.measureText(cut.slice(0, n) + ell).width > room) n--;
  cut = cut.slice(0, Math.max(0, n));
  return cut + ell;
}
