/** A database as methods take it: `{ owner, name }` (the wire's DatabaseRef has the same shape). */
export interface DbRef {
  readonly owner: string;
  readonly name: string;
}

/** The last, optional argument of every I/O method. */
export interface RequestOptions {
  signal?: AbortSignal;
}
