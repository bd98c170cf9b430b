// Whether node_modules holds exactly what package-lock.json pins. npm writes what it installed
// to node_modules/.package-lock.json (its "hidden lockfile"); comparing its package entries with
// the lockfile's catches every change to either side (a lockfile edited by
// `npm install --package-lock-only`, a package added or removed by hand), where comparing
// modification times only tells which file was written last. Node built-ins only: bootstrap runs
// this before node_modules exists.
import { isDeepStrictEqual } from 'node:util';

/**
 * Why node_modules does not match the lockfile, or undefined when it does.
 * @param {{ packages?: Record<string, object> }} lock  package-lock.json
 * @param {{ packages?: Record<string, object> } | undefined} installed  node_modules/.package-lock.json, if any
 */
export function installMismatch(lock, installed) {
  if (!installed) return 'nothing is installed yet';
  const want = lock.packages ?? {};
  const have = installed.packages ?? {};
  for (const [path, entry] of Object.entries(want)) {
    if (path === '') continue; // the project itself, never in node_modules
    if (!(path in have)) {
      // npm skips optional packages for other platforms, and those whose install failed.
      if (entry.optional) continue;
      return `${path} is in package-lock.json but not installed`;
    }
    if (!isDeepStrictEqual(entry, have[path])) return `${path} differs from package-lock.json`;
  }
  for (const path of Object.keys(have)) {
    if (!(path in want)) return `${path} is installed but not in package-lock.json`;
  }
  return undefined;
}
