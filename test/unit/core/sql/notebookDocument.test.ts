import { strict as assert } from 'node:assert';
import {
  NotebookFormatError,
  newNotebook,
  parseNotebook,
  resolveCellTarget,
  serializeNotebook,
} from '../../../../src/core/sql/notebookDocument';
import { branchMoved, resolveRef, targetLabel, validateRefInput } from '../../../../src/core/sql/refs';
import { aBranch, aTag } from '../../../builders/wire';

const main = { hostId: 'http://127.0.0.1:1', owner: 'alice', name: 'shop', ref: 'main' };

describe('SQL notebook file', () => {
  it('round-trips cells and targets', () => {
    const nb = newNotebook(main, 'SELECT 1;');
    nb.cells.push({ kind: 'sql', source: 'SELECT 2', target: { ...main, ref: 'v1' } });
    const text = serializeNotebook(nb, { saveOutputs: false });
    const back = parseNotebook(text);
    assert.deepEqual(back, nb);
    assert.ok(text.endsWith('\n'));
  });

  it('saves outputs only when the setting is on', () => {
    const nb = parseNotebook(
      JSON.stringify({
        cells: [{ kind: 'sql', source: 'x', ranAtCommit: 'c', outputs: [{ items: [{ mime: 'text/markdown', data: '| a |' }] }] }],
      }),
    );
    assert.equal(nb.cells[0]!.outputs?.length, 1);
    const off = JSON.parse(serializeNotebook(nb, { saveOutputs: false }));
    assert.equal(off.cells[0].outputs, undefined);
    assert.equal(off.cells[0].ranAtCommit, undefined);
    const on = JSON.parse(serializeNotebook(nb, { saveOutputs: true }));
    assert.deepEqual(on.cells[0].outputs, [{ items: [{ mime: 'text/markdown', data: '| a |' }] }]);
  });

  it('an empty file is an empty notebook', () => {
    assert.deepEqual(parseNotebook('  ').cells, []);
  });

  it('rejects bad files with a message saying what is wrong', () => {
    assert.throws(
      () => parseNotebook('{not json'),
      (e: unknown) => e instanceof NotebookFormatError && /not valid JSON/.test(e.message),
    );
    assert.throws(() => parseNotebook('{"cells": 3}'), /"cells" array/);
    assert.throws(() => parseNotebook('{"version": 99, "cells": []}'), /newer version/);
    assert.throws(() => parseNotebook('{"cells": [{"kind": "python", "source": ""}]}'), /cell 1: kind/);
    assert.throws(
      () => parseNotebook('{"cells": [{"source": "x", "target": {"hostId": "h", "owner": "", "name": "n", "ref": "main"}}]}'),
      /cell 1: target.owner/,
    );
  });

  it('a cell target overrides the notebook target', () => {
    const tag = { ...main, ref: 'v1' };
    assert.deepEqual(resolveCellTarget(tag, main), tag);
    assert.deepEqual(resolveCellTarget(undefined, main), main);
    assert.equal(resolveCellTarget(undefined, undefined), undefined);
  });
});

describe('refs', () => {
  const branches = [aBranch({ head_commit_sha: 'a'.repeat(32) })];
  const tags = [aTag({ commit_sha: 'b'.repeat(32) }), aTag({ name: 'main', commit_sha: 'c'.repeat(32) })];

  it('resolves branches before tags, then commits', () => {
    assert.deepEqual(resolveRef('main', branches, tags), { kind: 'branch', commit: 'a'.repeat(32) });
    assert.deepEqual(resolveRef('v1', branches, tags), { kind: 'tag', commit: 'b'.repeat(32) });
    const commit = '0123456789abcdefghijklmnopqrstuv';
    assert.deepEqual(resolveRef(commit, branches, tags), { kind: 'commit', commit });
    assert.deepEqual(resolveRef('nope', branches, tags), { kind: 'unknown' });
  });

  it('validates pasted refs with a reason', () => {
    assert.deepEqual(validateRefInput('  feature/x '), { ref: 'feature/x' });
    assert.match((validateRefInput('') as { error: string }).error, /branch, a tag/);
    assert.match((validateRefInput('a'.repeat(40)) as { error: string }).error, /40-character hex/);
    assert.match((validateRefInput('has space') as { error: string }).error, /spaces/);
    assert.match((validateRefInput('a..b') as { error: string }).error, /not a valid/);
  });

  it('tells when a branch moved since a run', () => {
    assert.equal(branchMoved('a', 'b'), true);
    assert.equal(branchMoved('a', 'a'), false);
    assert.equal(branchMoved(undefined, 'a'), false);
  });

  it('labels targets with short commit hashes', () => {
    assert.equal(targetLabel(main), 'alice/shop @ main');
    assert.equal(targetLabel({ ...main, ref: '0123456789abcdefghijklmnopqrstuv' }), 'alice/shop @ 01234567');
  });
});
