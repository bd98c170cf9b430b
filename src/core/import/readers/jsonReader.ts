import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import Parser = require('stream-json/Parser');
import { ImportParseError } from '../importParseError';
import type { TableReader } from '../tableReader';
import { JsonNumber, objectTable } from './objectRows';

interface Token {
  name: string;
  value?: string;
}

/**
 * `[ {...}, ... ]` or `{ "rows": [ {...}, ... ] }`, streamed element by element. Elements are
 * assembled here from stream-json's tokens (not its Assembler) so that every number, nested
 * ones included, keeps its exact text.
 */
export async function openJsonReader(filePath: string, options: { signal?: AbortSignal }): Promise<TableReader> {
  const { first, bomBytes } = await jsonStart(filePath);
  const file = createReadStream(filePath, { start: bomBytes, ...(options.signal ? { signal: options.signal } : {}) });
  const parser = new Parser({ packValues: true, streamValues: false });
  pipeline(file, parser, () => undefined); // errors are taken from the parser below
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    file.destroy();
    parser.destroy();
  };
  const values = assembledRows(parser, new RowsAssembler(first === '['), () => closed);
  return objectTable('json', values, close, options.signal);
}

/** The first character that says which of the two shapes the file has (after a BOM, if any). */
async function jsonStart(filePath: string): Promise<{ first: '[' | '{'; bomBytes: number }> {
  const { first, bomBytes } = await firstSignificantChar(filePath);
  if (first === undefined) {
    throw new ImportParseError('the file is empty. Put the rows in a list of objects, e.g. [{"id": 1}].', {
      fileType: 'json',
      reason: 'empty',
    });
  }
  if (first !== '[' && first !== '{') {
    throw new ImportParseError('the file must start with "[" (a list of row objects) or "{" (an object with a "rows" list).', {
      fileType: 'json',
      reason: 'bad-syntax',
      line: 1,
    });
  }
  return { first, bomBytes };
}

/**
 * The rows array's elements as the parser's tokens assemble them, one by one. The parser pauses
 * while HIGH_WATER elements wait to be taken, so memory stays bounded whatever the file size.
 */
