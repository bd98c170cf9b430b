// The grid's scrolling element as the Viewport both windows read (gridWindow.ts is DOM-free):
// its size through a ResizeObserver, its scroll offsets with an idle report 150 ms after the last
// scroll event, and scrolling it.
//
// One scroll listener serves both axes: it reads both offsets before calling anyone back. With a
// listener per axis, the grid's render (a microtask, run as soon as the first listener returns)
// wrote the DOM between the two reads, so the second read forced a layout on every scroll event
// (the diff view's renderer profile, bench/RESULTS.md "Where the diff view's scroll spends its CPU").
import type { Size, Viewport } from './gridWindow';

type OffsetListener = { horizontal: boolean; cb: (offset: number, isScrolling: boolean) => void };

export function scrollerViewport(scroller: HTMLElement): Viewport {
  const view = scroller.ownerDocument.defaultView;
  const listeners = new Set<OffsetListener>();
  let idle: ReturnType<typeof setTimeout> | undefined;
  const report = (scrolling: boolean): void => {
    const left = scroller.scrollLeft;
    const top = scroller.scrollTop;
    for (const l of [...listeners]) l.cb(l.horizontal ? left : top, scrolling);
  };
  const onScroll = (): void => {
    report(true);
    if (idle) clearTimeout(idle);
    idle = setTimeout(() => {
      idle = undefined;
      report(false);
    }, 150);
  };
  return {
    observeSize: (cb: (s: Size) => void) => {
      const size = (): void => cb({ width: scroller.clientWidth, height: scroller.clientHeight });
      size();
      if (view && 'ResizeObserver' in view) {
        const ro = new view.ResizeObserver(size);
        ro.observe(scroller);
        return () => ro.disconnect();
      }
      return () => undefined;
    },
    observeOffset: (horizontal, cb) => {
      const l: OffsetListener = { horizontal, cb };
      if (listeners.size === 0) scroller.addEventListener('scroll', onScroll, { passive: true });
      listeners.add(l);
      cb(horizontal ? scroller.scrollLeft : scroller.scrollTop, false);
      return () => {
        listeners.delete(l);
        if (listeners.size > 0) return;
        if (idle) clearTimeout(idle);
        idle = undefined;
        scroller.removeEventListener('scroll', onScroll);
      };
    },
    scrollTo: (horizontal, offset) => {
      if (horizontal) scroller.scrollLeft = offset;
      else scroller.scrollTop = offset;
    },
  };
}
