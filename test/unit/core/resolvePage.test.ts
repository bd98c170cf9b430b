import { strict as assert } from 'node:assert';
import { renderResolveContent, type ResolvePageState } from '../../../src/core/resolvePage';
import { parseResolveMessage } from '../../../src/shared/resolveProtocol';

const state = (over: Partial<ResolvePageState> = {}): ResolvePageState => ({
  title: 'Resolve #2',
  tables: [
    {
      table: 'customers',
      columns: ['id', 'city'],
      cells: [{ key: '["1"]', keyValues: ['1'], column: 'city', base: 'Lisbon', ours: '<b>Porto</b>', theirs: null }],
      rows: [],
    },
    { table: 'log', columns: ['a'], refusal: 'It has no primary key.', cells: [], rows: [] },
  ],
  choice: (t, r, c) => (t === 'customers' && r === '["1"]' && c === 'city' ? { kind: 'theirs' } : undefined),
  rowSide: () => undefined,
  problems: new Map(),
  plan: 'A new pull request is opened.',
  canApply: true,
  ...over,
});

describe('the Resolve view page', () => {
  it('shows base, ours and theirs per conflicting cell, marks the choice, escapes server text, says a NULL is NULL', () => {
    const html = renderResolveContent(state());
    assert.match(html, /Lisbon/);
    assert.match(html, /&lt;b&gt;Porto&lt;\/b&gt;/);
    assert.doesNotMatch(html, /<b>Porto/);
    assert.match(html, /class="pick chosen" data-pick="theirs"/);
    assert.match(html, /theirs: <span class="null">NULL<\/span>/);
    assert.match(html, /Cannot be settled cell by cell: It has no primary key\./);
    assert.match(html, /<p class="plan">A new pull request is opened\.<\/p><button type="button" data-action="apply">/);
  });

  it('shows a typed value’s problem and no Apply until it is fixed', () => {
    const html = renderResolveContent(
      state({ problems: new Map([['customers ["1"] city', 'city (int) needs a whole number.']]), canApply: false }),
    );
    assert.match(html, /<div class="problem">city \(int\) needs a whole number\.<\/div>/);
    assert.match(html, /data-action="apply" disabled/);
  });

  it('accepts only well-formed messages from the page', () => {
    assert.deepEqual(parseResolveMessage({ type: 'pick', table: 't', row: 'r', column: 'c', side: 'ours' }), {
      type: 'pick',
      table: 't',
      row: 'r',
      column: 'c',
      side: 'ours',
    });
    assert.deepEqual(parseResolveMessage({ type: 'typed', table: 't', row: 'r', column: 'c', value: null })?.type, 'typed');
    assert.equal(parseResolveMessage({ type: 'pick', table: 't', row: 'r', column: 'c', side: 'base' }), undefined);
    assert.equal(parseResolveMessage({ type: 'typed', table: 't', row: 'r', column: 'c', value: 3 }), undefined);
    assert.deepEqual(parseResolveMessage({ type: 'side', table: 't', side: 'theirs' }), { type: 'side', table: 't', side: 'theirs' });
    assert.equal(parseResolveMessage('apply'), undefined);
  });
});
