// `npm run test:electron`: the same integration suite under @vscode/test-electron, for desktops
// that can download VS Code (these build machines cannot; they use runInVscodeServer.mjs).
// Same contract: builds the extension, bundles the suite, seeds a hub, passes its URL/token
// through config.json, runs VS Code (desktop, Electron) with the extension under development.
// Env: VSCODE_VERSION (default 'stable'), INTEGRATION_GREP. On Linux without a display, run
// under `xvfb-run -a npm run test:electron`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import * as esbuild from 'esbuild';
import { runTests } from '@vscode/test-electron';
import { startHub } from '../e2e/lib/hub.mjs';
import { ROOT } from '../e2e/lib/toolchain.mjs';

const BUNDLE = join(ROOT, '.artifacts', 'integration', 'suite-electron');

function testFiles(dir = join(ROOT, 'test', 'integration')) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return testFiles(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}

async function main() {
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) return 1;
  rmSync(BUNDLE, { recursive: true, force: true });
  const entryPoints = [join(ROOT, 'test', 'integration', 'index.ts'), ...testFiles()].map((p) => ({
    in: p,
    out: relative(join(ROOT, 'test', 'integration'), p)
      .replace(/\.ts$/, '')
      .split(/[\\/]/)
      .join('.'),
  }));
  await esbuild.build({
    entryPoints,
    outdir: BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });

  const hub = await startHub({ log: (m) => console.log(m) });
  const work = mkdtempSync(join(tmpdir(), 'vdb-electron-'));
  const resultsFile = join(work, 'results.json');
  try {
    const settings = { 'versionedDb.hosts': [{ name: 'Test Hub', url: hub.url }] };
    writeFileSync(
      join(BUNDLE, 'config.json'),
      JSON.stringify(
        {
          resultsFile,
          hubUrl: hub.url,
          hubDataDir: hub.dataDir,
          token: await hub.token('alice'),
          settings,
          grep: process.env.INTEGRATION_GREP,
        },
        null,
        2,
      ),
    );
    const userData = join(work, 'user-data');
    mkdirSync(join(userData, 'User'), { recursive: true });
    writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
    const workspace = join(work, 'workspace');
    mkdirSync(workspace);
    await runTests({
      version: process.env.VSCODE_VERSION || 'stable',
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: join(BUNDLE, 'index'),
      extensionTestsEnv: { VERSIONED_DB_TEST_CONFIG: join(BUNDLE, 'config.json') },
      launchArgs: [
        workspace,
        '--user-data-dir',
        userData,
        '--extensions-dir',
        join(work, 'extensions'),
        '--disable-workspace-trust',
        '--disable-extensions',
      ],
    }).catch(() => undefined);
    if (!existsSync(resultsFile)) {
      console.error('test:electron: the suite wrote no results (did VS Code start?)');
      return 1;
    }
    const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
    console.log(`\n${results.report}\n\n  ${results.passes} passing, ${results.failures} failing, ${results.pending} pending`);
    return results.failures > 0 || results.passes === 0 ? 1 : 0;
  } finally {
    await hub.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
