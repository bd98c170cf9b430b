// How the engine refuses or ends a job, as types the hub classifies (hubServer.ts's
// engineProblem, the SQL route): never by message text.

/** A query that did not stop at its deadline was killed with its worker. */
export class EngineTimeoutError extends Error {}

/** The caller went away (its request was aborted) before its job ended. */
export class EngineCancelledError extends Error {}

/** The caller's share of the engine is taken: try again after `retryAfterSeconds`. */
export class EngineBusyError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** The worker running the request died (and was replaced); the request can be sent again. */
export class EngineUnavailableError extends Error {}

/** The engine was closed (the hub is stopping) before the job ended, or before it was asked. */
export class EngineShutDownError extends Error {
  constructor() {
    super('The hub is shutting down; send the request again once it is back.');
  }
}
