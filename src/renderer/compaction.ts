// A whole result's cells moved from the parsed row arrays into the compact store, in idle time
// for large results (DOM: requestIdleCallback), so the first paint and scrolling never wait.
import { ColumnStore, ColumnStoreBuilder, type CellRows } from '../shared/columnStore';

/**
 * Results up to this many cells convert to the compact store before the first paint (a few
 * ms); larger ones paint from the row arrays and convert in idle time, a chunk at a time.
 */
const SYNC_COMPACT_CELLS = 50_000;
/** Most conversion work per callback, so a frame (scrolling, the first paint) never waits long. */
const COMPACT_SLICE_MS = 8;

/**
 * Moves the cells from the parsed row arrays into a ColumnStore (about a third of the heap the
 * arrays take), at once for small results, else in idle time so scrolling stays smooth; `store`
 * gets the result. `done` also settles when cancelled (disposed mid-conversion), so nobody waits
 * forever.
 */
export function compactRows(
  view: (Window & typeof globalThis) | null,
  rows: CellRows,
  columnCount: number,
  store: (s: ColumnStore) => void,
): { done: Promise<void>; cancel: (() => void) | undefined } {
  if (rows.length * columnCount <= SYNC_COMPACT_CELLS) {
    store(ColumnStore.fromRows(rows, columnCount));
    return { done: Promise.resolve(), cancel: undefined };
  }
  let cancel: (() => void) | undefined;
  const done = new Promise<void>((resolve) => {
    let builder: ColumnStoreBuilder | undefined;
    let handle: number | undefined;
    const schedule = (): void => {
      // Idle callbacks run in the time a frame leaves over; the timeout keeps the conversion
      // moving during a long scroll.
      handle = view?.requestIdleCallback ? view.requestIdleCallback(slice, { timeout: 250 }) : (setTimeout(slice, 0) as unknown as number);
    };
    const slice = (deadline?: IdleDeadline): void => {
      handle = undefined;
      // Created here, not before the first paint: its offset arrays take a few ms to allocate.
      builder ??= new ColumnStoreBuilder(rows, columnCount);
      const until = performance.now() + COMPACT_SLICE_MS;
      const idle = deadline && !deadline.didTimeout ? deadline : undefined;
      while (!builder.step()) {
        if (performance.now() >= until || (idle && idle.timeRemaining() < 1)) {
          schedule();
          return;
        }
      }
      store(builder.finish());
      resolve();
    };
    cancel = () => {
      if (handle !== undefined) {
        if (view?.cancelIdleCallback) view.cancelIdleCallback(handle);
        else clearTimeout(handle);
      }
      resolve();
    };
    schedule();
  });
  return { done, cancel };
}
