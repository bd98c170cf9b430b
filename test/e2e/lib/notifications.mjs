// Waiting for VS Code's notifications as a person sees them: a toast, or its entry in the
// notification center when VS Code kept it there without a toast; and a recorder of every
// notification shown or announced, for one that may be on screen for less than a frame.

export function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `text` as a pattern the page can rebuild: a string matches anywhere, ignoring case (as Playwright's `hasText`). */
function patternOf(text) {
  return typeof text === 'string' ? { source: escapeRegExp(text), flags: 'i' } : { source: text.source, flags: text.flags };
}

/**
 * The notification helpers of one page. `timeout` is the default wait; `runCommand` runs a
 * command through the palette (context.mjs), as a person opens the notification center.
 */
export function notificationWaits(page, { scale, timeout: DEFAULT_TIMEOUT, runCommand }) {
  /** How long a notification's toast is waited for before its notification center is looked at. */
  const TOAST_WINDOW = Math.round(10_000 * scale);
  /** How long a notification VS Code has announced may go without its toast before the center is looked at. */
  const UNDRAWN_GRACE = Math.round(2_000 * scale);

  /**
   * The notification with `text`, as its toast; or, when VS Code kept it in the notification
   * center without drawing a toast (it does for a notification added while a progress toast shows,
   * under load: seen for "Pull request #N is merged" in e2e 68, 71 and 80 on a clean clone), as its
   * entry in the center, opened the way a person would. Either has the notification's buttons.
   * `center`: a notification shown earlier (its toast may be gone), looked for in the center at once.
   */
  async function waitForNotification(text, { timeout = DEFAULT_TIMEOUT, center = false } = {}) {
    const message = { has: page.locator('.notification-list-item-message', { hasText: text }) };
    const toast = page.locator('.notifications-toasts .notification-toast').filter(message).first();
    const entry = page.locator('.notifications-center .notification-list-item').filter(message).first();
    const deadline = Date.now() + timeout;
    // The toast is looked for in windows, the center between them: a notification kept there
    // is found within a window, not after the whole timeout (90 s of e2e 68 went that way).
    for (;;) {
      const left = deadline - Date.now();
      if (!center && (await toastWithin(toast, text, Math.max(1, Math.min(left, TOAST_WINDOW))))) return toast;
      await runCommand('Notifications: Show Notifications');
      if (
        await entry.waitFor({ state: 'visible', timeout: 2_000 }).then(
          () => true,
          () => false,
        )
      )
        return entry;
      // Left open: the palette closes it anyway, and a notification added while it is open
      // goes straight into it, where the next look finds it.
      if (Date.now() >= deadline) throw new Error(`no notification matching ${text} within ${timeout} ms (toast or center)`);
    }
  }

  /**
   * Whether the toast shows within `ms`. False sooner when VS Code announces the notification to
   * screen readers (`.monaco-alert`, "Info: …") during this wait and draws no toast for it within
   * UNDRAWN_GRACE: it is in the center (each such wait cost a whole TOAST_WINDOW, 10 s, three times
   * a run). Only an announcement made during the wait counts: an earlier one with the same text may
   * be another notification, whose entry would be taken for this one.
   */
  async function toastWithin(toast, text, ms) {
    const pattern = patternOf(text);
    const listening = await listenForAlerts();
    const end = Date.now() + ms;
    let announcedAt;
    try {
      for (;;) {
        const slice = Math.max(1, Math.min(250, end - Date.now()));
        if (
          await toast.waitFor({ state: 'visible', timeout: slice }).then(
            () => true,
            () => false,
          )
        )
          return true;
        if (Date.now() >= end) return false;
        if (announcedAt === undefined && listening && (await announced(listening, pattern))) announcedAt = Date.now();
        if (announcedAt !== undefined && Date.now() - announcedAt > UNDRAWN_GRACE) return false;
      }
    } finally {
      if (listening) await page.evaluate((id) => window.__vdbAlertWaits?.get(id)?.stop(), listening).catch(() => undefined);
    }
  }

  /** Records every screen-reader alert VS Code makes from now on; its id, or undefined when there is no alert region. */
  function listenForAlerts() {
    return page
      .evaluate(() => {
        const region = document.querySelector('.monaco-aria-container');
        if (!region) return undefined;
        const waits = (window.__vdbAlertWaits ??= new Map());
        const id = `${Date.now()}-${Math.random()}`;
        const said = [];
        // Only the alert element a change touched: the other one still holds an earlier alert.
        const observer = new MutationObserver((records) => {
          for (const r of records) {
            const node = r.target.nodeType === Node.ELEMENT_NODE ? r.target : r.target.parentElement;
            const el = node?.closest('.monaco-alert');
            if (el?.textContent) said.push(el.textContent);
          }
        });
        observer.observe(region, { childList: true, subtree: true, characterData: true });
        waits.set(id, { said, stop: () => (observer.disconnect(), waits.delete(id)) });
        return id;
      })
      .catch(() => undefined);
  }

  /** Whether an alert recorded by `listenForAlerts` matches. */
  function announced(id, pattern) {
    return page
      .evaluate(([i, p]) => (window.__vdbAlertWaits?.get(i)?.said ?? []).some((t) => new RegExp(p.source, p.flags).test(t)), [id, pattern])
      .catch(() => false);
  }

  /**
   * Starts recording the text of every notification toast from now on, however briefly it shows
   * (a progress notification of an operation that ends in a few milliseconds is on screen for less
   * than a frame, which waiting for it to be visible can miss), and of every notification VS Code
   * announces to a screen reader (`.monaco-alert`, "Info: …"): a notification added while another's
   * toast is on screen under load was announced and put in the notification center but never drawn
   * as a toast (seen in the sign-in fixture). Resolves `{ waitFor(text) }`, which waits until a
   * notification with that text (string or RegExp) has been shown or announced.
   */
  async function recordNotifications() {
    await page.evaluate(() => {
      const seen = (window.__vdbSeenNotifications ??= []);
      const collect = () => {
        for (const el of document.querySelectorAll('.notifications-toasts .notification-list-item-message, .monaco-alert')) {
          const text = el.textContent ?? '';
          if (text && !seen.includes(text)) seen.push(text);
        }
      };
      collect();
      if (!window.__vdbNotificationObserver) {
        window.__vdbNotificationObserver = new MutationObserver(collect);
        window.__vdbNotificationObserver.observe(document.body, { childList: true, subtree: true, characterData: true });
      }
    });
    return {
      async waitFor(text, { timeout = DEFAULT_TIMEOUT } = {}) {
        const pattern = patternOf(text);
        await page.waitForFunction(
          (p) => (window.__vdbSeenNotifications ?? []).some((t) => new RegExp(p.source, p.flags).test(t)),
          pattern,
          { timeout },
        );
      },
    };
  }

  return { waitForNotification, recordNotifications };
}
