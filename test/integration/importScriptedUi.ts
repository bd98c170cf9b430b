// A Ui for driving the import flow without a person: each question is answered by the start of
// its title. Used by the import integration tests (in the extension host, against the hub).
import { strict as assert } from 'node:assert';
import type { InputOptions, PickItem, PickOptions, ProgressReporter, Ui } from '../../src/platform/ui';

export type ScriptedAnswer = string | string[] | undefined | ((labels: string[]) => string | string[] | undefined);

export class ImportScriptedUi implements Ui {
  readonly asked: string[] = [];
  readonly messages: string[] = [];
  readonly progress: string[] = [];
  /** Called with each progress message; may abort the running task (cancel mid-upload). */
  onProgress: ((message: string, abort: () => void) => void) | undefined;

  constructor(private readonly script: Record<string, ScriptedAnswer>) {}

  private answer(title: string, labels: string[]): string | string[] | undefined {
    this.asked.push(title);
    const key = Object.keys(this.script).find((k) => title.startsWith(k));
    assert.ok(key !== undefined, `no answer scripted for "${title}" (offered: ${labels.join(', ')})`);
    const a = this.script[key];
    return typeof a === 'function' ? a(labels) : a;
  }
  async pick<T>(items: readonly PickItem<T>[] | Promise<readonly PickItem<T>[]>, o: PickOptions): Promise<T | undefined> {
    const list = await items;
    const a = this.answer(o.title, list.map((i) => i.label));
    if (a === undefined) return undefined;
    const found = list.find((i) => i.label === a);
    assert.ok(found, `"${String(a)}" is not offered in ${o.title}: ${list.map((i) => i.label).join(', ')}`);
    return found.value;
  }
  async pickOrType<T>(items: readonly PickItem<T>[] | Promise<readonly PickItem<T>[]>, o: PickOptions) {
    const list = await items;
    const a = this.answer(o.title, list.map((i) => i.label)) as string | undefined;
    if (a === undefined) return undefined;
    const found = list.find((i) => i.label === a);
    return found ? { value: found.value } : { typed: a };
  }
  async pickMany<T>(items: readonly PickItem<T>[], o: PickOptions): Promise<T[] | undefined> {
    const a = this.answer(o.title, items.map((i) => i.label));
    if (a === undefined) return undefined;
    const wanted = Array.isArray(a) ? a : [a];
    return items.filter((i) => wanted.includes(i.label)).map((i) => i.value);
  }
  async input(o: InputOptions): Promise<string | undefined> {
    const a = this.answer(o.title, []);
    const v = a === '' ? o.value : (a as string | undefined);
    if (v !== undefined) assert.equal(o.validate?.(v), undefined, `input "${v}" rejected`);
    return v;
  }
  async info(message: string): Promise<string | undefined> {
    this.messages.push(message);
    return undefined;
  }
  async confirm(message: string): Promise<boolean> {
    this.messages.push(message);
    return true;
  }
  async withProgress<T>(_title: string, task: (p: ProgressReporter, s: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    return task(
      {
        report: (m) => {
          this.progress.push(m);
          this.onProgress?.(m, () => controller.abort());
        },
      },
      controller.signal,
    );
  }
  async copy(): Promise<void> {}
  async openExternal(): Promise<boolean> {
    return true;
  }
  error(e: unknown): void {
    throw e;
  }
}
