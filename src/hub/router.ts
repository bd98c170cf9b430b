// A routing table: path templates with `:params`, one handler per method. A known path with an
// unknown method is a 405 with `Allow`; an unknown path is a 404.
import type { Ctx } from './http';
import { HttpProblem, notFound, quoted } from './http';

export type Handler = (ctx: Ctx, params: Record<string, string>) => Promise<void>;

export interface Route {
  segments: string[];
  /** Last segment swallows the rest of the raw path, decoded as one value (operation ids). */
  rest?: string;
  methods: Partial<Record<'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', Handler>>;
}

export function route(template: string, methods: Route['methods']): Route {
  const parts = template.split('/').filter((s) => s !== '');
  const last = parts[parts.length - 1];
  if (last && last.startsWith('*')) {
    return { segments: parts.slice(0, -1), rest: last.slice(1), methods };
  }
  return { segments: parts, methods };
}

export function match(routes: Route[], rawPath: string, method: string): { handler: Handler; params: Record<string, string> } {
  const raw = rawPath.split('/').filter((s) => s !== '');
  let decoded: string[];
  try {
    decoded = raw.map((s) => decodeURIComponent(s));
  } catch {
    throw new HttpProblem(400, 'VALIDATION_FAILED', 'The path is not valid percent-encoding.');
  }
  for (const r of routes) {
    const params: Record<string, string> = {};
    if (r.rest !== undefined ? raw.length <= r.segments.length : raw.length !== r.segments.length) continue;
    let ok = true;
    for (let i = 0; i < r.segments.length; i++) {
      const seg = r.segments[i] as string;
      const val = decoded[i] as string;
      if (seg.startsWith(':')) params[seg.slice(1)] = val;
      else if (seg !== val) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    if (r.rest !== undefined) params[r.rest] = decoded.slice(r.segments.length).join('/');
    const handler = r.methods[method as keyof Route['methods']];
    if (!handler) {
      const allow = Object.keys(r.methods).join(', ');
      throw new HttpProblem(405, 'METHOD_NOT_ALLOWED', `${method} is not supported here; use ${allow}.`, { Allow: allow });
    }
    return { handler, params };
  }
  throw notFound(`No resource at ${quoted(rawPath, 200)}.`);
}
