// bootstrap's check that node_modules holds what package-lock.json pins (scripts/lib/installedLock.mjs):
// any change to the lockfile, made by any route, means `npm ci` runs again.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
// @ts-expect-error a plain .mjs script without type declarations
import { installMismatch } from '../../scripts/lib/installedLock.mjs';

const ROOT = resolve(__dirname, '..', '..');

const entry = (version: string, extra: object = {}) => ({
  version,
  resolved: `https://registry.example/x-${version}.tgz`,
  integrity: `sha512-${version}`,
  ...extra,
});
const lockOf = (packages: Record<string, object>) => ({
  name: 'p',
  lockfileVersion: 3,
  packages: { '': { name: 'p', version: '1.0.0' }, ...packages },
});
const installedOf = (packages: Record<string, object>) => ({ name: 'p', lockfileVersion: 3, packages });

describe('bootstrap: does node_modules match package-lock.json', () => {
  it('matches when every installed entry is the locked one (this checkout, as installed)', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
    const installed = JSON.parse(readFileSync(join(ROOT, 'node_modules', '.package-lock.json'), 'utf8'));
    assert.equal(installMismatch(lock, installed), undefined);
  });

  it('asks for an install when nothing is installed', () => {
    assert.match(installMismatch(lockOf({}), undefined), /nothing is installed/);
  });

  it('sees a version changed in the lockfile only (npm install --package-lock-only)', () => {
    const lock = lockOf({ 'node_modules/a': entry('2.0.0') });
    const installed = installedOf({ 'node_modules/a': entry('1.0.0') });
    assert.equal(installMismatch(lock, installed), 'node_modules/a differs from package-lock.json');
  });

  it('sees a package added to or removed from the lockfile', () => {
    const one = { 'node_modules/a': entry('1.0.0') };
    const two = { ...one, 'node_modules/b': entry('1.0.0') };
    assert.equal(installMismatch(lockOf(two), installedOf(one)), 'node_modules/b is in package-lock.json but not installed');
    assert.equal(installMismatch(lockOf(one), installedOf(two)), 'node_modules/b is installed but not in package-lock.json');
  });

  it('tolerates an optional package npm skipped (another platform, or a failed optional build)', () => {
    const lock = lockOf({
      'node_modules/a': entry('1.0.0'),
      'node_modules/@esbuild/aix-ppc64': entry('0.1.0', { optional: true, os: ['aix'] }),
    });
    assert.equal(installMismatch(lock, installedOf({ 'node_modules/a': entry('1.0.0') })), undefined);
  });
});
