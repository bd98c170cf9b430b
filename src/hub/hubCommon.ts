// What the hub's endpoint modules share with the server that hosts them.
import type { Ctx } from './http';
import type { Author } from './engineProtocol';
import type { Engine } from './engine';
import type { BranchRef, Operation, OperationRef, OperationResult } from '../shared/wire';
import type { DatabaseRecord, OperationRecord, PullRecord, Store, UserRecord } from './store';
import type { HubOptions } from './hubServer';

export interface Caller {
  user: UserRecord;
}

/** A database the caller was allowed to reach, and who the caller is. */
export interface Access {
  rec: DatabaseRecord;
  key: string;
  path: string;
  caller?: Caller;
}

/** The server as endpoint modules see it. */
export interface EndpointHost {
  readonly store: Store;
  readonly engine: Engine;
  readonly opts: HubOptions;
  readonly uploadUrl: string;
  access(ctx: Ctx, p: Record<string, string>, need: 'read' | 'write' | 'auth-read'): Access;
  author(c: Caller): Author;
  branchNames(a: Access): Promise<Set<string>>;
  newOperation(key: string, type: Operation['type'], c: Caller): OperationRecord;
  runOperation(op: OperationRecord, work: () => Promise<OperationResult>): void;
  operationRef(ctx: Ctx, op: OperationRecord): OperationRef;
  addPull(key: string, creator: string, title: string, description: string, from: BranchRef, to: BranchRef): PullRecord;
}

/** A failure an operation records as its OperationError. */
export class OpFailure extends Error {
  constructor(readonly status: number, readonly code: string, readonly title: string, detail: string) {
    super(detail);
  }
}

export function now(): string {
  return new Date().toISOString();
}
