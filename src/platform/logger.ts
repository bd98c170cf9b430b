import type * as vscode from 'vscode';
import type { Logger } from '../core/logger';

/**
 * Wraps the one LogOutputChannel so every component logs with a tag, e.g. `[api] GET ... 200`.
 * The channel already satisfies `Logger`; the tag is what this adds.
 */
export function taggedLogger(channel: vscode.LogOutputChannel, tag: string): Logger {
  const p = (m: string): string => `[${tag}] ${m}`;
  return {
    trace: (m, ...a) => channel.trace(p(m), ...a),
    debug: (m, ...a) => channel.debug(p(m), ...a),
    info: (m, ...a) => channel.info(p(m), ...a),
    warn: (m, ...a) => channel.warn(p(m), ...a),
    error: (m, ...a) => (typeof m === 'string' ? channel.error(p(m), ...a) : channel.error(m, ...a)),
  };
}
