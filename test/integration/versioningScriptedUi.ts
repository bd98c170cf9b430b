// A person who knows what to click, for F1's integration tests (auth, tree, versioning): answers
// prompts from a queue by label or text, records messages and errors, and runs progress under a
// real VS Code notification.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { InputOptions, PickItem, PickOptions, ProgressReporter, Ui } from '../../src/platform/ui';

/** `{ typed }` answers a pickOrType with typed text; a string picks the item with that label. */
export type Answer = string | { typed: string } | boolean | undefined;

export class ScriptedUi implements Ui {
  answers: Answer[] = [];
  readonly infos: string[] = [];
  readonly errors: unknown[] = [];
  readonly copied: string[] = [];
  readonly opened: string[] = [];

  private next(what: string): Answer {
    assert.ok(this.answers.length > 0, `the script ran out of answers at "${what}"`);
    return this.answers.shift();
  }

  private find<T>(list: readonly PickItem<T>[], want: string): PickItem<T> {
    const found = list.find((i) => i.label === want || i.label.endsWith(` ${want}`));
    assert.ok(found, `"${want}" is not offered: ${list.map((i) => i.label).join(', ')}`);
    return found;
  }

  async pick<T>(items: readonly PickItem<T>[] | Promise<readonly PickItem<T>[]>, o: PickOptions): Promise<T | undefined> {
    const list = await items;
    const want = this.next(o.title);
    return want === undefined ? undefined : this.find(list, String(want)).value;
  }

  async pickOrType<T>(items: readonly PickItem<T>[] | Promise<readonly PickItem<T>[]>, o: PickOptions) {
    const list = await items;
    const want = this.next(o.title);
    if (want === undefined) return undefined;
    if (typeof want === 'object') return { typed: want.typed };
    return { value: this.find(list, String(want)).value };
  }

  async pickMany<T>(items: readonly PickItem<T>[], o: PickOptions): Promise<T[] | undefined> {
    const want = this.next(o.title);
    if (want === undefined) return undefined;
    const labels = String(want).split(',').filter(Boolean);
    return items.filter((i) => labels.includes(i.label)).map((i) => i.value);
  }

  async input(o: InputOptions): Promise<string | undefined> {
    const text = this.next(o.prompt ?? o.title);
    if (typeof text === 'string' && o.validate) assert.equal(o.validate(text), undefined, `"${text}" refused by the input box`);
    return text as string | undefined;
  }

  async info(message: string, ...actions: string[]): Promise<string | undefined> {
    this.infos.push(message);
    return actions.length ? (this.next(message) as string | undefined) : undefined;
  }

  async confirm(message: string): Promise<boolean> {
    return this.next(message) === true;
  }

  withProgress<T>(title: string, task: (p: ProgressReporter, s: AbortSignal) => Promise<T>): Promise<T> {
    return Promise.resolve(
      vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, (progress) =>
        task({ report: (message) => progress.report({ message }) }, new AbortController().signal),
      ),
    );
  }

  async copy(text: string): Promise<void> {
    this.copied.push(text);
  }

  async openExternal(url: string): Promise<boolean> {
    this.opened.push(url);
    return true;
  }

  error(error: unknown): void {
    this.errors.push(error);
  }
}
