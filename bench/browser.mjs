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

/**
 * Page-side code (as text, for addScriptTag or an init script) defining `rowsDrawn(row)`: whether
 * the grid's rows on screen are drawn with their values, and `row` among them when given. A leap
 * is drawn on the grid's canvas (src/renderer/gridMotion.ts) while the scroll moves, the row
 * elements once it settles: drawn is the canvas, while it is shown, with none of its rows waiting
 * for a page; else row elements, none a placeholder. What a person sees either way. Checked in an
 * animation frame, after the frame's scroll event has drawn.
 */
export const ROWS_DRAWN_JS = `globalThis.rowsDrawn = function (row) {
  var motion = document.querySelector('.vdb-motion:not([hidden])');
  if (motion) {
    var span = (motion.dataset.rows || '').split('-').map(Number);
    return motion.dataset.waiting === '0' && (row === undefined || (row >= span[0] && row <= span[1]));
  }
  if (document.querySelector('.vdb-row:not([hidden]) .vdb-cell.placeholder')) return false;
  return row === undefined || !!document.querySelector('.vdb-row:not([hidden]) .vdb-cell[data-r="' + row + '"]');
};`;
