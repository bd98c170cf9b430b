// The grid's scrolling element as the Viewport both AxisWindows read (gridWindow.ts is DOM-free):
// its size through a ResizeObserver, its scroll offset per axis with an idle report 150 ms after
// the last scroll event, and scrolling it.
import type { Size, Viewport } from './gridWindow';

export function scrollerViewport(scroller: HTMLElement): Viewport {
  const view = scroller.ownerDocument.defaultView;
  return {
    observeSize: (cb: (s: Size) => void) => {
      const report = (): void => cb({ width: scroller.clientWidth, height: scroller.clientHeight });
      report();
      if (view && 'ResizeObserver' in view) {
        const ro = new view.ResizeObserver(report);
        ro.observe(scroller);
        return () => ro.disconnect();
      }
      return () => undefined;
    },
    observeOffset: (horizontal, cb) => {
      let idle: ReturnType<typeof setTimeout> | undefined;
      const read = (scrolling: boolean): void => cb(horizontal ? scroller.scrollLeft : scroller.scrollTop, scrolling);
      read(false);
      const onScroll = (): void => {
        read(true);
        if (idle) clearTimeout(idle);
        idle = setTimeout(() => read(false), 150);
      };
      scroller.addEventListener('scroll', onScroll, { passive: true });
      return () => {
        if (idle) clearTimeout(idle);
        scroller.removeEventListener('scroll', onScroll);
      };
    },
    scrollTo: (horizontal, offset) => {
      if (horizontal) scroller.scrollLeft = offset;
      else scroller.scrollTop = offset;
    },
  };
}
