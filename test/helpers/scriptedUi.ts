// The one scripted Ui (src/platform/ui.ts) for every test that drives command, sign-in or import
// logic without a person: it answers each prompt from a script, fails the test when a prompt has no
// answer or offers no such item, and records what a user would have seen.
//
// Two ways to script it:
//  - a queue: answers in the order the prompts come (`new ScriptedUi([pick('main'), input('dev')])`
//    checks each prompt's kind too; plain replies such as `['main', 'dev']` answer any kind);
//  - by title: `new ScriptedUi({ 'Import: branch': 'main', 'Import: table': ['a', 'b'] })` answers
//    each prompt whose title starts with a key (a list answers successive prompts, its last reply
//    repeats).
import { strict as assert } from 'node:assert';
import type { ErrorContext } from '../../src/core/errorMessages';
import type { EditTextOptions, InputOptions, PickItem, PickOptions, ProgressReporter, Ui } from '../../src/platform/ui';
import { typedAnswer } from '../../src/core/pickOrder';

export type PromptKind = 'pick' | 'pickOrType' | 'pickMany' | 'input' | 'editText' | 'confirm' | 'choose' | 'infoAction';

export interface Prompt {
  readonly kind: PromptKind;
  readonly title: string;
  readonly items: readonly PickItem<unknown>[];
  readonly labels: string[];
  readonly input?: InputOptions;
  /** An editor's text asked for: what it starts from. */
  readonly edit?: EditTextOptions;
}

/**
 * A label to pick (exact, or after a codicon: "main" picks "$(git-branch) main"); for a pick-or-type
 * box a label not offered is typed text, and `{ typed }` always is; several labels (or "a,b") for a
 * multi-pick; text for an input box ('' accepts the box's own value when it has one); true/false for
 * a confirmation; an action for a message that offers some; undefined dismisses; or a function of
 * the offered labels (and the whole prompt).
 */
export type Reply =
  | string
  | readonly string[]
  | { readonly typed: string }
  | { readonly lines: string }
  | boolean
  | undefined
  | ((labels: string[], prompt: Prompt) => Reply);

/** A queued answer that also checks which kind of prompt it answers. */
export interface Step {
  readonly kind: PromptKind;
  readonly reply: Reply;
  /** input only: the text may be refused by the box's validation (the test checks the refusal). */
  readonly mayBeInvalid?: boolean;
}

export const pick = (label: string): Step => ({ kind: 'pick', reply: label });
/** Picks an offered item in a pick-or-type box (fails when it is not offered). */
export const pickOrType = (label: string): Step => ({
  kind: 'pickOrType',
  reply: (_labels, p) => {
    assert.ok(findItem(p.items, label), `no item "${label}" among ${p.labels.join(', ')}`);
    return label;
  },
});
export const typeInPicker = (text: string): Step => ({ kind: 'pickOrType', reply: { typed: text } });
export const pickMany = (...labels: string[]): Step => ({ kind: 'pickMany', reply: labels });
export const input = (text: string | undefined, expectValid = true): Step => ({ kind: 'input', reply: text, mayBeInvalid: !expectValid });
/** Goes on from an input box in the editor it offers for several lines, and writes `text` there. */
export const inputLines = (text: string): Step => ({ kind: 'input', reply: { lines: text } });
/** The text an editor holds when Use This Text is chosen (undefined: cancelled or closed). */
export const editText = (text: string | undefined): Step => ({ kind: 'editText', reply: text });
export const confirm = (yes: boolean): Step => ({ kind: 'confirm', reply: yes });
/** Presses one of a modal's answers (undefined dismisses it). */
export const choose = (action: string | undefined): Step => ({ kind: 'choose', reply: action });
export const dismiss = (kind: PromptKind): Step => ({ kind, reply: undefined });
export const clickInfo = (action: string | undefined): Step => ({ kind: 'infoAction', reply: action });

export interface ScriptedUiOptions {
  /** 'record' (default) keeps reported errors in `errors`; 'throw' fails the test at once. */
  readonly errors?: 'record' | 'throw';
  /**
   * Whether a message that offers actions takes the next queued answer (default true). When false
   * it resolves `infoAnswer` if offered, else nothing.
   */
  readonly answerMessages?: boolean;
  /** Runs a progress task, e.g. under a real VS Code notification in the extension host. */
  readonly runProgress?: <T>(title: string, task: (report: (message: string) => void) => Promise<T>) => Promise<T>;
}

