// `npm run package` (scripts/package.mjs) builds a .vsix fit for the marketplace: no warning from
// vsce, the marketplace icon at 128×128, the changelog, and nothing but what runs (no sources,
// tests or source maps), within the size budget written in bench/RESULTS.md ("Package size").
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

function run(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', rej);
    child.on('close', (code) => res({ code, output }));
  });
}

describe('npm run package', function () {
  this.timeout(300_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'vdb-package-test-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('packages without a warning, with the icon and changelog, only what runs, within the size budget', async () => {
    const vsix = join(dir, 'versioned-db.vsix');
    const { code, output } = await run([join(ROOT, 'scripts', 'package.mjs'), '--out', vsix]);
    assert.equal(code, 0, output);
    assert.doesNotMatch(output, /\bWARNING\b|\bwarn\b/i, `vsce warned:\n${output}`);
    const { checkVsix, VSIX_BUDGET } = await import('../e2e/lib/vsix.mjs');
    const { files, bytes, unpacked } = checkVsix(vsix);
    for (const f of [
      'package.json',
      'dist/extension.js',
      'dist/hub.js',
      'media/icon.png',
      'l10n/bundle.l10n.json',
      'changelog.md',
      'readme.md',
    ])
      assert.ok(
        files.some((g) => g.toLowerCase() === f.toLowerCase()),
        `${f} is not in the package: ${files.join(', ')}`,
      );
    assert.deepEqual(
      files.filter((f) => /\.(ts|map)$|(^|\/)test\/|^src\//.test(f)),
      [],
      'no sources, tests or maps',
    );
    assert.ok(bytes <= VSIX_BUDGET.vsixBytes && unpacked > 0);
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { icon: string };
    const png = readFileSync(join(ROOT, manifest.icon));
    assert.equal(png.toString('ascii', 1, 4), 'PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128], 'the icon is 128×128');
  });

  it('the budget check fails a package over it (the check can fail)', async () => {
    const { checkVsix } = await import('../e2e/lib/vsix.mjs');
    const big = join(dir, 'big.vsix');
    // A zip whose one entry claims more than the per-file budget: the check reads the central directory.
    const name = Buffer.from('extension/dist/huge.js');
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt32LE(5 * 1024 * 1024, 24);
    central.writeUInt16LE(name.length, 28);
    const pkg = Buffer.from('extension/package.json');
    const central2 = Buffer.alloc(46);
    central2.writeUInt32LE(0x02014b50, 0);
    central2.writeUInt16LE(pkg.length, 28);
    const ext = Buffer.from('extension/dist/extension.js');
    const central3 = Buffer.alloc(46);
    central3.writeUInt32LE(0x02014b50, 0);
    central3.writeUInt16LE(ext.length, 28);
    const dirBytes = Buffer.concat([central, name, central2, pkg, central3, ext]);
    const eocd = Buffer.alloc(22);
    eocd.writeUInt32LE(0x06054b50, 0);
    eocd.writeUInt16LE(3, 10);
    eocd.writeUInt32LE(dirBytes.length, 12);
    eocd.writeUInt32LE(0, 16);
    writeFileSync(big, Buffer.concat([dirBytes, eocd]));
    assert.throws(() => checkVsix(big), /over its size budget: .*dist\/huge\.js is 5242880 bytes/);
  });
});
