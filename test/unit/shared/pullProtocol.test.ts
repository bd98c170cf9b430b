import { strict as assert } from 'node:assert';
import { MAX_TEXT_LENGTH, parsePullWebviewMessage } from '../../../src/shared/pullProtocol';

describe('pull webview messages', () => {
  it('accepts the known actions, comments and edits', () => {
    assert.deepEqual(parsePullWebviewMessage({ type: 'action', action: 'merge' }), { type: 'action', action: 'merge' });
    assert.deepEqual(parsePullWebviewMessage({ type: 'ready' }), { type: 'ready' });
    const commit = '0123456789abcdefghijklmnopqrstuv';
    assert.deepEqual(parsePullWebviewMessage({ type: 'commits.open', commit }), { type: 'commits.open', commit });
    assert.deepEqual(parsePullWebviewMessage({ type: 'action', action: 'loadImages' }), { type: 'action', action: 'loadImages' });
    assert.deepEqual(parsePullWebviewMessage({ type: 'comment', body: 'hi' }), { type: 'comment', body: 'hi' });
    assert.deepEqual(parsePullWebviewMessage({ type: 'edit', title: 't', description: '' }), {
      type: 'edit',
      title: 't',
      description: '',
    });
  });

  it('ignores anything else, including command-like actions and oversized text', () => {
    for (const raw of [
      null,
      'merge',
      [],
      { type: 'action', action: 'runCommand' },
      { type: 'action', action: 'toString' },
      { type: 'comment', body: 42 },
      { type: 'comment', body: 'x'.repeat(MAX_TEXT_LENGTH + 1) },
      { type: 'edit', title: 't' },
      { type: 'command', command: 'workbench.action.quit' },
      { type: 'commits.open', commit: 'main' },
      { type: 'commits.open', commit: `${'a'.repeat(31)}z` },
      { type: 'commits.open' },
    ]) {
      assert.equal(parsePullWebviewMessage(raw), undefined, JSON.stringify(raw)?.slice(0, 60));
    }
  });
});
