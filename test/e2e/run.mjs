// The end-to-end runner: a real VS Code (code-server) in Chromium, driven like a person would.
// See test/e2e/README.md for what it does, the scenario contract and the env options.
import { cpSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { startCodeServer } from './lib/codeServer.mjs';
import { createHelpers, scenarioContext } from './lib/context.mjs';
import { startHub } from './lib/hub.mjs';
import { LogWatch, watchPage } from './lib/logs.mjs';
import { ensureToolchain, ROOT } from './lib/toolchain.mjs';
import { buildVsix, checkVsix } from './lib/vsix.mjs';

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-dev-shm-usage',
];

const SCENARIO_DIR = join(ROOT, 'test', 'e2e', 'scenarios');
const ARTIFACTS = join(ROOT, '.artifacts', 'e2e');
const DEFAULT_SCENARIO_TIMEOUT = 180_000;
const started = Date.now();
const log = (m) => console.log(`[e2e ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${m}`);

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000} s`)), ms); }),
  ]);
}

async function loadScenarios() {
  const only = process.env.E2E_ONLY;
  const files = readdirSync(SCENARIO_DIR).filter((f) => /^\d+-.+\.mjs$/.test(f)).sort();
  const wanted = only ? only.split(',').map((x) => x.trim()).filter(Boolean) : [];
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
    out.push({ id: file.replace(/\.mjs$/, ''), name: mod.name, run: mod.run, timeout: mod.timeout ?? DEFAULT_SCENARIO_TIMEOUT, expectedErrors });
  }
  return out;
}

/** Waits until the workbench has rendered and the extension host has started extensions. */
async function openWorkbench(page, url) {
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 90_000 });
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 30_000 });
}

async function runSuite() {
  const scenarios = await loadScenarios();
  const toolchain = await ensureToolchain({ log });
  const vsix = await buildVsix({ log });
  const { files, bytes } = checkVsix(vsix);
  log(`vsix: ${files.length} files, ${(bytes / 1024).toFixed(0)} KiB, only dist/media/manifest/docs`);

  mkdirSync(ARTIFACTS, { recursive: true });
  rmSync(join(ARTIFACTS, 'vscode-logs'), { recursive: true, force: true });
  const cleanups = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    cleanups.length = 0;
  };
  process.once('SIGINT', () => { cleanup().finally(() => process.exit(130)); });
  process.once('SIGTERM', () => { cleanup().finally(() => process.exit(143)); });

  const results = [];
  try {
    const hub = await startHub({ log });
    cleanups.push(() => hub.stop());
    await hub.token('alice');
    const vscode = await startCodeServer({
      toolchain,
      vsixes: [vsix],
      settings: { 'versionedDb.hosts': [{ name: 'Test Hub', url: hub.url }] },
      log,
    });
    cleanups.push(() => vscode.stop());
    // Runs before the stop above (cleanups run in reverse): VS Code's own logs (extension host,
    // the extension's channel) outlive the temp profile, also when the run breaks off early.
    cleanups.push(async () => cpSync(join(vscode.userDataDir, 'logs'), join(ARTIFACTS, 'vscode-logs'), { recursive: true }));

    const browser = await chromium.launch({
      executablePath: toolchain.chromium,
      args: CHROMIUM_ARGS,
      headless: !process.env.E2E_HEADED,
      slowMo: Number(process.env.E2E_SLOWMO) || 0,
    });
    cleanups.push(() => browser.close());
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.tracing.start({ screenshots: true, snapshots: true, sources: false });
    const page = await context.newPage();
    const pageErrors = watchPage(page);
    const logs = new LogWatch(join(vscode.userDataDir, 'logs'));

    log(`workbench: opening ${vscode.folderUrl}`);
    await openWorkbench(page, vscode.folderUrl);
    const helpers = createHelpers(page);

    for (const s of scenarios) {
      const dir = join(ARTIFACTS, s.id);
      rmSync(dir, { recursive: true, force: true });
      const ctx = scenarioContext({
        page,
        hub: { url: hub.url, dataDir: hub.dataDir, token: hub.token, api: hub.api },
        workspaceDir: vscode.workspaceDir,
        artifactsDir: dir,
        helpers,
        extensionLog: () => logs.extensionLog(),
        log: (m) => log(`  ${s.id}: ${m}`),
      });
      await context.tracing.startChunk({ title: s.id });
      const t0 = Date.now();
      let error;
      try {
        await withTimeout(Promise.resolve().then(() => s.run(ctx)), s.timeout, s.id);
      } catch (e) {
        error = e;
      }
      // Log lines reach their files a moment after they are written; let them land.
      await page.waitForTimeout(750);
      // Errors the scenario provokes on purpose (e.g. a 401) are declared by it, narrowly.
      const reported = [...logs.newErrors(), ...pageErrors.take()].filter((e) => !s.expectedErrors.some((re) => re.test(e)));
      if (!error && reported.length) error = new Error(`the extension reported errors:\n${reported.join('\n')}`);
      else if (error && reported.length) error.message += `\n(also reported: ${reported.join('\n')})`;
      if (error) {
        await page.screenshot({ path: join(dir, 'failure.png') }).catch(() => undefined);
        await context.tracing.stopChunk({ path: join(dir, 'trace.zip') }).catch(() => undefined);
      } else {
        await context.tracing.stopChunk();
      }
      const ms = Date.now() - t0;
      results.push({ s, error, ms });
      log(`${error ? 'FAIL' : 'ok  '} ${s.id} — ${s.name} (${(ms / 1000).toFixed(1)} s)`);
      if (error) log(`     ${String(error.stack ?? error).split('\n').join('\n     ')}`);
    }

    if (process.env.E2E_KEEP) {
      log(`E2E_KEEP: VS Code at ${vscode.folderUrl}, hub at ${hub.url}; Ctrl+C stops them`);
      await new Promise(() => undefined);
    }
  } finally {
    await cleanup();
  }

  const failed = results.filter((r) => r.error);
  console.log(`\n${results.length - failed.length} passing, ${failed.length} failing (${((Date.now() - started) / 1000).toFixed(0)} s); artifacts in ${ARTIFACTS}`);
  for (const r of failed) console.log(`  failed: ${r.s.id} — ${r.s.name}`);
  return failed.length ? 1 : 0;
}

/**
 * A UI driven through a real browser on a loaded 2-core machine can miss a beat. When any scenario
 * fails, the whole suite runs once more on a fresh hub and a fresh VS Code (scenarios build on each
 * other, so one cannot be retried alone). A failure that repeats fails the run; a first failure is
 * printed loudly and its artifacts are kept in .artifacts/e2e-attempt-N. E2E_ATTEMPTS=1 turns it off.
 */
async function main() {
  const attempts = Math.max(1, Number(process.env.E2E_ATTEMPTS ?? 2) || 1);
  for (let attempt = 1; ; attempt++) {
    const code = await runSuite();
    if (code === 0 || attempt >= attempts) return code;
    const kept = `${ARTIFACTS}-attempt-${attempt}`;
    rmSync(kept, { recursive: true, force: true });
    renameSync(ARTIFACTS, kept);
    console.log(`\ne2e: ATTEMPT ${attempt} OF ${attempts} FAILED (artifacts kept in ${kept}); running the whole suite again on a fresh hub and VS Code\n`);
  }
}

main().then((code) => process.exit(code), (e) => {
  console.error(`e2e: ${e.stack ?? e}`);
  process.exit(1);
});
