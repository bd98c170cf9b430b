// Builds the .vsix the way a release would (`npm run package`: production bundle + vsce) and
// checks that it carries only what runs: the bundles, media, the manifest and the docs.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './toolchain.mjs';

/** Files a .vsix may hold under extension/ (vsce adds its own manifest files at the root). */
const ALLOWED = [
  /^dist\//,
  /^media\//,
  /^package\.json$/,
  /^package\.nls(\.[\w-]+)?\.json$/,
  /^l10n\/bundle\.l10n(\.[\w-]+)?\.json$/,
  /^readme\.md$/i,
  /^license(\.(md|txt))?$/i,
  /^changelog\.md$/i,
];
const FORBIDDEN_IN_DIST = [/\.map$/, /\.vsix$/, /\.meta\.json$/];

/**
 * Runs `npm run package`'s script (scripts/package.mjs: production bundle + vsce, as a release
 * would) in a temp folder private to this run, so other runs in the same tree (and the suites
 * running from dist/) never see it half-written. Resolves { vsix, stage, hubJs }: the package, the
 * folder it was built in, and the local hub bundle it carries (the staged dist/hub.js), which the
 * runners serve.
 */
export function buildVsix({ log = () => {} } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'vdb-vsix-'));
  const out = join(dir, 'versioned-db.vsix');
  const stage = join(dir, 'stage');
  log('vsix: npm run package');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'package.mjs'), '--out', out, '--stage', stage], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`npm run package failed (exit ${code}):\n${output}`));
      if (!existsSync(out)) return reject(new Error(`npm run package did not write ${out}:\n${output}`));
      resolve({ vsix: out, stage, hubJs: join(stage, 'dist', 'hub.js') });
    });
  });
}

/** Entries ({ name, size } uncompressed) of a zip file, read from its central directory. */
export function zipEntries(file) {
  const buf = readFileSync(file);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip file`);
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const names = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: bad central directory`);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    names.push({ name: buf.toString('utf8', p + 46, p + 46 + nameLen), size: buf.readUInt32LE(p + 24) });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}

/** The files the extension consists of once installed: { name (relative to its folder), size }. */
export function packagedFiles(file) {
  return zipEntries(file)
    .filter((e) => e.name.startsWith('extension/'))
    .map((e) => ({ name: e.name.slice('extension/'.length), size: e.size }));
}

/**
 * The size budget of the package (bench/RESULTS.md "Package size" says why these numbers): the
 * .vsix as downloaded, everything it unpacks to, and any one file in it.
 */
export const VSIX_BUDGET = { vsixBytes: 4 * 1024 * 1024, unpackedBytes: 10 * 1024 * 1024, fileBytes: 4 * 1024 * 1024 };

/** Throws listing every file the package should not carry and every budget it breaks; returns its files and sizes. */
export function checkVsix(file) {
  const entries = packagedFiles(file);
  const files = entries.map((e) => e.name);
  const bad = files.filter((f) => !ALLOWED.some((re) => re.test(f)) || FORBIDDEN_IN_DIST.some((re) => re.test(f)));
  if (!files.includes('package.json') || !files.includes('dist/extension.js')) {
    throw new Error(`${file} lacks package.json or dist/extension.js: ${files.join(', ')}`);
  }
  if (bad.length) throw new Error(`${file} carries files that do not run: ${bad.join(', ')}`);
  const bytes = statSync(file).size;
  const unpacked = entries.reduce((n, e) => n + e.size, 0);
  const over = [
    bytes > VSIX_BUDGET.vsixBytes ? `the .vsix is ${bytes} bytes (budget ${VSIX_BUDGET.vsixBytes})` : '',
    unpacked > VSIX_BUDGET.unpackedBytes ? `it unpacks to ${unpacked} bytes (budget ${VSIX_BUDGET.unpackedBytes})` : '',
    ...entries
      .filter((e) => e.size > VSIX_BUDGET.fileBytes)
      .map((e) => `${e.name} is ${e.size} bytes (budget ${VSIX_BUDGET.fileBytes} a file)`),
  ].filter(Boolean);
  if (over.length) throw new Error(`${file} is over its size budget: ${over.join('; ')}`);
  return { files, bytes, unpacked, entries };
}
