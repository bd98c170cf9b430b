// Helpers for the pull request scenarios (not a scenario: the runner only takes NN-name.mjs).

/** When several hosts are configured the commands first ask which one: answer "Test Hub". */
export async function answerHostPick(ctx) {
  const widget = ctx.page.locator('.quick-input-widget');
  await widget.waitFor({ state: 'visible', timeout: ctx.scaled(20_000) });
  const title = await widget
    .locator('.quick-input-title')
    .innerText()
    .catch(() => '');
  if (/^Host/.test(title.trim())) await ctx.quickPick('Test Hub');
}

/** Waits for the modal dialog whose message matches, and presses the button labelled `button`. */
export async function confirmDialog(ctx, button, message) {
  const dialog = ctx.page.locator('.monaco-dialog-box');
  // A merge's confirmation follows its preview, which asks the server for the diff and the
  // conflicts while a progress notification says so: a server operation like the merge itself,
  // so it gets as long (a first attempt of 70 timed out at 30 s on a machine at load 11).
  await dialog.waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  if (message) await dialog.locator('.dialog-message-text', { hasText: message }).waitFor({ timeout: ctx.scaled(5_000) });
  await dialog
    .locator('.dialog-buttons .monaco-button', { hasText: new RegExp(`^\\s*${button}\\s*$`) })
    .first()
    .click();
  await dialog.waitFor({ state: 'hidden', timeout: ctx.scaled(20_000) });
}

/** The document inside the active pull request webview (two iframes deep in the workbench). */
export function pullView(ctx) {
  return ctx.page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame');
}