export class ScriptedUi implements Ui {
  /** Information messages shown, in order. */
  readonly infos: string[] = [];
  readonly confirms: string[] = [];
  /** The detail text of each confirmation, in order (undefined where there was none). */
  readonly confirmDetails: (string | undefined)[] = [];
  readonly errors: unknown[] = [];
  readonly errorContexts: (ErrorContext | undefined)[] = [];
  readonly copied: string[] = [];
  readonly opened: string[] = [];
  readonly progressTitles: string[] = [];
  /** Progress messages reported, in order. */
  readonly progress: string[] = [];
  /** Every pick shown: title, labels (a multi-pick's as "[x] label" / "[ ] label") and details. */
  /** Each pick shown: its labels, details and the labels it offered picked (preselected). */
  readonly picks: { title: string; labels: string[]; details: (string | undefined)[]; picked: string[] }[] = [];
  readonly inputs: InputOptions[] = [];
  /** Every text asked for in an editor, in order. */
  readonly edits: EditTextOptions[] = [];
  /** Titles of every prompt, in order. */
  readonly asked: string[] = [];
  /** The action picked on a message that offers it, when messages take no queued answer. */
  infoAnswer: string | undefined;
  /** Called with each progress message; `abort` cancels the running task (cancel mid-upload). */
  onProgress: ((message: string, abort: () => void) => void) | undefined;

  private readonly queue: (Step | Reply)[];
  /** The answers by title (undefined for a queue); a test may add to them before a run. */
  readonly byTitle: Record<string, Reply | readonly Reply[]> | undefined;

  constructor(
    script: readonly (Step | Reply)[] | Record<string, Reply | readonly Reply[]> = [],
    private readonly options: ScriptedUiOptions = {},
  ) {
    if (Array.isArray(script)) {
      this.queue = [...(script as readonly (Step | Reply)[])];
      this.byTitle = undefined;
    } else {
      this.queue = [];
      this.byTitle = { ...(script as Record<string, Reply | readonly Reply[]>) };
    }
  }

