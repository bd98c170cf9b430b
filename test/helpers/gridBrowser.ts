// The result grid's browser tests (test/unit/renderer/*.browser.test.ts) run the grid bundle in a
// real Chromium. What they share: where Chromium is, when the tests may be skipped, and the bundle
// plus a launched browser.
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import * as esbuild from 'esbuild';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * `describe`, or `describe.skip` on a machine without Chromium, but never on CI (the CI variable,
 * set by .ci/run and by CI services): there a missing browser fails the run instead of silently
 * dropping these tests.
 */
export const describeIfChromium = existsSync(CHROMIUM) || process.env['CI'] ? describe : describe.skip;

/** src/renderer/resultGrid.ts bundled for the page (global `VdbGrid`), and a Chromium to load it in. */
export async function launchGridBrowser(): Promise<{ browser: Browser; gridJs: string }> {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: install the Debian package chromium (npm run bootstrap does as root).`);
  const b = await esbuild.build({
    entryPoints: ['src/renderer/resultGrid.ts'],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'VdbGrid',
    platform: 'browser',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return { browser, gridJs: b.outputFiles[0]!.text };
}
