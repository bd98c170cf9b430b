// Bundles every runtime of the extension. Each entry says where it runs:
//  - dist/extension.js  VS Code extension host (Node, CJS, `vscode` external)
//  - further entries (hub, renderer, webviews) are added by their owners below.
// `--production` minifies and drops sourcemaps; `--watch` rebuilds on change; `--outdir=DIR`
// writes the bundles to DIR instead of dist/ (scripts/package.mjs builds a release there, so
// packaging never rewrites the dist/ that tests and the hub run from).
import * as esbuild from 'esbuild';
import * as path from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const OUT = process.argv.find((a) => a.startsWith('--outdir='))?.slice('--outdir='.length) || 'dist';

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
};

/**
 * Modules the extension host loads on first use instead of at activation, each bundled as its
 * own file in dist/ (entries below). In dist/extension.js an import or require of one of them
 * becomes a run-time `require('./<file>')`, so activation never parses undici (the API client),
 * markdown-it (the pull request view) or the import readers (exceljs, yaml, csv-parse, ...).
 * Each lazy bundle carries its own copy of what it imports, so code must not use `instanceof`
 * across them (errors are classified by name and code).
 */
const LAZY_MODULES = {
  'src/api/index.ts': 'api.js',
  'src/core/markdown.ts': 'markdown.js',
  'src/commands/importFile.ts': 'importFile.js',
};
const lazyModules = {
  name: 'lazy-modules',
  setup(build) {
    const root = process.cwd();
    build.onResolve({ filter: /^\./ }, (args) => {
      for (const [source, file] of Object.entries(LAZY_MODULES)) {
        const target = path.resolve(root, source);
        const asked = path.resolve(args.resolveDir, args.path).replace(/\.js$/, '');
        if (asked === target.replace(/\.ts$/, '') && args.importer !== target) {
          return { path: `./${file}`, external: true };
        }
      }
      return undefined;
    });
  },
};

/**
 * Every `import * as vscode from 'vscode'` compiles to `__toESM(require('vscode'))`, which copies
 * all ~400 properties of the API object into a fresh namespace object: with 24 importing files
 * that was 15-20 ms of the extension's module evaluation. Route them through one ESM module that
 * re-exports the external, so the copy is made once per bundle.
 */
const sharedVscodeNamespace = {
  name: 'shared-vscode-namespace',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-namespace' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-namespace' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-namespace' }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
  },
};

/** The bundle options of one lazily loaded module (see LAZY_MODULES). */
function lazyBundle(source, file) {
  return {
    ...common,
    entryPoints: [source],
    outfile: `${OUT}/${file}`,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [sharedVscodeNamespace],
  };
}

/** @type {esbuild.BuildOptions[]} */
const builds = [
  // The local hub CLI + server (`node dist/hub.js`, also run by the extension with
  // ELECTRON_RUN_AS_NODE): self-contained, no node_modules at run time. The DoltLite glue finds
  // its .wasm through import.meta.url, which a CJS bundle lacks: point it at dist/hub.js and
  // copy sqlite3.wasm beside it (see copyHubWasm below).
  {
    ...common,
    entryPoints: ['src/hub/main.ts'],
    outfile: `${OUT}/hub.js`,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    define: { 'import.meta.url': '__hubImportMetaUrl' },
    banner: { js: "const __hubImportMetaUrl = require('url').pathToFileURL(__filename).href;" },
  },
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: `${OUT}/extension.js`,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    metafile: true,
    plugins: [lazyModules, sharedVscodeNamespace],
    // When the module body started and finished evaluating, for the activation log line
    // (module-scoped: the CommonJS wrapper encloses banner and footer).
    banner: { js: '"use strict"; var __versionedDbModuleStart = performance.now();' },
    footer: { js: 'var __versionedDbModuleEnd = performance.now();' },
    // import() becomes a lazy require(), so the extension host's CJS loader handles it.
    supported: { 'dynamic-import': false },
  },
  // The API client (undici), the markdown renderer and the import flow with its file readers:
  // loaded on first use, so activation never pays for them.
  ...Object.entries(LAZY_MODULES).map(([source, file]) => lazyBundle(source, file)),
  // Pull request view's script (browser, classic script loaded under a nonce by src/views/pullPanel.ts).
  {
    ...common,
    entryPoints: ['src/webview/pull.ts'],
    outfile: `${OUT}/webview/pull.js`,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
  // The Resolve view's script (issue #24), loaded the same way by src/views/resolvePanel.ts.
  {
    ...common,
    entryPoints: ['src/webview/resolve.ts'],
    outfile: `${OUT}/webview/resolve.js`,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
  // Notebook result grid (browser, ESM: VS Code imports it and calls `activate`), and the same
  // grid as a classic script for the SQL result webview panel.
  {
    ...common,
    entryPoints: ['src/renderer/notebookRenderer.ts'],
    outfile: `${OUT}/renderer.js`,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"' },
  },
  {
    ...common,
    entryPoints: ['src/renderer/resultPanel.ts'],
    outfile: `${OUT}/resultPanel.js`,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"' },
  },
  // The Changes view's script (issue #15): the changed tables and the paged diff grid, a classic
  // script under the grid webview's CSP (src/platform/gridWebview.ts, src/views/changesPanel.ts).
  {
    ...common,
    entryPoints: ['src/renderer/changesView.ts'],
    outfile: `${OUT}/changesView.js`,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"' },
  },
];

// The hub's engine loads dist/sqlite3.wasm (beside dist/hub.js) at run time.
{
  const { copyFileSync, mkdirSync } = await import('node:fs');
  mkdirSync(OUT, { recursive: true });
  copyFileSync('node_modules/@dolthub/doltlite-wasm/sqlite3.wasm', path.join(OUT, 'sqlite3.wasm'));
}

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
  console.log('esbuild: watching');
} else {
  const results = await Promise.all(builds.map((b) => esbuild.build(b)));
  for (const r of results) {
    if (r.errors.length) process.exit(1);
  }
  // What dist/extension.js is made of, for bench/activation.mjs (never packaged: .vscodeignore).
  const { writeFileSync } = await import('node:fs');
  for (const r of results) if (r.metafile) writeFileSync(path.join(OUT, 'extension.meta.json'), JSON.stringify(r.metafile));
}
