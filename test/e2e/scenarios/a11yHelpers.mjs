// Accessibility checks of a webview as VS Code shows it, with its theme (not a scenario: the runner
// only takes NN-name.mjs): axe-core over the frame that holds `selector`, no serious or critical
// violation allowed (test/helpers/axe.cjs). `within`: check only that part of the document (a
// notebook output's document is VS Code's, not ours; our part of it is the grid).
import assert from 'node:assert/strict';
import { seriousViolations } from '../../helpers/axe.cjs';
import { frameWith } from './changesHelpers.mjs';

export async function expectAccessible(ctx, selector, what, { within } = {}) {
  const frame = await frameWith(ctx, selector);
  const found = await seriousViolations(frame, within);
  assert.deepEqual(found, [], `${what}: axe found ${JSON.stringify(found, null, 1)}`);
}
