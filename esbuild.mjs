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

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    metafile: true,
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
];

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
  console.log('esbuild: watching');
} else {
  const results = await Promise.all(builds.map((b) => esbuild.build(b)));
  for (const r of results) {
    if (r.errors.length) process.exit(1);
  }
}
