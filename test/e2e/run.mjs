// The end-to-end runner: a real VS Code (code-server) in Chromium, driven like a person would.
// See test/e2e/README.md for what it does, the scenario contract and the env options.
//
// Scenarios run in lanes side by side (E2E_LANES, default one per 2 cores; lib/lane.mjs), each lane with one hub
// and one code-server of its own; every scenario attempt gets a new window on its lane's hub freshly
// copied from the seed (lib/window.mjs), so scenarios run alone and in any order. A scenario that
// fails is run once more at the end, alone (no other scenario running), in another new window; a
// failure that does not repeat passes the run but is reported as FLAKY, in the summary and in
// .artifacts/e2e/flakes.json.
import { availableParallelism } from 'node:os';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { createHelpers, scenarioContext } from './lib/context.mjs';
import { DEV_HUB } from './lib/hub.mjs';
import { startLane, TRACE } from './lib/lane.mjs';
import { watchPage } from './lib/logs.mjs';
import { startStress } from './lib/stress.mjs';
import { ensureToolchain, ROOT } from './lib/toolchain.mjs';
import { buildVsix, checkVsix } from './lib/vsix.mjs';
import { freshWindow } from './lib/window.mjs';
import { captureGiven, checkGiven, givenKey } from './lib/profile.mjs';
import { PSEUDO_L10N, writePseudoBundle } from './lib/pseudoL10n.mjs';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

const SCENARIO_DIR = join(ROOT, 'test', 'e2e', 'scenarios');
const ARTIFACTS = join(ROOT, '.artifacts', 'e2e');
const DEFAULT_SCENARIO_TIMEOUT = 180_000;

const STRESS = Math.max(0, Math.floor(Number(process.env.E2E_STRESS) || 0));
/**
 * Lanes run scenarios side by side (lib/lane.mjs). A lane keeps about 1.5 cores busy, so by
 * default there is one lane per 2 cores (one on the 2-core machines this suite is proven on);
 * E2E_LANES sets it.
 */
const LANES = Math.max(1, Math.floor(Number(process.env.E2E_LANES) || availableParallelism() / 2));
/**
 * Every wait of the harness is multiplied by this. Busy loops and the other lanes beside a scenario
 * leave it a share of the cores, so by default it grows with them (2 with E2E_STRESS=2 on 2
 * cores, 1.5 with two lanes there); E2E_TIMEOUT_SCALE
 * sets it. It only lengthens waits for things that do happen: a bug that never shows the
 * expected thing still fails, just later.
 */
const SCALE =
  Number(process.env.E2E_TIMEOUT_SCALE) > 0 ? Number(process.env.E2E_TIMEOUT_SCALE) : 1 + (STRESS + LANES - 1) / availableParallelism();
/** A failed scenario is run once more, alone (E2E_RETRIES=0 turns that off). */
const RETRIES = process.env.E2E_RETRIES === '0' ? 0 : 1;

