// The Chromium every browser bench runs: the flags of the e2e suite's windows
// (test/e2e/lib/lane.mjs), so a bench draws under the conditions a scenario does, plus `gc` for
// the page (heap figures are read after a collection). One list for all of them, so two benches'
// figures differ by what they measure, not by how their browser was started.
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../test/e2e/lib/lane.mjs';

/** Launches the benches' Chromium (headless), with `extraArgs` after the shared flags. */
export function launchChromium(extraArgs = []) {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_ARGS, '--js-flags=--expose-gc', ...extraArgs] });
}
