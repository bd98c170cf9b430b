import { strict as assert } from 'node:assert';
import { keepNamedFirst, plainLabel, typedAnswer } from '../../../src/core/pickOrder';

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
    const plain = (r: { label: string }): string => plainLabel(r.label);
    assert.deepEqual(keepNamedFirst(rows, plain, undefined, 'main'), [rows[1], rows[0]]);
  });

  it('a text typed and accepted before the choices were listed answers the choice of that name', async () => {
    const choices = new Promise<{ label: string; value: string }[]>((r) =>
      setTimeout(
        () =>
          r([
            { label: '$(git-branch) main', value: 'main-head' },
            { label: '$(tag) v1', value: 'v1-commit' },
          ]),
        5,
      ),
    );
    assert.deepEqual(await typedAnswer(choices, 'main'), { value: 'main-head' });
    assert.deepEqual(await typedAnswer(choices, ' v1 '), { value: 'v1-commit' }, 'typed with spaces around');
    assert.deepEqual(await typedAnswer(choices, 'mai'), { typed: 'mai' }, 'a prefix is not a name');
    assert.deepEqual(await typedAnswer(Promise.reject(new Error('offline')), 'main'), { typed: 'main' }, 'choices that failed to load');
  });
});
