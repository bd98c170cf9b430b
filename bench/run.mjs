// `npm run bench -- NAME [args...]` runs one benchmark; with no name it lists them. Each prints
// ratios against a baseline measured in the same run; the figures go in bench/RESULTS.md.
// Benchmarks never pass or fail on time: they measure, and the tests never depend on them.
import { spawnSync } from 'node:child_process';

const TSX = ['--import', 'tsx'];
const BENCHES = {
  'client-overhead': { args: [...TSX, 'bench/client-overhead.mjs'], about: 'per-request overhead vs raw undici on loopback' },
  upload: { args: [...TSX, 'bench/upload.mjs'], about: 'upload of a generated file (MiB, default 512) vs raw parallel PUTs' },
  hub: { args: ['bench/hub.mjs'], build: true, about: 'hub SQL, 1M-row import and 100k-row merge vs DoltLite directly' },
  'hub-load': {
    args: ['bench/hub-load.mjs'],
    build: true,
    about: 'hub short-request latency with and without long anonymous queries (loopback)',
  },
  import: { args: [...TSX, 'bench/import.mjs'], build: true, about: '200 MB CSV through the extension import path vs a raw copy' },
  grid: { args: ['bench/grid.mjs'], build: true, about: 'result grid first paint, scroll and memory vs a full-DOM table' },
  'table-browser': {
    args: ['--expose-gc', 'bench/tableBrowser.mjs'],
    build: true,
    about: 'table browser on a 1M-row hub table: open to first page drawn, scroll to the end, host + webview memory',
  },
  'table-editing': {
    args: ['--expose-gc', 'bench/tableEditing.mjs'],
    about: 'a change set of 10,000 edited rows over a 1M-row table: host + webview memory, scrolling with the edit overlay vs without',
  },
  propose: {
    args: ['bench/propose.mjs'],
    build: true,
    about: 'Propose Changes… of 10,000 edited rows of a 1M-row table vs the same branch, import and pull sent by hand through the API',
  },
  export: {
    args: ['bench/export.mjs'],
    build: true,
    about:
      'export of a 1M-row table (table browser keyset pages, Load All Rows OFFSET pages) vs a direct DoltLite dump; extension and hub memory',
  },
  activation: { args: ['bench/activation.mjs'], about: 'activation time in code-server vs an empty extension; bundle size' },
  'pull-diff': {
    args: ['--expose-gc', ...TSX, 'bench/pullDiff.mjs'],
    build: true,
    about: "a 100,000-row pull diff scrolled in the Changes view's grid vs every query of the view raw",
  },
  'changes-export': {
    args: [...TSX, 'bench/changesExport.mjs'],
    build: true,
    about: "the Changes view's CSV and SQL patch export of a 100,000-row diff vs a direct DoltLite read",
  },
  'grid-rows': {
    args: ['bench/gridRowFloor.mjs'],
    about: 'what a screen of new rows costs Chromium: our grid vs rows built by hand and a canvas',
  },
};

const [name, ...rest] = process.argv.slice(2);
const bench = name ? BENCHES[name] : undefined;
if (!bench) {
  if (name) console.error(`bench: unknown benchmark '${name}'`);
  console.log('usage: npm run bench -- NAME [args]\n');
  for (const [n, b] of Object.entries(BENCHES)) console.log(`  ${n.padEnd(16)} ${b.about}`);
  process.exit(name ? 2 : 0);
}
if (bench.build) {
  const b = spawnSync(process.execPath, ['esbuild.mjs'], { stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const r = spawnSync(process.execPath, [...bench.args, ...rest], { stdio: 'inherit' });
process.exit(r.status ?? 1);
