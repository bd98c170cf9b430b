// The `ctx` every scenario receives: the page, the hub, and helpers that act like a person
// at the keyboard (command palette, quick picks, input boxes, notifications, tree rows).
// Every helper waits for what it expects, with a timeout; none sleeps a fixed time (Playwright's
// own waits for the page, ../../helpers/waitFor.cjs for anything else, as in every test).
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '../../helpers/waitFor.cjs';
import { ROOT } from './toolchain.mjs';
import { escapeRegExp, notificationWaits } from './notifications.mjs';

const README_SCREENSHOTS = join(ROOT, 'media', 'screenshots');

/** Helpers wait this long by default, times the run's timeout scale (see run.mjs). */
const BASE_TIMEOUT = 20_000;

/**
 * @typedef {object} HubHandle
 * @property {string} url
 * @property {string} dataDir
 * @property {(user?: string) => Promise<string>} token
 * @property {(path: string, init?: object) => Promise<{ status: number, body: any }>} api
 * @property {<T>(during: () => Promise<T>) => Promise<T>} whileStopped stops the hub, runs `during`, serves the same data again
 */

/**
 * @typedef {object} ScenarioContext
 * @property {import('playwright-core').Page} page
 * @property {HubHandle} hub
 * @property {string} workspaceDir
 * @property {string} artifactsDir
 * @property {(title: string) => Promise<void>} runCommand
 * @property {(answer: string | RegExp, opts?: { timeout?: number }) => Promise<void>} quickPick
 * @property {(text: string, opts?: { timeout?: number }) => Promise<void>} inputBox
 * @property {(path: string, opts?: { timeout?: number }) => Promise<void>} fileDialog
 * @property {(text: string | RegExp, opts?: { timeout?: number, center?: boolean }) => Promise<import('playwright-core').Locator>} waitForNotification
 * @property {() => Promise<{ waitFor(text: string | RegExp, opts?: { timeout?: number }): Promise<void> }>} recordNotifications
 * @property {(label: string | RegExp, opts?: { timeout?: number }) => Promise<import('playwright-core').Locator>} treeItem
 * @property {(label: string | RegExp, opts?: { timeout?: number }) => Promise<import('playwright-core').Locator>} expand
 * @property {(row: import('playwright-core').Locator, item: string | RegExp, opts?: { timeout?: number, shown?: () => Promise<unknown> }) => Promise<void>} contextMenu
 * @property {(fileName: string, opts?: { timeout?: number }) => Promise<void>} openFile
 * @property {() => Promise<void>} openView
 * @property {(name: string) => Promise<string>} screenshot
 * @property {(name: string) => Promise<string>} readmeScreenshot
 * @property {() => string} extensionLog
 * @property {(message: string) => void} log
 * @property {(ms: number) => number} scaled  a timeout for this run: ms times the load scale
 * @property {Fixture} fixture
 */

/**
 * What a scenario sets up for itself. Every scenario starts in a new window (no account, no
 * database in the view, no open editor) on a hub freshly copied from the seed.
 * @typedef {object} Fixture
 * @property {(user?: string) => Promise<void>} signedIn  signs in to Test Hub with a personal access token, as a person would
 * @property {(...names: string[]) => Promise<void>} databases  adds owner/name databases to the view (Add Database…)
 */

/** A string matches exactly (whole label); a RegExp is used as given. */
function labelPattern(label) {
  // ⟦ ⟧: the same label in the pseudo-locale run (lib/pseudoL10n.mjs), so the shared steps work there too.
  return typeof label === 'string' ? new RegExp(`^\\s*⟦?${escapeRegExp(label)}⟧?\\s*$`) : label;
}

