// Opaque, tamper-evident cursors: base64url(JSON{list, offset, issued}) + "." + HMAC. A token
// edited by hand, minted for another list, or older than a day is refused with 400.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest } from './http';

const MAX_AGE_MS = 24 * 60 * 60 * 1000;

export class Paginator {
  constructor(
    private readonly secret: string,
    readonly pageSize: number,
  ) {}

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }

  encode(list: string, offset: number): string {
    const payload = Buffer.from(JSON.stringify({ l: list, o: offset, t: Date.now() })).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  decode(list: string, token: string): number {
    const bad = badRequest('Parameter "page_token" is not a valid page token for this list; start again from the first page.');
    const [payload, mac] = token.split('.');
    if (!payload || !mac) throw bad;
    const want = Buffer.from(this.sign(payload));
    const got = Buffer.from(mac);
    if (want.length !== got.length || !timingSafeEqual(want, got)) throw bad;
    let parsed: { l?: unknown; o?: unknown; t?: unknown };
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof parsed;
    } catch {
      throw bad;
    }
    if (parsed.l !== list || typeof parsed.o !== 'number' || typeof parsed.t !== 'number') throw bad;
    if (Date.now() - parsed.t > MAX_AGE_MS) throw badRequest('Parameter "page_token" has expired; start again from the first page.');
    return parsed.o;
  }

  /** One page of `items` and the token of the next page, if any. */
  page<T>(list: string, items: T[], token: string | null): { items: T[]; next?: string } {
    const offset = token ? this.decode(list, token) : 0;
    if (offset > items.length)
      throw badRequest('Parameter "page_token" points past the end of the list (it is stale); start again from the first page.');
    const slice = items.slice(offset, offset + this.pageSize);
    const end = offset + slice.length;
    return end < items.length ? { items: slice, next: this.encode(list, end) } : { items: slice };
  }
}