const started = Date.now();
const log = (m) => console.log(`[e2e ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${m}`);

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000} s`)), ms);
    }),
  ]);
}

async function loadScenarios() {
  const only = process.env.E2E_ONLY;
  const files = readdirSync(SCENARIO_DIR)
    .filter((f) => /^\d+-.+\.mjs$/.test(f))
    .sort();
  const wanted = only
    ? only
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
    : [];
  // A number names a prefix ("01" must not pick "45-sign-in-on-401"); other text any part of the name.
  const picks = (f, w) => (/^\d+$/.test(w) ? f.startsWith(`${w}-`) : f.includes(w));
  const chosen = only ? files.filter((f) => wanted.some((w) => picks(f, w))) : files;
  if (!chosen.length) throw new Error(`no scenarios in ${SCENARIO_DIR}${only ? ` matching E2E_ONLY=${only}` : ''}`);
  const out = [];
  for (const file of chosen) {
    const mod = await import(pathToFileURL(join(SCENARIO_DIR, file)).href);
    if (typeof mod.name !== 'string' || typeof mod.run !== 'function') {
      throw new Error(`${file} must export 'name' (string) and 'run(ctx)' (async function)`);
    }
    const expectedErrors = mod.expectedErrors ?? [];
    if (!Array.isArray(expectedErrors) || !expectedErrors.every((r) => r instanceof RegExp)) {
      throw new Error(`${file}: 'expectedErrors' must be an array of RegExp`);
    }
    checkGiven(mod.given, file);
    // The pseudo-locale scenarios run only in a pseudo-locale run, and only they (lib/pseudoL10n.mjs).
    if (Boolean(mod.pseudoL10n) !== PSEUDO_L10N) continue;
    out.push({
      id: file.replace(/\.mjs$/, ''),
      name: mod.name,
      run: mod.run,
      given: mod.given,
      timeout: mod.timeout ?? DEFAULT_SCENARIO_TIMEOUT,
      expectedErrors,
    });
  }
  return out;
}

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

const firstLine = (error) => String(error?.message ?? error).split('\n')[0];

async function main() {
  const scenarios = await loadScenarios();
  const cleanups = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    cleanups.length = 0;
  };
  process.once('SIGINT', () => {
    cleanup().finally(() => process.exit(130));
  });
  process.once('SIGTERM', () => {
    cleanup().finally(() => process.exit(143));
  });

  const stopStress = startStress(STRESS, { log });
  cleanups.push(async () => stopStress());
  if (SCALE !== 1) log(`timeouts scaled by ${SCALE.toFixed(2)}`);
  const toolchain = await ensureToolchain({ log });
  // E2E_VSIX / E2E_HUB_TEMPLATE reuse a package and a seeded hub folder made by an earlier step
  // (say, a loop running each scenario alone on the same build); by default both are made here,
  // and the hubs run the hub bundle the package carries (with E2E_VSIX, dist/hub.js of `npm run build`).
  const { vsix, hubJs } = process.env.E2E_VSIX ? { vsix: process.env.E2E_VSIX, hubJs: DEV_HUB } : await buildVsix({ log });
  const { files, bytes } = checkVsix(vsix);
  log(`vsix: ${files.length} files, ${(bytes / 1024).toFixed(0)} KiB, only dist/media/manifest/docs`);

  rmSync(ARTIFACTS, { recursive: true, force: true });
  mkdirSync(ARTIFACTS, { recursive: true });
  /** @type {{ s: any, attempts: { error?: Error, ms: number, dir: string }[] }[]} */
  const results = scenarios.map((s) => ({ s, attempts: [] }));
  try {
    const browser = await chromium.launch({
      executablePath: toolchain.chromium,
      args: CHROMIUM_ARGS,
      headless: !process.env.E2E_HEADED,
      slowMo: Number(process.env.E2E_SLOWMO) || 0,
    });
    cleanups.push(() => browser.close());
    const laneCount = Math.min(LANES, scenarios.length);
    if (laneCount > 1) log(`${laneCount} lanes: scenarios run side by side, each lane with its own hub and code-server`);
    const lanes = await Promise.all(
      Array.from({ length: laneCount }, (_, n) =>
        startLane({
          n: n + 1,
          label: laneCount > 1 ? `[${n + 1}] ` : '',
          toolchain,
          vsix,
          hubJs,
          browser,
          artifacts: ARTIFACTS,
          cleanups,
          hubTemplate: process.env.E2E_HUB_TEMPLATE || undefined,
          env: PSEUDO_L10N ? { VERSIONED_DB_L10N_BUNDLE: writePseudoBundle(ROOT, ARTIFACTS) } : {},
          log,
        }),
      ),
    );

    /**
     * Brings a new window to the scenario's `given` state: the first time in a lane through the UI
     * (and keeps a copy of the storage), later from the copy, checking the view shows its databases.
     */
    const reachGiven = async (lane, s, ctx, copied) => {
      const t0 = Date.now();
      const databases = s.given.databases ?? [];
      if (copied) {
        await ctx.openView();
        for (const name of databases) await ctx.treeItem(name);
        ctx.log(`given: opened on a copy of the storage (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
        return;
      }
      if (s.given.signedIn) await ctx.fixture.signedIn(s.given.signedIn);
      if (databases.length) await ctx.fixture.databases(...databases);
      const origin = new URL(lane.vscode.url).origin;
      lane.givenCopies.set(
        givenKey(s.given),
        await captureGiven({ context: lane.context, origin, given: s.given, timeout: Math.round(30_000 * SCALE) }),
      );
      ctx.log(
        `given: reached through the UI and copied (${((Date.now() - t0) / 1000).toFixed(1)} s); later scenarios of this lane in this state start from the copy`,
      );
    };

    /** One attempt of one scenario in a new window of `lane`; resolves the error, if any. */
    const attempt = async (lane, s, dir) => {
      const { context, vscode, hub, logs } = lane;
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      if (TRACE !== 'off') await context.tracing.startChunk({ title: `${s.id} ${dir}` });
      let error;
      let page;
      let pageErrors = { take: () => [] };
      try {
        const copy = s.given ? lane.givenCopies.get(givenKey(s.given)) : undefined;
        const w0 = Date.now();
        page = await freshWindow({ context, vscode, hub, logs, given: copy, scale: SCALE, log: lane.log });
        lane.log(`  ${s.id}: new window (${((Date.now() - w0) / 1000).toFixed(1)} s)`);
        page.setDefaultTimeout(Math.round(30_000 * SCALE));
        pageErrors = watchPage(page);
        const ctx = scenarioContext({
          page,
          hub: lane.hubHandle,
          workspaceDir: vscode.workspaceDir,
          artifactsDir: dir,
          helpers: createHelpers(page, { scale: SCALE }),
          extensionLog: () => logs.extensionLog(),
          log: (m) => lane.log(`  ${s.id}: ${m}`),
        });
        await withTimeout(
          Promise.resolve().then(async () => {
            if (s.given) await reachGiven(lane, s, ctx, copy !== undefined);
            await s.run(ctx);
          }),
          Math.round(s.timeout * SCALE),
          s.id,
        );
      } catch (e) {
        error = e;
      }
      // Log lines reach their files a moment after they are written: wait until they stop coming.
      await logs.settled({ timeoutMs: Math.round(10_000 * SCALE) });
      // Errors the scenario provokes on purpose (e.g. a 401) are declared by it, narrowly.
      const reported = [...logs.newErrors(), ...pageErrors.take()].filter((e) => !s.expectedErrors.some((re) => re.test(e)));
      if (!error && reported.length) error = new Error(`the extension reported errors:\n${reported.join('\n')}`);
      else if (error && reported.length) error.message += `\n(also reported: ${reported.join('\n')})`;
      if (error) {
        if (page) await page.screenshot({ path: join(dir, 'failure.png') }).catch(() => undefined);
        if (page) await describeFrames(page, join(dir, 'failure-frames.json')).catch(() => undefined);
        if (TRACE !== 'off') await context.tracing.stopChunk({ path: join(dir, 'trace.zip') }).catch(() => undefined);
      } else if (TRACE !== 'off') {
        await context.tracing.stopChunk();
      }
      return error;
    };

    /** Attempt `n` of a scenario in `lane`, recorded and logged. */
    const run = async (lane, record, n) => {
      const { s } = record;
      const dir = n === 1 ? join(ARTIFACTS, s.id) : join(ARTIFACTS, s.id, `attempt-${n}`);
      const t0 = Date.now();
      const error = await attempt(lane, s, dir);
      const ms = Date.now() - t0;
      record.attempts.push({ error, ms, dir });
      const tag = error ? 'FAIL' : n === 1 ? 'ok  ' : 'ok (FLAKY: passed on attempt 2)';
      lane.log(`${tag} ${s.id} — ${s.name} (${(ms / 1000).toFixed(1)} s${n > 1 ? ', alone in a new window' : ''})`);
      if (error)
        lane.log(
          `     ${String(error.stack ?? error)
            .split('\n')
            .join('\n     ')}`,
        );
      if (error && n <= RETRIES) lane.log(`     ${s.id} will be retried once, alone, when the other scenarios are done`);
    };

    // Each lane takes the next scenario as soon as it is free.
    const queue = [...results];
    await Promise.all(
      lanes.map(async (lane) => {
        for (let record = queue.shift(); record; record = queue.shift()) await run(lane, record, 1);
      }),
    );
    // A failed scenario runs once more, alone: nothing else runs beside it, in any lane.
    for (let n = 2; n <= 1 + RETRIES; n++) {
      for (const record of results) if (record.attempts.at(-1).error) await run(lanes[0], record, n);
    }

    if (process.env.E2E_KEEP) {
      for (const lane of lanes) lane.log(`E2E_KEEP: VS Code at ${lane.vscode.folderUrl}, hub at ${lane.hub.url}; Ctrl+C stops them`);
      await new Promise(() => undefined);
    }
  } finally {
    await cleanup();
  }
  return report(results);
}

