// First step of `npm test` and `npm run demo` on a fresh machine: installs the Debian
// packages the browser harness needs (when run as root) and the npm dependencies from the
// lockfile. Uses only Node built-ins, since node_modules may not exist yet.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { installMismatch } from './lib/installedLock.mjs';

const DEBIAN_PACKAGES = ['chromium', 'libkrb5-dev'];

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.status !== 0) {
    console.error(`bootstrap: '${cmd} ${args.join(' ')}' failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

function missingDebianPackages() {
  if (!existsSync('/usr/bin/dpkg-query')) return [];
  return DEBIAN_PACKAGES.filter((p) => {
    const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', p], { encoding: 'utf8' });
    return r.status !== 0 || !r.stdout.includes('install ok installed');
  });
}

const missing = missingDebianPackages();
if (missing.length) {
  if (process.getuid && process.getuid() === 0) {
    console.log(`bootstrap: installing Debian packages: ${missing.join(' ')}`);
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } else {
    console.error(`bootstrap: missing Debian packages; run: sudo apt-get install -y ${missing.join(' ')}`);
    process.exit(1);
  }
}

// npm's record of what it installed, compared entry by entry with the lockfile.
const installedFile = 'node_modules/.package-lock.json';
const installed = existsSync(installedFile) ? JSON.parse(readFileSync(installedFile, 'utf8')) : undefined;
const mismatch = installMismatch(JSON.parse(readFileSync('package-lock.json', 'utf8')), installed);
if (mismatch) {
  console.log(`bootstrap: installing npm dependencies (npm ci): ${mismatch}`);
  run('npm', ['ci', '--no-audit', '--no-fund']);
}
