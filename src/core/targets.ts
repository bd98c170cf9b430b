// What a command or view acts on, as plain data: the one declaration every feature shares.
import type { DatabaseRef } from '../shared/wire';

/** A database on a host. */
export interface DatabaseTarget {
  readonly hostId: string;
  readonly db: DatabaseRef;
}

/** A pull request of a database on a host. */
export interface PullTarget extends DatabaseTarget {
  readonly pullNumber: number;
}
