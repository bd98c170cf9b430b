import * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import type { EditTextOptions, InputOptions, PickItem, PickOptions, ProgressReporter, Ui } from '../platform/ui';
import type { TextEditPrompt } from './textEditPrompt';
import type { ErrorContext } from '../core/errorMessages';
import { reportError } from './reportError';
import { keepNamedFirst, plainLabel, typedAnswer } from '../core/pickOrder';
import * as l10n from '../shared/l10n';

type Item<T> = vscode.QuickPickItem & { value?: T; typed?: string };

/** The real UI: `vscode.window` behind the Ui interface the command logic is written against. */
export class VscodeUi implements Ui {
  constructor(
    private readonly log: Logger,
    private readonly texts: Pick<TextEditPrompt, 'edit'>,
  ) {}

  async pick<T>(items: readonly PickItem<T>[] | Promise<readonly PickItem<T>[]>, options: PickOptions): Promise<T | undefined> {
    const mapped: Promise<Item<T>[]> = Promise.resolve(items).then((list) =>
      list.map((i): Item<T> => ({ ...toQuickPickItem(i), value: i.value })),
    );
    const picked = await vscode.window.showQuickPick<Item<T>>(mapped, {
      title: options.title,
      placeHolder: options.placeholder,
      ignoreFocusOut: true,
      matchOnDescription: true,
    });
    return picked?.value;
  }

  async pickOrType<T>(
    items: readonly PickItem<T>[] | Promise<readonly PickItem<T>[]>,
    options: PickOptions,
  ): Promise<{ value: T } | { typed: string } | undefined> {
    const qp = vscode.window.createQuickPick<Item<T>>();
    qp.title = options.title;
    qp.placeholder = options.placeholder;
    qp.ignoreFocusOut = true;
    qp.matchOnDescription = true;
    qp.busy = true;
    let fixed: Item<T>[] = [];
    // Labels may start with a codicon (`$(git-branch) main`): typing "main" picks that item, not a copy.
    const plain = (i: Item<T>): string => i.typed ?? plainLabel(i.label);
    const render = (keepActive: boolean): void => {
      const typed = qp.value.trim();
      const active = qp.activeItems[0];
      const extra: Item<T>[] =
        typed && !fixed.some((i) => plain(i) === typed)
          ? [{ label: typed, description: l10n.t('use what you typed'), typed, alwaysShow: true }]
          : [];
      const all = [...fixed, ...extra];
      // When the choices arrive after the person typed, the row they meant stays first and active
      // (src/core/pickOrder.ts says why).
      const kept = keepActive ? keepNamedFirst(all, plain, active ? plain(active) : undefined, typed) : undefined;
      qp.items = kept ?? all;
      if (kept?.[0]) qp.activeItems = [kept[0]];
    };
    void Promise.resolve(items).then(
      (list) => {
        fixed = list.map((i) => ({ ...toQuickPickItem(i), value: i.value }));
        qp.busy = false;
        render(true);
      },
      (e: unknown) => {
        qp.busy = false;
        this.error(e, { action: l10n.t('load the choices') });
      },
    );
    return new Promise((resolve) => {
      let done = false;
      qp.onDidChangeValue(() => render(false));
      qp.onDidAccept(() => {
        const sel = qp.selectedItems[0];
        if (!sel) return;
        done = true;
        // A typed row accepted before the choices were listed answers the choice of that name.
        if (sel.typed !== undefined) void typedAnswer(items, sel.typed).then(resolve);
        else resolve({ value: sel.value as T });
        qp.hide();
      });
      qp.onDidHide(() => {
        if (!done) resolve(undefined);
        qp.dispose();
      });
      qp.show();
    });
  }

  async pickMany<T>(items: readonly PickItem<T>[], options: PickOptions): Promise<T[] | undefined> {
    const picked = await vscode.window.showQuickPick(
      items.map((i): Item<T> => ({ ...toQuickPickItem(i), value: i.value })),
      { title: options.title, placeHolder: options.placeholder, canPickMany: true, ignoreFocusOut: true },
    );
    return picked?.map((p) => p.value as T);
  }

