// A scrolling element without a DOM, for the grid's window tests (gridWindow, rowWindow).
import type { Size, Viewport } from '../../src/renderer/gridWindow';

/** A scrolling element without a DOM: tests move it and read what the window renders. */
export class FakeViewport implements Viewport {
  size: Size = { width: 800, height: 440 };
  offsets = { x: 0, y: 0 };
  private sizeCbs: ((s: Size) => void)[] = [];
  private offCbs: { h: boolean; cb: (o: number, s: boolean) => void }[] = [];
  observeSize(cb: (s: Size) => void): () => void {
    this.sizeCbs.push(cb);
    cb(this.size);
    return () => undefined;
  }
  observeOffset(h: boolean, cb: (o: number, s: boolean) => void): () => void {
    this.offCbs.push({ h, cb });
    cb(h ? this.offsets.x : this.offsets.y, false);
    return () => undefined;
  }
  scrollTo(h: boolean, offset: number): void {
    if (h) this.offsets.x = offset;
    else this.offsets.y = offset;
    for (const o of this.offCbs) if (o.h === h) o.cb(offset, false);
  }
  /** A scroll in progress (a wheel step, a scrollbar drag): reported as scrolling, as the grid's viewport does. */
  scroll(h: boolean, offset: number): void {
    if (h) this.offsets.x = offset;
    else this.offsets.y = offset;
    for (const o of this.offCbs) if (o.h === h) o.cb(offset, true);
  }
  /** The scroll settled: the idle report after the last scroll event. */
  settle(): void {
    for (const o of this.offCbs) o.cb(o.h ? this.offsets.x : this.offsets.y, false);
  }
  resize(s: Size): void {
    this.size = s;
    for (const cb of this.sizeCbs) cb(s);
  }
}
