// The UI surface commands and sign-in flows use, as an interface so their logic is unit-tested
// with a scripted fake. The one real implementation (src/commands/vscodeUi.ts) calls `vscode.window`.
import type { ErrorContext } from '../core/errorMessages';

export interface PickItem<T> {
  readonly label: string;
  readonly description?: string;
  readonly detail?: string;
  readonly picked?: boolean;
  readonly value: T;
}

export interface PickOptions {
  readonly title: string;
  readonly placeholder?: string;
}

export interface InputOptions {
  readonly title: string;
  readonly prompt?: string;
  readonly placeholder?: string;
  readonly value?: string;
  /** Hide the text (tokens). */
  readonly password?: boolean;
  /** A message when the text is not acceptable yet, undefined when it is. */
  readonly validate?: (value: string) => string | undefined;
  /**
   * The text is markdown and may have several lines: the box offers to go on in an editor named this
   * (editText), and a starting value with line breaks opens there at once (a box would drop them).
   */
  readonly lines?: string;
}

export interface EditTextOptions {
  /** What the text is, as the editor's tab names it (e.g. "Suggested value"). */
  readonly name: string;
  /** Says what to do, with the text's context (shown when the editor opens). */
  readonly title: string;
  /** The text to start from. */
  readonly value: string;
  /** Markdown (a comment, a description): the editor highlights it as such. */
  readonly markdown?: boolean;
}

export interface ProgressReporter {
  report(message: string): void;
}

export interface Ui {
  /** The chosen value, or undefined when dismissed. */
  pick<T>(items: readonly PickItem<T>[] | Promise<readonly PickItem<T>[]>, options: PickOptions): Promise<T | undefined>;
  /** Like pick, but text typed into the box can be accepted as is (e.g. a pasted commit hash). */
  pickOrType<T>(
    items: readonly PickItem<T>[] | Promise<readonly PickItem<T>[]>,
    options: PickOptions,
  ): Promise<{ value: T } | { typed: string } | undefined>;
  pickMany<T>(items: readonly PickItem<T>[], options: PickOptions): Promise<T[] | undefined>;
  input(options: InputOptions): Promise<string | undefined>;
  /**
   * A text edited over several lines in an editor: resolves it when the person uses Use This Text,
   * undefined when they cancel or close the editor.
   */
  editText(options: EditTextOptions): Promise<string | undefined>;
  /** Shows an information message; resolves the action picked (without blocking the caller when not awaited). */
  info(message: string, ...actions: string[]): Promise<string | undefined>;
  /** A modal confirmation; true only when the confirm button was pressed. */
  confirm(message: string, confirmLabel: string, detail?: string): Promise<boolean>;
  /** A modal question with several answers; the one pressed, or undefined when dismissed. */
  choose(message: string, actions: readonly string[], detail?: string): Promise<string | undefined>;
  /** A cancellable progress notification; the signal aborts when the user cancels. */
  withProgress<T>(title: string, task: (progress: ProgressReporter, signal: AbortSignal) => Promise<T>): Promise<T>;
  copy(text: string): Promise<void>;
  openExternal(url: string): Promise<boolean>;
  /** reportError (src/commands/reportError.ts): never throws, silent for cancellation. */
  error(error: unknown, context?: ErrorContext): void;
}
