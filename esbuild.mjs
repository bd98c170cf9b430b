// Bundles every runtime of the extension. Each entry says where it runs:
//  - dist/extension.js  VS Code extension host (Node, CJS, `vscode` external)
//  - further entries (hub, renderer, webviews) are added by their owners below.
// `--production` minifies and drops sourcemaps; `--watch` rebuilds on change.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
};

/** Keeps `import('./importFile.js')` a run-time require of dist/importFile.js (its own entry below). */
const lazyImportFlow = {
  name: 'lazy-import-flow',
  setup(build) {
    build.onResolve({ filter: /^\.\/importFile\.js$/ }, (args) =>
      args.importer.endsWith('importCommands.ts') ? { path: './importFile.js', external: true } : undefined,
    );
  },
};

/** @type {esbuild.BuildOptions[]} */
const builds = [
  // The local hub CLI + server (`node dist/hub.js`, also run by the extension with
  // ELECTRON_RUN_AS_NODE): self-contained, no node_modules at run time. The DoltLite glue finds
  // its .wasm through import.meta.url, which a CJS bundle lacks: point it at dist/hub.js and
  // copy sqlite3.wasm beside it (see copyHubWasm below).
  {
    ...common,
    entryPoints: ['src/hub/main.ts'],
    outfile: 'dist/hub.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    define: { 'import.meta.url': '__hubImportMetaUrl' },
    banner: { js: "const __hubImportMetaUrl = require('url').pathToFileURL(__filename).href;" },
  },
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    metafile: true,
    plugins: [lazyImportFlow],
    // import() becomes a lazy require(), so the extension host's CJS loader handles it.
    supported: { 'dynamic-import': false },
  },
  // The import flow and its file readers (exceljs, yaml, stream-json, csv-parse): loaded by the
  // import command on first use (src/commands/importCommands.ts), so activation never pays for them.
  {
    ...common,
    entryPoints: ['src/commands/importFile.ts'],
    outfile: 'dist/importFile.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  },
  // Pull request view's script (browser, classic script loaded under a nonce by src/views/pullPanel.ts).
  {
    ...common,
    entryPoints: ['src/webview/pull.ts'],
    outfile: 'dist/webview/pull.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
  // Notebook result grid (browser, ESM: VS Code imports it and calls `activate`), and the same
  // grid as a classic script for the SQL result webview panel.
  {
    ...common,
    entryPoints: ['src/renderer/notebookRenderer.ts'],
    outfile: 'dist/renderer.js',
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"' },
  },
  {
    ...common,
    entryPoints: ['src/renderer/resultPanel.ts'],
    outfile: 'dist/resultPanel.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"' },
  },
];

// The hub's engine loads dist/sqlite3.wasm (beside dist/hub.js) at run time.
{
  const { copyFileSync, mkdirSync } = await import('node:fs');
  mkdirSync('dist', { recursive: true });
  copyFileSync('node_modules/@dolthub/doltlite-wasm/sqlite3.wasm', 'dist/sqlite3.wasm');
}

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
  console.log('esbuild: watching');
} else {
  const results = await Promise.all(builds.map((b) => esbuild.build(b)));
  for (const r of results) {
    if (r.errors.length) process.exit(1);
  }
}
