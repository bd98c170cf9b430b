// One attempt of one scenario, in two parts so that a lane can overlap them (lib/lane.mjs):
// `prepareAttempt` makes the scenario's new window ready in a seat (a fresh hub copy, an emptied
// workspace, the origin's storage cleared or set to the scenario's `given` copy, the workbench
// loaded and the scenario's `given` state reached); `runAttempt` then runs the scenario in
// that window and judges it (its own assertions, the extension's error lines). While one
// scenario runs in one seat, the next one's window is prepared in the other: nothing of the two is
// shared (hub, code-server, workspace, browser storage), so each still starts from a known state.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHelpers, scenarioContext } from './context.mjs';
import { TRACE } from './lane.mjs';
import { watchPage } from './logs.mjs';
import { captureGiven, givenKey } from './profile.mjs';
import { freshWindow } from './window.mjs';

export function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000} s`)), ms);
    }),
  ]);
}

const seconds = (ms) => (ms / 1000).toFixed(1);

/**
 * What each frame of a failed page was doing: its URL, whether a service worker controls it and
 * its webview performance marks. Webviews (notebook outputs, the result grid, the pull request
 * view) load through a service worker; this tells a webview that never started from one that did.
 */
async function describeFrames(page, file) {
  const frames = [];
  for (const frame of page.frames()) {
    const info = await frame
      .evaluate(async () => ({
        controller: navigator.serviceWorker?.controller?.scriptURL ?? null,
        registrations: navigator.serviceWorker
          ? (await navigator.serviceWorker.getRegistrations()).map((r) => ({
              scope: r.scope,
              active: r.active?.state ?? null,
              installing: r.installing?.state ?? null,
              waiting: r.waiting?.state ?? null,
            }))
          : [],
        marks: performance
          .getEntriesByType('mark')
          .map((m) => `${Math.round(m.startTime)} ${m.name}`)
          .filter((m) => /webview|notebook/i.test(m)),
        readyState: document.readyState,
      }))
      .catch((e) => ({ error: String(e) }));
    frames.push({ url: frame.url().slice(0, 300), ...info });
  }
  writeFileSync(file, `${JSON.stringify(frames, null, 2)}\n`);
}

/**
 * Brings the new window to the scenario's `given` state: the first time in a seat through the UI,
 * as a person would, keeping a copy of the origin's storage in the seat (lib/profile.mjs; the copy
 * holds the token sealed by this seat's code-server and the databases of this seat's hub URL,
 * so it is good for this seat only); later from that copy, checking the view shows its databases.
 */
async function reachGiven({ seat, prepared, copy, scale }) {
  const { s, ctx } = prepared;
  const t0 = Date.now();
  const databases = s.given.databases ?? [];
  await withTimeout(
    (async () => {
      if (copy) {
        // The window opened on the copy: the view shows its databases once the extension has activated.
        await ctx.openView();
        for (const name of databases) await ctx.treeItem(name);
        return;
      }
      if (s.given.signedIn) await ctx.fixture.signedIn(s.given.signedIn);
      if (databases.length) await ctx.fixture.databases(...databases);
      const origin = new URL(seat.vscode.url).origin;
      seat.givenCopies.set(
        givenKey(s.given),
        await captureGiven({ context: seat.context, origin, given: s.given, timeout: Math.round(30_000 * scale) }),
      );
    })(),
    Math.round(120_000 * scale),
    `${s.id}'s start (given ${givenKey(s.given)})`,
  );
  ctx.log(
    copy
      ? `given: opened on a copy of the storage (${seconds(Date.now() - t0)} s)`
      : `given: reached through the UI and copied (${seconds(Date.now() - t0)} s); later scenarios of this seat in this state start from the copy`,
  );
}

/**
 * Makes scenario `s`'s window ready in `seat` of `lane`; never rejects: a failure is kept as
 * `error`, for runAttempt to report as the attempt's. `scale` multiplies the harness's waits.
 */
