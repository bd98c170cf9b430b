/**
 * The logging surface the non-VS Code layers (api, core, hub) write to. VS Code's
 * LogOutputChannel satisfies it structurally; tests pass a recording logger.
 * Callers must never pass secrets: the api layer redacts before it logs.
 */
export interface Logger {
  trace(message: string, ...args: unknown[]): void;
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string | Error, ...args: unknown[]): void;
}

export const silentLogger: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
