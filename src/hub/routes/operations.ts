// Operations: a database's list and one operation by id.
import type { Operation } from '../../shared/wire';
import { notFound, quoted, sendData } from '../http';
import type { Ctx } from '../http';
import { route } from '../router';
import type { Route } from '../router';
import type { OperationRecord } from '../store';
import { DB, pageToken } from '../hubCommon';
import type { EndpointHost } from '../hubCommon';

export class OperationEndpoints {
  constructor(private readonly hub: EndpointHost) {}

  routes(): Route[] {
    return [
      route(`${DB}/operations`, { GET: (c, p) => this.listOperations(c, p) }),
      route('/operations/*id', { GET: (c, p) => this.getOperation(c, p) }),
    ];
  }

  private toOperation(op: OperationRecord): Operation {
    const out: Operation = { id: op.id, type: op.type, status: op.status, created_at: op.created_at, cancelable: false };
    if (op.status === 'failed' && op.error) out.error = op.error;
    if (op.status === 'succeeded' && op.result) out.result = op.result;
    if (op.ci) out.ci = op.ci;
    return out;
  }

  private async listOperations(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.hub.access(ctx, p, 'read');
    const all = this.hub.store.state.operations
      .filter((o) => o.db === a.key)
      .slice()
      .reverse()
      .map((o) => this.toOperation(o));
    const page = this.hub.paginator.page(`operations:${a.key}`, all, pageToken(ctx));
    sendData(ctx, 200, page.items, page.next ? { next_page_token: page.next } : {});
  }

  private async getOperation(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const id = p['id'] as string;
    const op = this.hub.store.state.operations.find((o) => o.id === id);
    const caller = this.hub.caller(ctx);
    const rec = op ? this.hub.store.state.databases[op.db] : undefined;
    if (!op) throw notFound(`Operation ${quoted(id, 200)} was not found.`);
    // A fork's source may be gone from view, but the record of the operation stays readable
    // to whoever can read the database it ran against.
    if (rec && !this.hub.canRead(rec, caller)) throw notFound(`Operation ${quoted(id, 200)} was not found.`);
    sendData(ctx, 200, this.toOperation(op));
  }
}
