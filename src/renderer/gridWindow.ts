// Which rows and columns are on screen: one @tanstack/virtual-core Virtualizer per axis.
// DOM-free: the viewport (size, scroll offset, how to scroll) is passed in, so the window is
// unit-tested in Node with a fake viewport and the grid passes tanstack's element observers.
import { Virtualizer } from '@tanstack/virtual-core';

export interface Size {
  width: number;
  height: number;
}

/** The scrolling element as the window sees it. */
export interface Viewport {
  /** Calls back with the viewport's size now and whenever it changes; returns an unsubscribe. */
  observeSize(cb: (size: Size) => void): () => void;
  /** Calls back with the scroll offset on this axis now and on every scroll; returns an unsubscribe. */
  observeOffset(horizontal: boolean, cb: (offset: number, isScrolling: boolean) => void): () => void;
  scrollTo(horizontal: boolean, offset: number): void;
}

export interface WindowItem {
  index: number;
  start: number;
  size: number;
}

export interface AxisWindowOptions {
  horizontal: boolean;
  count: number;
  sizeOf: (index: number) => number;
  /** Items rendered beyond each edge of the viewport. */
  overscan: number;
  /** Space before the first item (e.g. the sticky header above the rows). */
  paddingStart?: number;
  /** The viewport area hidden by a sticky header (or row gutter) on this axis. */
  scrollPaddingStart?: number;
  viewport: Viewport;
  onChange: () => void;
}

// The library types the scroll element as a DOM Element; this module never touches it, so a
// token object stands in (the grid passes the real element only through `viewport`).
type ScrollToken = object;

export class AxisWindow {
  private readonly v: Virtualizer<never, never>;
  private readonly unmount: () => void;
  private readonly token: ScrollToken = {};
  private offset = 0;
  private viewSize = 0;

  constructor(private readonly opts: AxisWindowOptions) {
    const { viewport, horizontal } = opts;
    const v = new Virtualizer<never, never>({
      count: opts.count,
      horizontal,
      overscan: opts.overscan,
      paddingStart: opts.paddingStart ?? 0,
      scrollPaddingStart: opts.scrollPaddingStart ?? 0,
      estimateSize: (i) => this.opts.sizeOf(i),
      getScrollElement: () => this.token as never,
      observeElementRect: (_inst, cb) =>
        viewport.observeSize((s) => {
          this.viewSize = horizontal ? s.width : s.height;
          cb(s);
        }),
      observeElementOffset: (_inst, cb) =>
        viewport.observeOffset(horizontal, (offset, scrolling) => {
          this.offset = offset;
          cb(offset, scrolling);
        }),
      scrollToFn: (offset, o) => viewport.scrollTo(horizontal, offset + (o.adjustments ?? 0)),
      onChange: () => this.opts.onChange(),
      // Sizes are known up front (fixed row height, model column widths): never measure DOM.
      useAnimationFrameWithResizeObserver: false,
    });
    this.v = v;
    this.unmount = v._didMount();
    v._willUpdate();
  }

  items(): WindowItem[] {
    return this.v.getVirtualItems().map((it) => ({ index: it.index, start: it.start, size: it.size }));
  }

  /** First and last index currently rendered (overscan included), or undefined when empty. */
  range(): { first: number; last: number } | undefined {
    const items = this.v.getVirtualItems();
    if (items.length === 0) return undefined;
    return { first: (items[0] as { index: number }).index, last: (items[items.length - 1] as { index: number }).index };
  }

  totalSize(): number {
    return this.v.getTotalSize();
  }

  /** Offset of an item's start, the padding before the first item included (where it is drawn). */
  startOf(index: number): number {
    const m = this.v.measurementsCache[index];
    return m ? m.start : 0;
  }

  setCount(count: number): void {
    this.opts.count = count;
    this.v.setOptions({ ...this.v.options, count });
    this.v._willUpdate();
    this.v.measure();
  }

  /** Space before the first item (and hidden by sticky content) changed, e.g. a frozen column resized. */
  setPaddingStart(px: number): void {
    this.opts.paddingStart = px;
    this.opts.scrollPaddingStart = px;
    this.v.setOptions({ ...this.v.options, paddingStart: px, scrollPaddingStart: px });
    this.v._willUpdate();
    this.v.measure();
  }

  /** Call after sizes changed (column resize). */
  remeasure(): void {
    this.v.measure();
  }

  /**
   * Scrolls the least distance that brings the item fully into view, below the sticky area
   * (`scrollPaddingStart`). Done here rather than by the library's animated scrollToIndex so
   * keyboard navigation moves exactly one step and stays synchronous.
   */
  reveal(index: number): void {
    const m = this.v.measurementsCache[index];
    if (!m) return;
    const hidden = this.opts.scrollPaddingStart ?? 0;
    const visibleStart = this.offset + hidden;
    const visibleEnd = this.offset + this.viewSize;
    let target: number | undefined;
    if (m.start < visibleStart) target = m.start - hidden;
    else if (m.end > visibleEnd) target = m.end - this.viewSize;
    if (target !== undefined) this.opts.viewport.scrollTo(this.opts.horizontal, Math.max(0, target));
  }

  /** The current scroll offset and viewport length on this axis. */
  get scroll(): { offset: number; viewSize: number } {
    return { offset: this.offset, viewSize: this.viewSize };
  }

  dispose(): void {
    this.unmount();
  }
}