/** Helpers bound to one page. `scale` multiplies every default wait (a loaded machine is slower). */
export function createHelpers(page, { scale = 1 } = {}) {
  const DEFAULT_TIMEOUT = Math.round(BASE_TIMEOUT * scale);
  const FILE_SEARCH_TIMEOUT = Math.round(60_000 * scale);
  const quickInput = page.locator('.quick-input-widget');
  const quickInputBox = quickInput.locator('.quick-input-box input');

  async function openQuickInputWith(text) {
    // F1 opens the command palette with '>' already typed, whatever the keybinding platform.
    await page.keyboard.press('Escape');
    // A webview (the pull request view, a notebook output) that has focus receives the key in its
    // own frame, and one still loading does not pass it on: F1 then opens nothing (80 once waited
    // 20 s for the palette right after opening the pull request view). Keys go to the workbench
    // once no frame holds the focus; `.monaco-workbench` itself cannot take it.
    await page.evaluate(() => {
      if (document.activeElement instanceof HTMLIFrameElement) document.activeElement.blur();
    });
    await page.keyboard.press('F1');
    await quickInputBox.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT });
    await quickInputBox.fill(text);
  }

  function quickRow(label) {
    return quickInput.locator('.monaco-list-row').filter({
      has: page.locator('.label-name').filter({ hasText: labelPattern(label) }),
    });
  }

  async function runCommand(title) {
    await openQuickInputWith(`>${title}`);
    const row = quickRow(title).first();
    await row.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT });
    await clearHover();
    await row.click();
    // The palette is gone once the widget hides, or once the command put up its own quick input
    // (the same widget, no longer holding '>title'). Waiting for "hidden" alone cost the whole
    // timeout for every command that asks something.
    await page
      .waitForFunction(
        () => {
          const widget = document.querySelector('.quick-input-widget');
          const input = widget?.querySelector('.quick-input-box input');
          return !widget || getComputedStyle(widget).display === 'none' || !input || !input.value.startsWith('>');
        },
        undefined,
        { timeout: DEFAULT_TIMEOUT },
      )
      .catch(() => undefined);
  }

  async function quickPick(answer, { timeout = DEFAULT_TIMEOUT } = {}) {
    await quickInputBox.waitFor({ state: 'visible', timeout });
    if (typeof answer === 'string') await quickInputBox.fill(answer);
    const row = quickRow(answer).first();
    await row.waitFor({ state: 'visible', timeout });
    await clearHover();
    const title = await questionTitle();
    await row.click();
    // As inputBox does: until the box has taken the pick it still shows this question, and an
    // inputBox() right after types into it while the next question keeps its default (seen under
    // load in 30: the release's title stayed the tag's name). A typed answer tells the questions apart.
    if (typeof answer === 'string') await questionTaken(title, answer, timeout);
  }

  const questionTitle = () => page.evaluate(() => document.querySelector('.quick-input-widget .quick-input-title')?.textContent ?? '');

  /** Waits until the widget hides or shows another question (another title, or another value in the box). */
  async function questionTaken(askedTitle, answer, timeout) {
    await page.waitForFunction(
      ([asked, typed]) => {
        const widget = document.querySelector('.quick-input-widget');
        if (!widget || getComputedStyle(widget).display === 'none') return true;
        const shownTitle = widget.querySelector('.quick-input-title')?.textContent ?? '';
        const value = widget.querySelector('.quick-input-box input')?.value ?? '';
        return shownTitle !== asked || value !== typed;
      },
      [askedTitle, answer],
      { timeout },
    );
  }

  /**
   * The pointer rests where the last click left it; over a new list, the row under it opens its
   * hover ("Open · alice"), which can cover the row to click next and take the click. Moving the
   * pointer off the workbench closes it.
   */
  async function clearHover() {
    await page.mouse.move(0, 0);
    await page
      .locator('.context-view .monaco-hover, .workbench-hover')
      .first()
      .waitFor({ state: 'hidden', timeout: 2_000 })
      .catch(() => undefined);
  }

  /**
   * Types an answer and presses Enter, then waits until the box has taken it: the widget hides or
   * shows the next question (another title, or another value in the box). Until then it still
   * shows this question, and an inputBox() right after would type into it: that answer is lost and
   * the next question waits, empty, for ever (seen under load in 75: the description typed into the
   * pull's title step, then step 4/4 left open).
   */
  async function inputBox(text, { timeout = DEFAULT_TIMEOUT } = {}) {
    await quickInputBox.waitFor({ state: 'visible', timeout });
    await quickInputBox.fill(text);
    const title = await questionTitle();
    await quickInputBox.press('Enter');
    await questionTaken(title, text, timeout);
  }

  /**
   * Answers VS Code's own (simple) open/save dialog with an absolute path. The dialog fills in
   * the current folder a moment after it opens, then, once it has listed that folder, writes the
   * folder and the default file name again over whatever is in the box (SimpleFileDialog's
   * updateItems, in the same step as it sets the list's items). Typed before the list shows, an
   * answer is overwritten (seen in 78 on a clean clone: the box kept "products-….patch" for 20 s).
   */
  async function fileDialog(path, { timeout = DEFAULT_TIMEOUT } = {}) {
    await quickInputBox.waitFor({ state: 'visible', timeout });
    await page.waitForFunction((el) => el.value.startsWith('/'), await quickInputBox.elementHandle(), { timeout });
    await quickInput.locator('.quick-input-list .monaco-list-row').first().waitFor({ state: 'visible', timeout });
    await quickInputBox.fill(path);
    await page.waitForFunction(([el, want]) => el.value === want, [await quickInputBox.elementHandle(), path], { timeout });
    await quickInputBox.press('Enter');
  }

  async function treeItem(label, { timeout = DEFAULT_TIMEOUT } = {}) {
    const row = page
      .locator('.part.sidebar .monaco-list-row, .part.panel .monaco-list-row, .part.auxiliarybar .monaco-list-row')
      .filter({
        has: page.locator('.label-name, .monaco-highlighted-label').filter({ hasText: labelPattern(label) }),
      })
      .first();
    await row.waitFor({ state: 'visible', timeout });
    return row;
  }

  /**
   * Runs `item` (string: exact label, RegExp) of `row`'s context menu: a right-click on the row,
   * then the item taken with the mouse on it and Enter. Not a click on the item: VS Code's menu
   * starts listening for the mouse-up that runs an item only 100 ms after it drew the item (so the
   * right-click's own release never runs one), and drops a click that comes sooner without a trace,
   * leaving the menu open. Chromium serves input before timers, so under load a click even 100 ms
   * later still came first: 36's Run Tests never ran (the trace: the item clicked 72 ms after the
   * right-click, no progress and no outcome after). The menu takes Enter as soon as it shows.
   * `shown` runs once the menu is up with the item under the mouse (e.g. a screenshot of it).
   */
  async function contextMenu(row, item, { timeout = DEFAULT_TIMEOUT, shown = async () => undefined } = {}) {
    await clearHover();
    await row.click({ button: 'right' });
    const label = page.locator('.action-label', { hasText: labelPattern(item) });
    const entry = page.locator('.monaco-menu .action-item').filter({ has: label }).first();
    await entry.hover({ timeout });
    // The menu marks the item under the mouse as focused; Enter runs the focused item.
    await page.locator('.monaco-menu .action-item.focused').filter({ has: label }).first().waitFor({ state: 'visible', timeout });
    await shown();
    await page.keyboard.press('Enter');
    await page.locator('.monaco-menu').first().waitFor({ state: 'hidden', timeout });
  }

  /**
   * Opens a workspace file by name through Quick Open, as a person would with Ctrl+P. A file
   * written a moment ago may not be in Quick Open's file list yet: ask again until it is. The
   * first search of a new window starts the file search on the server, which took just over 20 s
   * on a machine at load 24 (a scenario that starts signed in gets here seconds after the window
   * opens): so this waits up to 60 s, scaled, by default.
   */
  async function openFile(fileName, { timeout = FILE_SEARCH_TIMEOUT } = {}) {
    const deadline = Date.now() + timeout;
    await waitFor(
      `${fileName} in Quick Open`,
      async () => {
        await openQuickInputWith(fileName);
        const row = quickRow(fileName).first();
        try {
          await row.waitFor({ state: 'visible', timeout: Math.min(3_000, Math.max(1, deadline - Date.now())) });
          await row.click();
          return true;
        } catch {
          await page.keyboard.press('Escape');
          return false;
        }
      },
      { timeoutMs: timeout, intervalMs: 0 },
    );
    await page.locator('.part.editor .tab.active', { hasText: fileName }).first().waitFor({ state: 'visible', timeout });
  }

  /**
   * The tree row labelled `label`, expanded (clicked only when collapsed, so it never toggles shut).
   * The row is a locator, found again at every look: the tree may draw its rows anew (a sign-in, a
   * refresh) between the click and the check, and a handle on the old row would never see it open.
   */
  async function expand(label, { timeout = DEFAULT_TIMEOUT } = {}) {
    const deadline = Date.now() + timeout;
    for (;;) {
      const row = await treeItem(label, { timeout: Math.max(1, deadline - Date.now()) });
      if ((await row.getAttribute('aria-expanded')) === 'false') {
        // The row above, just expanded with the mouse resting on it, shows its hover after a
        // moment, over the rows below it: a click there lands on the hover, and the hover stays
        // while the mouse is on it (20 under load: 30 s of clicks on "Branches" under the hover of
        // alice/prices). Move the mouse off first.
        await clearHover();
        await row.click();
      }
      try {
        await row
          .and(page.locator('[aria-expanded="true"]'))
          .waitFor({ state: 'visible', timeout: Math.max(1, Math.min(5_000, deadline - Date.now())) });
        return row;
      } catch (e) {
        if (Date.now() >= deadline) throw new Error(`${label} did not expand in the tree within ${timeout} ms: ${e.message}`, { cause: e });
      }
    }
  }

  async function openView() {
    const item = page
      .locator(
        '.part.activitybar .action-item a.action-label[aria-label^="Versioned DB"], .part.activitybar .action-item [aria-label^="Versioned DB"]',
      )
      .first();
    await item.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT });
    const sidebarTitle = page.locator('.part.sidebar .composite.title h2', { hasText: /Versioned DB/i });
    // The activity bar item toggles: a click that lands while a reloading window restores its side
    // bar hides the view it just showed (seen after Developer: Reload Window). Click only when the
    // view is not shown, and again if a click left it hidden.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await sidebarTitle.isVisible()) return;
      await item.click();
      try {
        await sidebarTitle.waitFor({ state: 'visible', timeout: Math.round(DEFAULT_TIMEOUT / 3) });
        return;
      } catch {
        /* hidden again by the restore: look and click once more */
      }
    }
    await sidebarTitle.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT });
  }

  const { waitForNotification, recordNotifications } = notificationWaits(page, { scale, timeout: DEFAULT_TIMEOUT, runCommand });
  return {
    runCommand,
    quickPick,
    inputBox,
    fileDialog,
    waitForNotification,
    recordNotifications,
    treeItem,
    expand,
    contextMenu,
    openFile,
    openView,
    quickInput,
    scaled: (ms) => Math.round(ms * scale),
  };
}

