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
import { prepareAttempt, runAttempt } from './lib/attempt.mjs';
import { DEV_HUB } from './lib/hub.mjs';
import { CHROMIUM_ARGS, SEATS, startLane, startTracing, TRACE } from './lib/lane.mjs';
import { startStress } from './lib/stress.mjs';
import { ensureToolchain, ROOT } from './lib/toolchain.mjs';
import { buildVsix, checkVsix } from './lib/vsix.mjs';
import { closeWindow } from './lib/window.mjs';
import { checkGiven } from './lib/profile.mjs';
import { PSEUDO_L10N, writePseudoBundle } from './lib/pseudoL10n.mjs';

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
    if (mod.workspaceSettings !== undefined && (typeof mod.workspaceSettings !== 'object' || Array.isArray(mod.workspaceSettings)))
      throw new Error(`${file}: 'workspaceSettings' must be an object of setting ids and values`);
    // The pseudo-locale scenarios run only in a pseudo-locale run, and only they (lib/pseudoL10n.mjs).
    if (Boolean(mod.pseudoL10n) !== PSEUDO_L10N) continue;
    out.push({
      id: file.replace(/\.mjs$/, ''),
      name: mod.name,
      run: mod.run,
      given: mod.given,
      workspaceSettings: mod.workspaceSettings,
      timeout: mod.timeout ?? DEFAULT_SCENARIO_TIMEOUT,
      expectedErrors,
    });
  }
  return out;
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
    if (laneCount > 1) log(`${laneCount} lanes: scenarios run side by side, each lane with its own hubs and code-servers`);
    // A lane that runs one scenario has nothing to prepare beside it.
    const seatCount = scenarios.length > laneCount ? SEATS : 1;
    log(
      seatCount > 1
        ? `${seatCount} seats per lane (hub, code-server, browser context each): the next scenario's window is made ready while one runs (E2E_PIPELINE=0: one seat)`
        : 'one seat per lane (E2E_PIPELINE=0, or one scenario per lane): each new window is made after the scenario before it ends',
    );
    const lanes = await Promise.all(
      Array.from({ length: laneCount }, (_, n) =>
        startLane({
          n: n + 1,
          label: laneCount > 1 ? `[${n + 1}] ` : '',
          seatCount,
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
     * Runs attempt `n` of a scenario (prepared in `prepared`) in `lane`; resolves `{ judged }` once
     * it has run, `judged` once it is judged, recorded and logged (beside the next scenario).
     */
    const run = async (lane, record, n, prepared, waitedMs) => {
      const { s } = record;
      // What the lane waited for this window once the scenario before it had ended (all of its making with one seat).
      lane.log(`  ${s.id}: starts; its window cost the lane ${(waitedMs / 1000).toFixed(1)} s`);
      const t0 = Date.now();
      const { judged } = await runAttempt({ prepared, scale: SCALE });
      const ms = Date.now() - t0;
      return {
        judged: judged.then(({ error, settleMs }) => {
          record.attempts.push({ error, ms, dir: prepared.dir });
          const tag = error ? 'FAIL' : n === 1 ? 'ok  ' : 'ok (FLAKY: passed on attempt 2)';
          const how = `${(ms / 1000).toFixed(1)} s, logs settled ${(settleMs / 1000).toFixed(1)} s after${n > 1 ? ', alone in a new window' : ''}`;
          lane.log(`${tag} ${s.id} — ${s.name} (${how})`);
          if (error)
            lane.log(
              `     ${String(error.stack ?? error)
                .split('\n')
                .join('\n     ')}`,
            );
          if (error && n <= RETRIES) lane.log(`     ${s.id} will be retried once, alone, when the other scenarios are done`);
        }),
      };
    };
    const prepare = (lane, seat, record, n) =>
      prepareAttempt({
        lane,
        seat,
        s: record.s,
        dir: n === 1 ? join(ARTIFACTS, record.s.id) : join(ARTIFACTS, record.s.id, `attempt-${n}`),
        scale: SCALE,
      });

    // Each lane takes the next scenario as soon as it is free. With two seats the next scenario's
    // window is prepared in the other seat while one runs (lib/lane.mjs, lib/attempt.mjs); a
    // scenario is judged (its logs settled and read) beside the next one, and its seat prepares
    // nothing until then.
    const queue = [...results];
    await Promise.all(
      lanes.map(async (lane) => {
        /** seat → its last attempt's judgement */
        const judging = new Map();
        const prepareIn = (seatPromise, upcoming) => {
          const p = (async () => {
            if (!upcoming) return undefined;
            const seat = await seatPromise;
            await judging.get(seat);
            return prepare(lane, seat, upcoming, 1);
          })();
          // A seat that failed to start fails the run where the loop awaits it, not before.
          p.catch(() => undefined);
          return p;
        };
        let turn = 0;
        let record = queue.shift();
        let next = prepareIn(lane.seats[0], record);
        while (record) {
          const current = record;
          const w0 = Date.now();
          const prepared = await next;
          const waited = Date.now() - w0;
          record = queue.shift();
          turn++;
          const seat = lane.seats[turn % lane.seats.length];
          if (lane.seats.length > 1) next = prepareIn(seat, record);
          const { judged } = await run(lane, current, 1, prepared, waited);
          judging.set(prepared.seat, judged);
          if (lane.seats.length === 1) next = prepareIn(seat, record);
        }
        await Promise.all(judging.values());
      }),
    );
    // A failed scenario runs once more, alone: every window is closed first, and nothing is
    // prepared beside it.
    if (results.some((r) => r.attempts.at(-1).error) && RETRIES) {
      for (const lane of lanes)
        for (const seat of await Promise.all(lane.seats)) await closeWindow({ context: seat.context, vscode: seat.vscode, log: seat.log });
      // The retries' traces hold a DOM snapshot per action (E2E_TRACE=auto).
      const { context } = await lanes[0].seats[0];
      if (TRACE === 'auto') await context.tracing.stop().then(() => startTracing(context, true));
    }
    for (let n = 2; n <= 1 + RETRIES; n++) {
      for (const record of results) {
        if (!record.attempts.at(-1).error) continue;
        const prepared = await prepare(lanes[0], await lanes[0].seats[0], record, n);
        const { judged } = await run(lanes[0], record, n, prepared, prepared.readyAt - prepared.t0);
        await judged;
      }
    }

    if (process.env.E2E_KEEP) {
      for (const lane of lanes)
        for (const seat of await Promise.all(lane.seats))
          seat.log(`E2E_KEEP: VS Code at ${seat.vscode.folderUrl}, hub at ${seat.hub.url}; Ctrl+C stops them`);
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
