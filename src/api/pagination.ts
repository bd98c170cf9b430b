import type { Envelope } from '../shared/wire';

/** One page of a paginated list. `nextPageToken` is opaque; absent means the last page. */
export interface Page<T> {
  items: T[];
  nextPageToken?: string;
}

/** Options of every paginated list method. */
export interface PageOptions {
  /** A `nextPageToken` from the previous page, passed back verbatim. */
  pageToken?: string;
  signal?: AbortSignal;
}

export function toPage<T>(envelope: Envelope<T[]>): Page<T> {
  // The transport has already refused a list answer whose `data` is not an array.
  const items = envelope.data;
  const token = envelope.meta?.next_page_token;
  return typeof token === 'string' && token !== '' ? { items, nextPageToken: token } : { items };
}

/**
 * Every item of a paginated list, fetching pages lazily:
 * `for await (const b of paginate((pageToken) => client.listBranches(db, { pageToken })))`.
 * Follows `nextPageToken` until it is absent or empty; a server that hands back a token it
 * already gave would loop forever, so that is an error.
 */
export async function* paginate<T>(fetchPage: (pageToken: string | undefined) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  let token: string | undefined;
  for (;;) {
    const page = await fetchPage(token);
    yield* page.items;
    const next = page.nextPageToken;
    if (next === undefined || next === '') return;
    if (seen.has(next)) throw new Error('The server repeated a page token; stopping to avoid an endless listing.');
    seen.add(next);
    token = next;
  }
}

/** All items of a paginated list in one array (for small lists such as branches of a database). */
export async function collectAll<T>(fetchPage: (pageToken: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of paginate(fetchPage)) all.push(item);
  return all;
}
