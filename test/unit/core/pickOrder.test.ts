import { strict as assert } from 'node:assert';
import { keepNamedFirst } from '../../../src/core/pickOrder';

const branches = ['experiment', 'main', 'release'];
const same = (s: string): string => s;

describe('quick pick order when the choices arrive after typing', () => {
  it('puts the choice named what was typed first when the active row is not known yet', () => {
    // The e2e 54 case: "main" typed, the typed row clicked, the host not yet told it was active.
    assert.deepEqual(keepNamedFirst(branches, same, undefined, 'main'), ['main', 'experiment', 'release']);
  });

  it('follows the active row when the host knows it, whatever is typed', () => {
    assert.deepEqual(keepNamedFirst(branches, same, 'release', 'main'), ['release', 'experiment', 'main']);
  });

  it('leaves the order alone when nothing names a row', () => {
    assert.equal(keepNamedFirst(branches, same, undefined, ''), undefined);
    assert.equal(keepNamedFirst(branches, same, undefined, 'mai'), undefined, 'a prefix is not a name');
    assert.equal(keepNamedFirst(branches, same, 'gone', 'main'), undefined, 'an active row no longer offered is not replaced by a guess');
  });

  it('names rows by their plain name (a codicon before the label does not count)', () => {
    const rows = [{ label: '$(git-branch) experiment' }, { label: '$(git-branch) main' }];
    const plain = (r: { label: string }): string => r.label.replace(/^\$\([\w~-]+\)\s*/, '');
    assert.deepEqual(keepNamedFirst(rows, plain, undefined, 'main'), [rows[1], rows[0]]);
  });
});