/** Prints the summary and writes flakes.json; resolves the exit code. */
function report(results) {
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const passed = results.filter((r) => !r.attempts.at(-1).error);
  const failed = results.filter((r) => r.attempts.at(-1).error);
  const flaky = passed.filter((r) => r.attempts.length > 1);
  const entry = (r) => ({
    id: r.s.id,
    name: r.s.name,
    outcome: r.attempts.at(-1).error ? 'failed' : 'flaky',
    attempts: r.attempts.map((a) => ({
      passed: !a.error,
      seconds: Math.round(a.ms / 100) / 10,
      error: a.error ? String(a.error.message ?? a.error) : undefined,
      artifacts: a.dir,
    })),
  });
  const firstFailures = results.filter((r) => r.attempts[0].error);
  writeFileSync(
    join(ARTIFACTS, 'flakes.json'),
    `${JSON.stringify(
      {
        finishedAt: new Date().toISOString(),
        seconds: Number(seconds),
        stress: STRESS,
        timeoutScale: SCALE,
        scenarios: results.length,
        // Every scenario whose first attempt failed: "flaky" when the retry passed, else "failed".
        firstAttemptFailures: firstFailures.map(entry),
      },
      null,
      2,
    )}\n`,
  );

  console.log(`\ne2e summary (${seconds} s${STRESS ? `, E2E_STRESS=${STRESS}` : ''}); artifacts in ${ARTIFACTS}`);
  for (const r of flaky)
    console.log(
      `  FLAKY: ${r.s.id} — first attempt failed: ${firstLine(r.attempts[0].error)} (passed alone on attempt 2; see ${r.attempts[0].dir})`,
    );
  for (const r of failed) console.log(`  FAILED: ${r.s.id} — ${firstLine(r.attempts.at(-1).error)}`);
  if (firstFailures.length) console.log(`  first-attempt failures are listed in ${join(ARTIFACTS, 'flakes.json')}`);
  console.log(`${passed.length} passed, ${failed.length} failed`);
  return failed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`e2e: ${e.stack ?? e}`);
    process.exit(1);
  },
);
