// Finds the errors a user would be shown or that would hide a bug: error lines in the
// extension's own "Versioned DB" log, and what the extension host reports about this extension.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { waitFor, WaitTimeoutError } from '../../helpers/waitFor.cjs';
import { findFiles, readIfExists } from './codeServer.mjs';

export const EXTENSION_ID = 'versioned-db.versioned-db';
const ERROR_LINE = /^\d{4}-\d\d-\d\d[ T][\d:.]+ \[error\]/;
const ABOUT_US = /versioned-db|versionedDb|Versioned DB/;

/**
 * Reads log files incrementally so each scenario sees only the lines written while it ran. Every
 * scenario gets a new window (and extension host); `newWindow()` marks where each log file stood
 * then, so what earlier windows wrote is never read again.
 */
export class LogWatch {
  /** @param {string} logsRoot the user-data logs/ folder */
  constructor(logsRoot) {
    this.logsRoot = logsRoot;
    /** @type {Map<string, number>} read up to here, per file */
    this.offsets = new Map();
    /** @type {Map<string, number>} the length of each file when the current window opened */
    this.windowStart = new Map();
  }

  /** From now on only what is written after this call counts. */
  newWindow() {
    this.windowStart.clear();
    for (const f of findFiles(this.logsRoot, /\.log$/)) {
      const length = readIfExists(f).length;
      this.windowStart.set(f, length);
      this.offsets.set(f, length);
    }
  }

  extensionLogFiles() {
    return findFiles(this.logsRoot, /^(\d+-)?Versioned DB\.log$/);
  }

  hostLogFiles() {
    return findFiles(this.logsRoot, /^(remote)?exthost\d*\.log$/);
  }

  /** The extension log of the current window so far. */
  extensionLog() {
    return this.extensionLogFiles()
      .map((f) => readIfExists(f).slice(this.windowStart.get(f) ?? 0))
      .join('');
  }

  /** New text of `file` since the last call. */
  #fresh(file) {
    const text = readIfExists(file);
    const from = this.offsets.get(file) ?? 0;
    this.offsets.set(file, text.length);
    return text.slice(from);
  }

  /**
   * Writes what every log file got in the current window (the extension host's, the "Versioned
   * DB" channel's, the workbench's, the server's…) under `destDir`, at the same relative paths:
   * what a failed attempt needs to be diagnosed, since the next windows keep writing to the same
   * files. Called for a failed attempt only (a few files read once).
   */
  keepWindow(destDir) {
    for (const f of findFiles(this.logsRoot, /\.log$/)) {
      const text = readIfExists(f).slice(this.windowStart.get(f) ?? 0);
      if (!text) continue;
      const out = join(destDir, relative(this.logsRoot, f));
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, text);
    }
  }

  /**
   * Resolves once the logs read here have stopped growing: two looks `quietMs` apart find every
   * file the same size. The extension host writes its log lines on a background thread a moment
   * after they are logged, and no line can be asked for to mark that the earlier ones landed, so
   * this waits on the files themselves: for as long as they grow, up to `timeoutMs` (then the
   * check reads what is there).
   */
  async settled({ quietMs = 500, timeoutMs = 10_000 } = {}) {
    const sizes = () =>
      [...this.extensionLogFiles(), ...this.hostLogFiles()]
        .map((f) => {
          try {
            return `${f}:${statSync(f).size}`;
          } catch {
            return `${f}:-`;
          }
        })
        .join('\n');
    let last;
    await waitFor(
      'the logs to stop growing',
      () => {
        const now = sizes();
        const same = now === last;
        last = now;
        return same;
      },
      { timeoutMs, intervalMs: quietMs },
    ).catch((e) => {
      if (!(e instanceof WaitTimeoutError)) throw e;
    });
  }

  /**
   * Error lines (with the lines that continue them, e.g. stack frames) written since the last call.
   * Extension-host lines count only when they are about this extension.
   */
  newErrors() {
    const errors = [];
    for (const f of this.extensionLogFiles()) errors.push(...errorBlocks(this.#fresh(f)).map((b) => `Versioned DB log: ${b}`));
    for (const f of this.hostLogFiles()) {
      errors.push(
        ...errorBlocks(this.#fresh(f))
          .filter((b) => ABOUT_US.test(b))
          .map((b) => `extension host: ${b}`),
      );
    }
    return errors;
  }
}

/** Each `[error]` line plus the following lines that have no timestamp of their own. */
export function errorBlocks(text) {
  const lines = text.split('\n');
  const blocks = [];
  let current = null;
  for (const line of lines) {
    if (/^\d{4}-\d\d-\d\d[ T][\d:.]+ \[/.test(line)) {
      if (current) blocks.push(current.join('\n'));
      current = ERROR_LINE.test(line) ? [line] : null;
    } else if (current && line.trim()) {
      current.push(line);
    }
  }
  if (current) blocks.push(current.join('\n'));
  return blocks;
}

/** Browser console errors and page errors that name this extension (the workbench has its own noise). */
export function watchPage(page) {
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && ABOUT_US.test(msg.text())) errors.push(`browser console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => {
    const text = `${err.message}\n${err.stack ?? ''}`;
    if (ABOUT_US.test(text)) errors.push(`page error: ${text}`);
  });
  return { take: () => errors.splice(0, errors.length) };
}