function assembledRows(parser: Parser, assembler: RowsAssembler, isClosed: () => boolean): AsyncIterator<unknown> {
  const HIGH_WATER = 512;
  let failure: unknown;
  let ended = false;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  parser.on('data', (token: Token) => {
    try {
      assembler.feed(token);
    } catch (err) {
      failure = err;
      parser.destroy();
      notify();
      return;
    }
    if (assembler.ready.length >= HIGH_WATER) parser.pause();
    if (assembler.ready.length > 0) notify();
  });
  parser.on('end', () => {
    ended = true;
    notify();
  });
  parser.on('error', (err: Error) => {
    failure ??= err;
    notify();
  });
  let count = 0;
  return {
    async next(): Promise<IteratorResult<unknown>> {
      for (;;) {
        if (assembler.ready.length > 0) {
          count++;
          const value = assembler.ready.shift();
          if (assembler.ready.length < HIGH_WATER / 2 && parser.isPaused()) parser.resume();
          return { done: false, value };
        }
        if (failure !== undefined) throw translate(failure, count + 1);
        if (ended || isClosed()) return { done: true, value: undefined };
        if (parser.isPaused()) parser.resume();
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}

function translate(err: unknown, row: number): unknown {
  if (err instanceof ImportParseError) return err;
  if (err instanceof Error && /^Parser cannot parse input/.test(err.message)) {
    return new ImportParseError(
      `the JSON is not valid in or just before this row (${err.message.replace(/^Parser cannot parse input: /, '')}). ` +
        'Check for a missing comma, quote or bracket.',
      { fileType: 'json', reason: 'bad-syntax', row, cause: err },
    );
  }
  return err;
}

/** Builds the elements of the rows array from parser tokens. */
class RowsAssembler {
  readonly ready: unknown[] = [];
  /** 0: before the rows array; 1: inside it; 2: after it. */
  private phase = 0;
  private depth = 0; // nesting depth in the document
  private rowsDepth = -1; // depth of the rows array's contents
  private pendingKey: string | undefined;
  private stack: (unknown[] | Record<string, unknown>)[] = [];
  private keys: (string | undefined)[] = [];

  constructor(private readonly topLevelArray: boolean) {}

  feed(t: Token): void {
    switch (t.name) {
      case 'startObject':
      case 'startArray':
        return this.start(t.name);
      case 'endObject':
      case 'endArray':
        return this.end();
      case 'keyValue':
        return this.key(t.value);
      default:
        return this.scalar(t);
    }
  }

  private start(kind: 'startObject' | 'startArray'): void {
    this.depth++;
    if (this.phase === 0) {
      if (this.topLevelArray && this.depth === 1 && kind === 'startArray') {
        this.enterRows();
        return;
      }
      if (!this.topLevelArray && this.depth === 2 && this.pendingKey === 'rows') {
        if (kind !== 'startArray') throw notAList();
        this.enterRows();
        return;
      }
      if (!this.topLevelArray && this.depth === 2) this.pendingKey = undefined;
      return;
    }
    if (this.phase === 1) this.push(kind === 'startObject' ? {} : []);
  }

  private end(): void {
    this.depth--;
    if (this.phase !== 1) return;
    if (this.depth < this.rowsDepth) {
      this.phase = 2;
      return;
    }
    const done = this.stack.pop();
    this.keys.pop();
    this.value(done);
  }

  private key(name: string | undefined): void {
    if (this.phase === 0 && !this.topLevelArray && this.depth === 1) this.pendingKey = name;
    else if (this.phase === 1 && this.stack.length > 0) this.keys[this.keys.length - 1] = name;
  }

  private scalar(t: Token): void {
    if (this.phase === 0) {
      if (!this.topLevelArray && this.depth === 1 && this.pendingKey === 'rows') throw notAList();
      if (this.depth === 1) this.pendingKey = undefined;
      return;
    }
    if (this.phase !== 1) return;
    const v = scalarOf(t);
    if (v !== undefined || t.name === 'nullValue') this.value(v);
  }

  private enterRows(): void {
    this.phase = 1;
    this.rowsDepth = this.depth;
  }

  private push(container: unknown[] | Record<string, unknown>): void {
    this.stack.push(container);
    this.keys.push(undefined);
  }

  private value(v: unknown): void {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined) {
      this.ready.push(v);
    } else if (Array.isArray(top)) {
      top.push(v);
    } else {
      top[this.keys[this.keys.length - 1] ?? ''] = v;
    }
  }
}

/** A scalar token's value (numbers keep their text); undefined for tokens that are not values. */
function scalarOf(t: Token): unknown {
  switch (t.name) {
    case 'stringValue':
      return t.value;
    case 'numberValue':
      return new JsonNumber(t.value ?? '0');
    case 'nullValue':
      return null;
    case 'trueValue':
      return true;
    case 'falseValue':
      return false;
    default:
      return undefined;
  }
}

function notAList(): ImportParseError {
  return new ImportParseError('"rows" must be a list of objects, e.g. {"rows": [{"id": 1}]}.', { fileType: 'json', reason: 'bad-syntax' });
}

/** The first non-blank character, and how many bytes of UTF-8 BOM precede the JSON (the parser rejects a BOM). */
async function firstSignificantChar(filePath: string): Promise<{ first: string | undefined; bomBytes: number }> {
  const handle = await open(filePath, 'r');
  try {
    const buf = Buffer.alloc(4096);
    let bomBytes = 0;
    for (let chunk = 0; ; chunk++) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) return { first: undefined, bomBytes };
      let text = buf.subarray(0, bytesRead).toString('utf8');
      if (chunk === 0 && text.startsWith('\uFEFF')) {
        bomBytes = 3;
        text = text.slice(1);
      }
      const m = /\S/.exec(text);
      if (m) return { first: m[0], bomBytes };
    }
  } finally {
    await handle.close();
  }
}
