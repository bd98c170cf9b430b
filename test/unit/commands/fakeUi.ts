// A scripted Ui for command and sign-in logic: each prompt takes the next step of the script and
// fails the test when the prompt is not the one the script expects.
import { strict as assert } from 'node:assert';
import type { ErrorContext } from '../../../src/core/errorMessages';
import type { InputOptions, PickItem, PickOptions, ProgressReporter, Ui } from '../../../src/platform/ui';

type Kind = 'pick' | 'pickOrType' | 'pickMany' | 'input' | 'confirm' | 'infoAction';
export interface Step {
  kind: Kind;
  answer: (call: { items: readonly PickItem<unknown>[]; options: PickOptions | InputOptions | { title: string }; message?: string }) => unknown;
}

export const pick = (label: string): Step => ({
  kind: 'pick',
  answer: ({ items }) => {
    const item = items.find((i) => i.label === label || i.label.endsWith(` ${label}`));
    assert.ok(item, `no item "${label}" among ${items.map((i) => i.label).join(', ')}`);
    return item.value;
  },
});
export const pickOrType = (label: string): Step => ({
  kind: 'pickOrType',
  answer: ({ items }) => {
    const item = items.find((i) => i.label === label || i.label.endsWith(` ${label}`));
    assert.ok(item, `no item "${label}" among ${items.map((i) => i.label).join(', ')}`);
    return { value: item.value };
  },
});
export const typeInPicker = (text: string): Step => ({ kind: 'pickOrType', answer: () => ({ typed: text }) });
export const pickMany = (...labels: string[]): Step => ({
  kind: 'pickMany',
  answer: ({ items }) => items.filter((i) => labels.includes(i.label)).map((i) => i.value),
});
export const input = (text: string | undefined, expectValid = true): Step => ({
  kind: 'input',
  answer: ({ options }) => {
    const validate = (options as InputOptions).validate;
    if (text !== undefined && validate && expectValid) assert.equal(validate(text), undefined, `input "${text}" should be valid`);
    return text;
  },
});
export const dismiss = (kind: Kind): Step => ({ kind, answer: () => undefined });
export const clickInfo = (action: string | undefined): Step => ({ kind: 'infoAction', answer: () => action });

export class FakeUi implements Ui {
  readonly infos: string[] = [];
  readonly errors: { error: unknown; context: ErrorContext | undefined }[] = [];
  readonly copied: string[] = [];
  readonly opened: string[] = [];
  readonly progress: string[] = [];
  readonly prompts: string[] = [];

  constructor(private readonly steps: Step[]) {}

  /** Steps the code never asked for. */
  remaining(): number {
    return this.steps.length;
  }

  private next(kind: Kind, call: Parameters<Step['answer']>[0]): unknown {
    const step = this.steps.shift();
    assert.ok(step, `unexpected ${kind} prompt "${call.options.title}" (${'prompt' in call.options ? call.options.prompt : ''})`);
    assert.equal(step.kind, kind, `expected a ${step.kind} prompt, got ${kind} "${call.options.title}"`);
    this.prompts.push(`${kind}: ${'prompt' in call.options && call.options.prompt ? call.options.prompt : (call.options as PickOptions).placeholder ?? call.options.title}`);
    return step.answer(call);
  }

  async pick<T>(items: readonly PickItem<T>[] | Promise<readonly PickItem<T>[]>, options: PickOptions): Promise<T | undefined> {
    return this.next('pick', { items: await items, options }) as T | undefined;
  }

  async pickOrType<T>(items: readonly PickItem<T>[] | Promise<readonly PickItem<T>[]>, options: PickOptions) {
    return this.next('pickOrType', { items: await items, options }) as { value: T } | { typed: string } | undefined;
  }

  async pickMany<T>(items: readonly PickItem<T>[], options: PickOptions): Promise<T[] | undefined> {
    return this.next('pickMany', { items, options }) as T[] | undefined;
  }

  async input(options: InputOptions): Promise<string | undefined> {
    return this.next('input', { items: [], options }) as string | undefined;
  }

  async info(message: string, ...actions: string[]): Promise<string | undefined> {
    this.infos.push(message);
    if (actions.length === 0) return undefined;
    return this.next('infoAction', { items: [], options: { title: message }, message }) as string | undefined;
  }

  async confirm(message: string): Promise<boolean> {
    return this.next('confirm', { items: [], options: { title: message } }) === true;
  }

  async withProgress<T>(title: string, task: (p: ProgressReporter, signal: AbortSignal) => Promise<T>): Promise<T> {
    this.progress.push(title);
    return task({ report: (m) => this.progress.push(`  ${m}`) }, new AbortController().signal);
  }

  async copy(text: string): Promise<void> {
    this.copied.push(text);
  }

  async openExternal(url: string): Promise<boolean> {
    this.opened.push(url);
    return true;
  }

  error(error: unknown, context?: ErrorContext): void {
    this.errors.push({ error, context });
  }
}

export class MemoryState {
  private readonly map = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    const v = this.map.get(key);
    return v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.map.set(key, JSON.parse(JSON.stringify(value)));
  }
}

export class MemorySecrets {
  readonly map = new Map<string, string>();
  async get(key: string): Promise<string | undefined> {
    return this.map.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.map.set(key, value);
  }
  async delete(key: string): Promise<void> {
    this.map.delete(key);
  }
}

export const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
