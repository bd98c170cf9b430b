import type * as vscode from 'vscode';

/**
 * Lifecycle base: everything a component creates that must be released goes through
 * `_register`, so one `dispose()` releases it all, in reverse order, exactly once.
 */
export abstract class Disposable implements vscode.Disposable {
  private readonly _disposables: { dispose(): unknown }[] = [];
  private _isDisposed = false;

  protected get isDisposed(): boolean {
    return this._isDisposed;
  }

  protected _register<T extends { dispose(): unknown }>(disposable: T): T {
    if (this._isDisposed) {
      disposable.dispose();
    } else {
      this._disposables.push(disposable);
    }
    return disposable;
  }

  dispose(): void {
    if (this._isDisposed) return;
    this._isDisposed = true;
    for (const d of this._disposables.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // One failing disposer must not keep the others alive.
      }
    }
  }
}