/** The shared set-up steps, done through the UI like a person would. */
function createFixture(helpers, hub, log) {
  return {
    async signedIn(user = 'alice') {
      log(`fixture: sign in as ${user}`);
      const token = await hub.token(user);
      await helpers.openView();
      await helpers.runCommand('Versioned DB: Sign In…');
      await helpers.quickPick('Test Hub');
      await helpers.quickPick('Personal access token');
      await helpers.inputBox(token);
      await helpers.waitForNotification(`Signed in to Test Hub as ${user}.`);
    },
    async databases(...names) {
      await helpers.openView();
      for (const name of names) {
        log(`fixture: add ${name}`);
        const notes = await helpers.recordNotifications();
        await helpers.runCommand('Versioned DB: Add Database…');
        await helpers.inputBox(name);
        await notes.waitFor(`Added ${name}.`);
        await helpers.treeItem(name);
      }
    },
  };
}

/** The full ctx for one scenario. */
export function scenarioContext({ page, hub, workspaceDir, artifactsDir, helpers, extensionLog, log }) {
  mkdirSync(artifactsDir, { recursive: true });
  return {
    page,
    hub,
    workspaceDir,
    artifactsDir,
    ...helpers,
    fixture: createFixture(helpers, hub, log),
    async screenshot(name) {
      const path = join(artifactsDir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
      await page.screenshot({ path });
      return path;
    },
    /**
     * Like screenshot; with E2E_UPDATE_SCREENSHOTS=1 also writes media/screenshots/<name>.png,
     * the images the README shows (so they are always taken by this harness, never by hand).
     */
    async readmeScreenshot(name) {
      const path = join(artifactsDir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
      await page.screenshot({ path });
      if (process.env.E2E_UPDATE_SCREENSHOTS === '1') {
        mkdirSync(README_SCREENSHOTS, { recursive: true });
        copyFileSync(path, join(README_SCREENSHOTS, `${name}.png`));
      }
      return path;
    },
    extensionLog,
    log,
  };
}