  /** Queues more answers. */
  answer(...replies: (Step | Reply)[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Queued answers the code never asked for. */
  remaining(): number {
    return this.queue.length;
  }

  private reply(prompt: Prompt): Reply {
    this.asked.push(prompt.title);
    let reply: Reply;
    let mayBeInvalid = false;
    if (this.byTitle) {
      const key = Object.keys(this.byTitle).find((k) => prompt.title.startsWith(k));
      if (key === undefined && prompt.kind === 'confirm') return true;
      assert.ok(key !== undefined, `no answer scripted for ${prompt.kind} "${prompt.title}" (offered: ${prompt.labels.join(', ')})`);
      const scripted = this.byTitle[key];
      if (Array.isArray(scripted) && prompt.kind !== 'pickMany') {
        assert.ok(scripted.length > 0, `the script ran out of answers for "${prompt.title}"`);
        reply = scripted[0];
        if (scripted.length > 1) this.byTitle[key] = scripted.slice(1);
      } else {
        reply = scripted as Reply;
      }
    } else {
      assert.ok(this.queue.length > 0, `the script ran out of answers at ${prompt.kind} "${prompt.title}"`);
      const next = this.queue.shift();
      if (isStep(next)) {
        assert.equal(next.kind, prompt.kind, `expected a ${next.kind} prompt, got ${prompt.kind} "${prompt.title}"`);
        reply = next.reply;
        mayBeInvalid = next.mayBeInvalid === true;
      } else {
        reply = next;
      }
    }
    while (typeof reply === 'function') reply = reply(prompt.labels, prompt);
    if (prompt.kind === 'input' && typeof reply === 'object' && reply !== null && 'lines' in reply) {
      // Written over several lines in the editor the box offers (InputOptions.lines).
      assert.ok(prompt.input?.lines !== undefined, `"${prompt.title}" offers no editor for several lines`);
      this.edits.push({ name: prompt.input.lines, title: prompt.input.title, value: prompt.input.value ?? '' });
      return reply.lines;
    }
    if (prompt.kind === 'input' && typeof reply === 'string') {
      const text = reply === '' && prompt.input?.value !== undefined ? prompt.input.value : reply;
      if (!mayBeInvalid && prompt.input?.validate)
        assert.equal(prompt.input.validate(text), undefined, `input "${text}" is refused by the box`);
      return text;
    }
    return reply;
  }

  async pick<T>(items: readonly PickItem<T>[] | Promise<readonly PickItem<T>[]>, options: PickOptions): Promise<T | undefined> {
    const list = await items;
    const reply = this.reply(this.shown('pick', options.title, list));
    if (reply === undefined) return undefined;
    const found = findItem(list, String(reply));
    assert.ok(found, `"${String(reply)}" is not offered in ${options.title}: ${list.map((i) => i.label).join(', ')}`);
    return found.value;
  }

  async pickOrType<T>(
    items: readonly PickItem<T>[] | Promise<readonly PickItem<T>[]>,
    options: PickOptions,
  ): Promise<{ value: T } | { typed: string } | undefined> {
    const list = await items;
    const reply = this.reply(this.shown('pickOrType', options.title, list));
    if (reply === undefined) return undefined;
    // As the real box: a typed name of a choice answers that choice (src/core/pickOrder.ts typedAnswer).
    if (typeof reply === 'object' && 'typed' in reply) return typedAnswer(list, reply.typed);
    const found = findItem(list, String(reply));
    return found ? { value: found.value } : { typed: String(reply) };
  }

  async pickMany<T>(items: readonly PickItem<T>[], options: PickOptions): Promise<T[] | undefined> {
    const prompt = this.shown('pickMany', options.title, items);
    this.picks[this.picks.length - 1]!.labels = items.map((i) => `${i.picked ? '[x]' : '[ ]'} ${i.label}`);
    const reply = this.reply(prompt);
    if (reply === undefined) return undefined;
    const labels = typeof reply === 'string' ? reply.split(',').filter(Boolean) : (reply as readonly string[]);
    return items.filter((i) => labels.includes(i.label)).map((i) => i.value);
  }

  async input(options: InputOptions): Promise<string | undefined> {
    this.inputs.push(options);
    const reply = this.reply({
      kind: 'input',
      title: options.prompt ? `${options.title}: ${options.prompt}` : options.title,
      items: [],
      labels: [],
      input: options,
    });
    return reply === undefined ? undefined : String(reply);
  }

  async editText(options: EditTextOptions): Promise<string | undefined> {
    this.edits.push(options);
    const reply = this.reply({ kind: 'editText', title: options.title, items: [], labels: [], edit: options });
    return reply === undefined ? undefined : String(reply);
  }

  async info(message: string, ...actions: string[]): Promise<string | undefined> {
    this.infos.push(message);
    if (actions.length === 0) return undefined;
    if (this.options.answerMessages === false || this.byTitle)
      return this.infoAnswer !== undefined && actions.includes(this.infoAnswer) ? this.infoAnswer : undefined;
    const reply = this.reply({ kind: 'infoAction', title: message, items: [], labels: actions });
    return reply === undefined ? undefined : String(reply);
  }

  async confirm(message: string, _label?: string, detail?: string): Promise<boolean> {
    this.confirms.push(message);
    this.confirmDetails.push(detail);
    return this.reply({ kind: 'confirm', title: message, items: [], labels: [] }) === true;
  }

  async choose(message: string, actions: readonly string[], detail?: string): Promise<string | undefined> {
    this.confirms.push(message);
    this.confirmDetails.push(detail);
    const reply = this.reply({ kind: 'choose', title: message, items: [], labels: [...actions] });
    if (reply === undefined) return undefined;
    assert.ok(actions.includes(String(reply)), `"${String(reply)}" is not an answer of "${message}": ${actions.join(', ')}`);
    return String(reply);
  }

  async withProgress<T>(title: string, task: (progress: ProgressReporter, signal: AbortSignal) => Promise<T>): Promise<T> {
    this.progressTitles.push(title);
    const controller = new AbortController();
    const run = (report: (message: string) => void): Promise<T> =>
      task(
        {
          report: (message) => {
            this.progress.push(message);
            report(message);
            this.onProgress?.(message, () => controller.abort());
          },
        },
        controller.signal,
      );
    return this.options.runProgress ? this.options.runProgress(title, run) : run(() => undefined);
  }

  async copy(text: string): Promise<void> {
    this.copied.push(text);
  }

  async openExternal(url: string): Promise<boolean> {
    this.opened.push(url);
    return true;
  }

  error(error: unknown, context?: ErrorContext): void {
    if (this.options.errors === 'throw') throw error;
    this.errors.push(error);
    this.errorContexts.push(context);
  }

  private shown(kind: PromptKind, title: string, items: readonly PickItem<unknown>[]): Prompt {
    const labels = items.map((i) => i.label);
    this.picks.push({
      title,
      labels: [...labels],
      details: items.map((i) => i.detail),
      picked: items.filter((i) => i.picked).map((i) => i.label),
    });
    return { kind, title, items, labels };
  }
}

function isStep(value: Step | Reply): value is Step {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'kind' in value && 'reply' in value;
}

function findItem<T>(items: readonly PickItem<T>[], label: string): PickItem<T> | undefined {
  return items.find((i) => i.label === label) ?? items.find((i) => i.label.endsWith(` ${label}`));
}
