// `npm run package`: the .vsix a release ships. The production bundle is built in a staging
// folder of its own (a copy of the manifest, docs, media and .vscodeignore, plus dist/), and vsce
// packages that folder. So packaging never rewrites dist/, which the development build, the hub
// tests (`node dist/hub.js`) and the integration suite run from: `npm test` can package for the
// end-to-end suite while those suites run beside it (scripts/test.mjs).
//
//   node scripts/package.mjs [--out FILE] [--stage DIR]
//
// --out   where the .vsix goes (default dist/versioned-db.vsix);
// --stage the staging folder, kept afterwards (its dist/hub.js is the hub the package carries,
//         which the end-to-end runner and the demo run); by default a temp folder, removed.
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** What the package is made from besides dist/ (.vscodeignore decides what of it ships). */
const STAGED_FILES = ['package.json', 'package.nls.json', 'README.md', 'CHANGELOG.md', 'LICENSE', '.vscodeignore'];

function run(cmd, args, cwd) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolvePromise() : reject(new Error(`'${cmd} ${args.join(' ')}' failed (exit ${code})`))));
  });
}

/** Builds the production bundle in `stage` and packages it to `out`; resolves { vsix, stage }. */
export async function packageExtension({ out = join(ROOT, 'dist', 'versioned-db.vsix'), stage } = {}) {
  const keep = Boolean(stage);
  const dir = stage ? resolve(stage) : mkdtempSync(join(tmpdir(), 'vdb-package-'));
  // The staging folder's dist/ is replaced: never the checkout's own (or a folder holding it).
  const fromStage = relative(dir, ROOT);
  if (fromStage === '' || (!fromStage.startsWith('..') && !isAbsolute(fromStage))) {
    throw new Error(`--stage ${stage} holds this checkout: its files would be replaced; give a folder of its own`);
  }
  try {
    rmSync(join(dir, 'dist'), { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const f of STAGED_FILES) if (existsSync(join(ROOT, f))) copyFileSync(join(ROOT, f), join(dir, f));
    cpSync(join(ROOT, 'media'), join(dir, 'media'), { recursive: true });
    cpSync(join(ROOT, 'l10n'), join(dir, 'l10n'), { recursive: true });
    await run(process.execPath, [join(ROOT, 'esbuild.mjs'), '--production', `--outdir=${join(dir, 'dist')}`], ROOT);
    mkdirSync(dirname(resolve(out)), { recursive: true });
    await run(
      process.execPath,
      [
        join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'),
        'package',
        '--no-dependencies',
        '--no-rewrite-relative-links',
        '--allow-missing-repository',
        '--out',
        resolve(out),
      ],
      dir,
    );
    return { vsix: resolve(out), stage: dir };
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const value = (flag) => {
    const i = args.indexOf(flag);
    if (i < 0) return undefined;
    if (!args[i + 1]) {
      console.error(`package: ${flag} needs a value`);
      process.exit(2);
    }
    return args[i + 1];
  };
  packageExtension({ out: value('--out'), stage: value('--stage') }).catch((e) => {
    console.error(`package: ${e.message}`);
    process.exit(1);
  });
}
