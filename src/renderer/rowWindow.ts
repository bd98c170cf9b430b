// Which rows are on screen when every row has the same height: arithmetic on the scroll offset,
// so its cost does not grow with the row count. The library's window (AxisWindow, gridWindow.ts)
// keeps one measurement object per item and rebuilds them all when the count changes: 85 ms and
// about 24 MB at a million rows, paid when a table browser's count arrives (issue #28). Columns,
// whose widths differ, keep AxisWindow. DOM-free like it: the viewport is passed in.
import type { Size, Viewport, WindowItem } from './gridWindow';

export interface RowWindowOptions {
  count: number;
  /** Every row's height. */
  size: number;
  /** Rows rendered beyond each edge of the viewport. */
  overscan: number;
  /** Space before the first row (the sticky header), also the area it hides when revealing. */
  paddingStart?: number;
  viewport: Viewport;
  /** Called when the rendered range changes (a scroll, a resize, a new count). */
  onChange: () => void;
}

export class RowWindow {
  private offset = 0;
  private viewSize = 0;
  private scrolling = false;
  /**
   * The scroll landed on rows none of which were rendered (a scrollbar drag, a jump): the rows on
   * screen are drawn alone and the overscan waits for the scroll to settle, since rows kept for a
   * small wheel step are of no use after a leap and drawing them made each far step dearer.
   */
  private leap = false;
  /**
   * Where reveal() (the keyboard) scrolled to: the scroll that lands there is not a leap, whatever
   * its length, since the active cell it brings into view is used at once (edited, announced,
   * copied). Only the next scroll is looked at (a reveal the browser did not scroll for must not
   * turn a later scrollbar drag into no leap).
   */
  private revealTo: number | undefined;
  private rendered: { first: number; last: number } | undefined;
  private lastKey = '';
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly opts: RowWindowOptions) {
    this.unsubscribe.push(
      opts.viewport.observeSize((s: Size) => {
        this.viewSize = s.height;
        this.notify();
      }),
      opts.viewport.observeOffset(false, (offset, scrolling) => {
        this.offset = offset;
        this.scrolling = scrolling;
        const seen = this.seen();
        const was = this.rendered;
        const revealed = this.revealTo !== undefined && Math.abs(offset - this.revealTo) <= 2;
        this.revealTo = undefined;
        this.leap = !revealed && scrolling && !!seen && !!was && (seen.last < was.first || seen.first > was.last);
        this.notify();
      }),
    );
  }

  private get pad(): number {
    return this.opts.paddingStart ?? 0;
  }

  /** The scroll is moving and landed on rows none of which were drawn (see `leap`). */
  get leaping(): boolean {
    return this.leap;
  }

  /** First and last row rendered (overscan included), or undefined when there are none. */
  range(): { first: number; last: number } | undefined {
    const seen = this.seen();
    if (!seen) return undefined;
    const overscan = this.leap ? 0 : this.opts.overscan;
    return { first: Math.max(0, seen.first - overscan), last: Math.min(this.opts.count - 1, seen.last + overscan) };
  }

  /** First and last row in the viewport, or undefined when there are none. */
  private seen(): { first: number; last: number } | undefined {
    const { count, size } = this.opts;
    if (count <= 0 || size <= 0) return undefined;
    // Rows whose span meets [offset, offset + viewSize), as the library counts them; an offset past
    // the end (a count that shrank before the scroller followed) counts as the end, as the DOM clamps it.
    const offset = Math.max(0, Math.min(this.offset, this.totalSize() - this.viewSize));
    const top = Math.max(0, offset - this.pad);
    const bottom = Math.max(top, offset + this.viewSize - this.pad);
    const first = Math.min(count - 1, Math.floor(top / size));
    return { first, last: Math.min(count - 1, Math.max(first, Math.ceil(bottom / size) - 1)) };
  }

  items(): WindowItem[] {
    const r = this.range();
    if (!r) return [];
    const out: WindowItem[] = [];
    for (let i = r.first; i <= r.last; i++) out.push({ index: i, start: this.startOf(i), size: this.opts.size });
    return out;
  }

  totalSize(): number {
    return this.pad + Math.max(0, this.opts.count) * this.opts.size;
  }

  /** Offset of a row's start, the padding before the first row included (where it is drawn). */
  startOf(index: number): number {
    return this.pad + index * this.opts.size;
  }

  setCount(count: number): void {
    this.opts.count = count;
    this.notify();
  }

  /**
   * Scrolls the least distance that brings the row fully into view, below the sticky header.
   * Synchronous, one step at a time, as keyboard navigation needs.
   */
  reveal(index: number): void {
    if (index < 0 || index >= this.opts.count) return;
    const start = this.startOf(index);
    const end = start + this.opts.size;
    const visibleStart = this.offset + this.pad;
    const visibleEnd = this.offset + this.viewSize;
    let target: number | undefined;
    if (start < visibleStart) target = start - this.pad;
    else if (end > visibleEnd) target = end - this.viewSize;
    if (target === undefined) return;
    this.revealTo = Math.max(0, target);
    this.opts.viewport.scrollTo(false, this.revealTo);
  }

  /** The current scroll offset and viewport height. */
  get scroll(): { offset: number; viewSize: number } {
    return { offset: this.offset, viewSize: this.viewSize };
  }

  private notify(): void {
    const r = this.range();
    this.rendered = r;
    const key = `${r?.first ?? -1}:${r?.last ?? -1}:${this.opts.count}:${this.scrolling}`;
    if (key === this.lastKey) return;
    this.lastKey = key;
    this.opts.onChange();
  }

  dispose(): void {
    for (const u of this.unsubscribe.splice(0)) u();
  }
}