  async input(options: InputOptions): Promise<string | undefined> {
    if (options.lines === undefined) {
      return vscode.window.showInputBox({
        title: options.title,
        prompt: options.prompt,
        placeHolder: options.placeholder,
        value: options.value,
        password: options.password,
        ignoreFocusOut: true,
        validateInput: options.validate ? (v) => options.validate?.(v) : undefined,
      });
    }
    if (/[\r\n]/.test(options.value ?? '')) return this.inEditor(options, options.value ?? '', options.lines);
    return this.inputWithLines(options, options.lines);
  }

  /** An input box with a button that goes on in an editor, with what was typed so far. */
  private inputWithLines(options: InputOptions, name: string): Promise<string | undefined> {
    const box = vscode.window.createInputBox();
    box.title = options.title;
    box.prompt = options.prompt;
    box.placeholder = options.placeholder;
    box.value = options.value ?? '';
    box.ignoreFocusOut = true;
    box.buttons = [{ iconPath: new vscode.ThemeIcon('list-flat'), tooltip: l10n.t('Write over several lines in an editor') }];
    const check = (): string | undefined => (box.validationMessage = options.validate?.(box.value));
    check();
    return new Promise((resolve) => {
      let done = false;
      box.onDidChangeValue(check);
      box.onDidAccept(() => {
        if (check() !== undefined) return;
        done = true;
        resolve(box.value);
        box.hide();
      });
      box.onDidTriggerButton(() => {
        done = true;
        const typed = box.value;
        box.hide();
        void this.inEditor(options, typed, name).then(resolve);
      });
      box.onDidHide(() => {
        if (!done) resolve(undefined);
        box.dispose();
      });
      box.show();
    });
  }

  /** The text written in an editor (editText), checked as the box would check it. */
  private async inEditor(options: InputOptions, value: string, name: string): Promise<string | undefined> {
    const text = await this.texts.edit({ name, title: options.title, value, markdown: true });
    const refused = text === undefined ? undefined : options.validate?.(text);
    if (refused === undefined) return text;
    void vscode.window.showWarningMessage(refused);
    return undefined;
  }

  editText(options: EditTextOptions): Promise<string | undefined> {
    return this.texts.edit(options);
  }

  async info(message: string, ...actions: string[]): Promise<string | undefined> {
    return vscode.window.showInformationMessage(message, ...actions);
  }

  async confirm(message: string, confirmLabel: string, detail?: string): Promise<boolean> {
    const answer = await vscode.window.showWarningMessage(message, { modal: true, detail }, confirmLabel);
    return answer === confirmLabel;
  }

  async choose(message: string, actions: readonly string[], detail?: string): Promise<string | undefined> {
    return vscode.window.showWarningMessage(message, { modal: true, detail }, ...actions);
  }

  async withProgress<T>(title: string, task: (progress: ProgressReporter, signal: AbortSignal) => Promise<T>): Promise<T> {
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      async (progress, token) => {
        const controller = new AbortController();
        const sub = token.onCancellationRequested(() => controller.abort());
        try {
          return await task({ report: (message) => progress.report({ message }) }, controller.signal);
        } finally {
          sub.dispose();
        }
      },
    );
  }

  async copy(text: string): Promise<void> {
    await vscode.env.clipboard.writeText(text);
  }

  async openExternal(url: string): Promise<boolean> {
    return vscode.env.openExternal(vscode.Uri.parse(url));
  }

  error(error: unknown, context?: ErrorContext): void {
    reportError(error, context, this.log);
  }
}

function toQuickPickItem<T>(i: PickItem<T>): vscode.QuickPickItem {
  return { label: i.label, description: i.description, detail: i.detail, picked: i.picked };
}
