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

/**
 * In the editor a text over several lines was asked in (src/commands/textEditPrompt.ts: its tab
 * named by `tab`, starting from the text so far), replaces the text with `lines` (when given),
 * then chooses Use This Text in the editor's title bar and waits for the editor to close.
 */
export async function typeInTextEditor(ctx, tab, lines, shot) {
  const { page } = ctx;
  await page.locator('.part.editor .tab.active', { hasText: tab }).waitFor({ timeout: ctx.scaled(30_000) });
  const editor = page.locator('.part.editor .editor-instance .monaco-editor').first();
  await editor.locator('.view-lines .view-line').first().waitFor();
  if (lines) await replaceText(page, editor, lines);
  if (shot) await ctx.screenshot(shot);
  await page.locator('.part.editor .editor-actions .action-label[aria-label^="Use This Text"]').click();
  // Used: the editor closes without asking to save, and the notification saying how to end the edit goes with it.
  await page.locator('.part.editor .tab', { hasText: tab }).waitFor({ state: 'detached', timeout: ctx.scaled(30_000) });
  await page
    .locator('.notifications-toasts .notification-toast', { hasText: 'Use This Text in the title bar' })
    .waitFor({ state: 'hidden', timeout: ctx.scaled(10_000) });
}

async function replaceText(page, editor, lines) {
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+A');
  // insertText: no key events, so no auto-closed quotes; Enter between the lines.
  for (const [i, line] of lines.entries()) {
    if (i > 0) await page.keyboard.press('Enter');
    if (line) await page.keyboard.insertText(line);
  }
  await editor.locator('.view-lines .view-line', { hasText: lines[lines.length - 1] }).waitFor();
}