export async function prepareAttempt({ lane, seat, s, dir, scale }) {
  const prepared = { seat, s, dir, t0: Date.now(), pageErrors: { take: () => [] } };
  const { context, vscode, hub, logs } = seat;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    if (TRACE !== 'off') await context.tracing.startChunk({ title: `${s.id} ${dir}` });
    prepared.tracing = TRACE !== 'off';
    const copy = s.given ? seat.givenCopies.get(givenKey(s.given)) : undefined;
    const w0 = Date.now();
    const steps = {};
    prepared.page = await freshWindow({
      context,
      vscode,
      hub,
      logs,
      given: copy,
      workspaceSettings: s.workspaceSettings,
      scale,
      log: seat.log,
      steps,
    });
    const detail = Object.entries(steps)
      .map(([k, v]) => `${k} ${seconds(v)}`)
      .join(', ');
    lane.log(`  ${s.id}: new window (${seconds(Date.now() - w0)} s in seat ${seat.seat + 1}: ${detail})`);
    prepared.page.setDefaultTimeout(Math.round(30_000 * scale));
    prepared.pageErrors = watchPage(prepared.page);
    prepared.ctx = scenarioContext({
      page: prepared.page,
      hub: seat.hubHandle,
      workspaceDir: vscode.workspaceDir,
      artifactsDir: dir,
      helpers: createHelpers(prepared.page, { scale }),
      extensionLog: () => logs.extensionLog(),
      log: (m) => lane.log(`  ${s.id}: ${m}`),
    });
    if (s.given) await reachGiven({ seat, prepared, copy, scale });
  } catch (e) {
    prepared.error = e;
  }
  prepared.readyAt = Date.now();
  return prepared;
}

/**
 * Runs a prepared attempt; resolves `{ judged }` once the scenario has run. `judged` resolves
 * `{ error, settleMs }` once the attempt is judged (its assertions, then the error lines the
 * extension logged once the logs have settled), which the lane does beside the next scenario: the
 * seat takes no other scenario until then. The window stays open until its seat prepares the next
 * one (or the runner closes it).
 */
export async function runAttempt({ prepared, scale }) {
  const { s } = prepared;
  let error = prepared.error;
  try {
    if (!error) {
      await withTimeout(
        Promise.resolve().then(async () => {
          await s.run(prepared.ctx);
        }),
        Math.round(s.timeout * scale),
        s.id,
      );
    }
  } catch (e) {
    error = e;
  }
  const judged = judge({ prepared, error, scale });
  return { judged };
}

/**
 * A failed attempt's logs, kept in its artifacts: what its window's logs got (the extension host,
 * the "Versioned DB" channel, the workbench; lib/logs.mjs `keepWindow`) and what its hub printed
 * (the hub is served afresh for each window, so its output is this attempt's).
 */
function keepLogs(seat, logsDir) {
  try {
    seat.logs.keepWindow(logsDir);
    mkdirSync(logsDir, { recursive: true });
    writeFileSync(join(logsDir, 'hub.log'), seat.hub.output?.() ?? '');
  } catch (e) {
    seat.log(`could not keep the failed attempt's logs in ${logsDir}: ${e.message}`);
  }
}

/** The attempt's verdict: `error` (the scenario's own) or what the extension reported meanwhile. */
async function judge({ prepared, error, scale }) {
  const { s, seat, dir, page } = prepared;
  const { context, logs } = seat;
  const t0 = Date.now();
  // Log lines reach their files a moment after they are written: wait until they stop coming.
  await logs.settled({ timeoutMs: Math.round(10_000 * scale) });
  const settleMs = Date.now() - t0;
  // Errors the scenario provokes on purpose (e.g. a 401) are declared by it, narrowly.
  const reported = [...logs.newErrors(), ...prepared.pageErrors.take()].filter((e) => !s.expectedErrors.some((re) => re.test(e)));
  if (!error && reported.length) error = new Error(`the extension reported errors:\n${reported.join('\n')}`);
  else if (error && reported.length) error.message += `\n(also reported: ${reported.join('\n')})`;
  if (error) {
    if (page) await page.screenshot({ path: join(dir, 'failure.png') }).catch(() => undefined);
    if (page) await describeFrames(page, join(dir, 'failure-frames.json')).catch(() => undefined);
    keepLogs(seat, join(dir, 'logs'));
    if (prepared.tracing) await context.tracing.stopChunk({ path: join(dir, 'trace.zip') }).catch(() => undefined);
  } else if (prepared.tracing) {
    await context.tracing.stopChunk().catch((e) => {
      error = new Error(`the trace of the attempt could not be kept: ${e.message}`);
    });
  }
  return { error, settleMs };
}
