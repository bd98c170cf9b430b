// Messages between the Resolve view's page (src/webview/resolve.ts) and its host
// (src/views/resolvePanel.ts). The page shows server text, so the host accepts only what parses here.

export type ResolveSide = 'ours' | 'theirs';

/** Webview → host. `row` is a row's key (JSON of its key values); a side without `row` is for the table. */
export type ResolveWebviewMessage =
  | { type: 'ready' }
  | { type: 'pick'; table: string; row: string; column: string; side: ResolveSide }
  | { type: 'typed'; table: string; row: string; column: string; value: string | null }
  | { type: 'side'; table: string; row?: string; side: ResolveSide }
  | { type: 'apply' };

/** Host → webview. */
export type ResolveHostMessage = { type: 'update'; html: string } | { type: 'busy'; busy: boolean };

const MAX = 65_536;
const str = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX;
const side = (v: unknown): v is ResolveSide => v === 'ours' || v === 'theirs';

export function parseResolveMessage(raw: unknown): ResolveWebviewMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  switch (m['type']) {
    case 'ready':
    case 'apply':
      return { type: m['type'] };
    case 'pick':
      return str(m['table']) && str(m['row']) && str(m['column']) && side(m['side'])
        ? { type: 'pick', table: m['table'], row: m['row'], column: m['column'], side: m['side'] }
        : undefined;
    case 'typed':
      return str(m['table']) && str(m['row']) && str(m['column']) && (m['value'] === null || str(m['value']))
        ? { type: 'typed', table: m['table'], row: m['row'], column: m['column'], value: m['value'] }
        : undefined;
    case 'side':
      return str(m['table']) && (m['row'] === undefined || str(m['row'])) && side(m['side'])
        ? { type: 'side', table: m['table'], side: m['side'], ...(m['row'] !== undefined ? { row: m['row'] } : {}) }
        : undefined;
    default:
      return undefined;
  }
}
