// axe-core (the accessibility engine of browsers' dev tools) run inside a page or frame of a real
// Chromium: the violations a screen reader or keyboard user would meet, of impact serious or
// critical. CommonJS with its types beside it (axe.d.cts), like waitFor.cjs, so the grid's browser
// tests (through tsx) and the e2e scenarios (plain Node) use the one helper.
'use strict';
const { readFileSync } = require('node:fs');

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe over `target` (a Playwright Page or Frame: the whole document, or `selector` in it).
 * The source is evaluated, never added as a script tag, so the page's Content Security Policy
 * (the webviews' is strict) does not stop it.
 */
async function seriousViolations(target, selector) {
  await target.evaluate(AXE_SOURCE);
  const json = await target.evaluate(`(async () => {
    const r = await axe.run(${selector ? JSON.stringify(selector) : 'document'}, { resultTypes: ['violations'] });
    return JSON.stringify(r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ' (' + n.html.slice(0, 80) + '): ' + (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 200)) })));
  })()`);
  return JSON.parse(String(json)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

module.exports = { seriousViolations };
