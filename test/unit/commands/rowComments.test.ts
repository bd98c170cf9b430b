// Comment on Row / Cell… and Reply (issue #25), with a scripted user: the body posted carries the
// anchor the Changes view named (parsed back here), the text typed, and for a reply the thread's
// first comment and the head the view shows; dismissing posts nothing.
import { strict as assert } from 'node:assert';
import { ScriptedUi, editText, input, inputLines, pick } from '../../helpers/scriptedUi';
import { commentOnRow, replyToThread } from '../../../src/commands/rowComments';
import { parseAnchoredBody } from '../../../src/core/review/commentAnchor';
import { parseGridPagingMessage } from '../../../src/shared/gridPaging';
import type { PullTarget } from '../../../src/core/targets';
import type { UnsentText } from '../../../src/core/errorMessages';

const PULL: PullTarget = { hostId: 'h', db: { owner: 'alice', name: 'prices' }, pullNumber: 4 };
const HEAD = '0123456789abcdefghijklmnopqrstuv';
const LATER = 'vutsrqponmlkjihgfedcba9876543210';

describe('row comments from the Changes view', () => {
  it('posts the anchored comment the user typed, titled with what it is about', async () => {
    const ui = new ScriptedUi({ 'Comment on suppliers, id = 3, rating': 'Is **4** right?' });
    const posted: [PullTarget, string][] = [];
    const anchor = { table: 'suppliers', key: { id: '3' }, column: 'rating', commit: HEAD };
    const body = await commentOnRow({ ui, post: async (t, b) => posted.push([t, b]) }, { pull: PULL, anchor });
    assert.equal(posted.length, 1);
    assert.deepEqual(posted[0]![0], PULL);
    assert.equal(posted[0]![1], body);
    assert.deepEqual(parseAnchoredBody(body!), { anchor, text: 'Is **4** right?' });
  });

  it('a comment may be written over several lines in the editor the box offers', async () => {
    const ui = new ScriptedUi([inputLines('First paragraph.\n\n- a point\n- another')]);
    const posted: string[] = [];
    const anchor = { table: 'suppliers', key: { id: '3' }, commit: HEAD };
    await commentOnRow({ ui, post: async (_t, b) => posted.push(b) }, { pull: PULL, anchor });
    assert.deepEqual(ui.edits, [{ name: 'Comment', title: 'Comment on suppliers, id = 3 (pull request #4)', value: '' }]);
    assert.deepEqual(parseAnchoredBody(posted[0]!), { anchor, text: 'First paragraph.\n\n- a point\n- another' });
  });

  it('posts nothing when the box is dismissed', async () => {
    const ui = new ScriptedUi([undefined]);
    const posted: string[] = [];
    const anchor = { table: 't', key: { id: '1' }, commit: HEAD };
    assert.equal(await commentOnRow({ ui, post: async (_t, b) => posted.push(b) }, { pull: PULL, anchor }), undefined);
    assert.deepEqual(posted, []);
  });

  it('a reply names its thread and is anchored at the head the view shows now', async () => {
    const ui = new ScriptedUi({ 'Reply on t, id = 1': 'Fixed.' });
    const posted: string[] = [];
    const thread = { rootId: 'c1', anchor: { table: 't', key: { id: '1' }, commit: HEAD } };
    await replyToThread({ ui, post: async (_t, b) => posted.push(b) }, PULL, thread, LATER);
    assert.deepEqual(parseAnchoredBody(posted[0]!), {
      anchor: { table: 't', key: { id: '1' }, commit: LATER, replyTo: 'c1' },
      text: 'Fixed.',
    });
  });

  it('a comment or reply whose post fails is kept: Edit and Try Again asks from its text and posts it', async () => {
    const ui = new ScriptedUi([input('Is **4** right?')]);
    const posted: string[] = [];
    const unsent: UnsentText[] = [];
    let up = false;
    const post = async (_t: PullTarget, b: string, u?: UnsentText) => {
      if (!up) return void (u && unsent.push(u));
      return posted.push(b);
    };
    const anchor = { table: 'suppliers', key: { id: '3' }, column: 'rating', commit: HEAD };
    assert.equal(await commentOnRow({ ui, post }, { pull: PULL, anchor }), undefined);
    assert.equal(unsent[0]!.text, 'Is **4** right?');
    up = true;
    ui.answer(input(''));
    await unsent[0]!.again!();
    assert.equal(ui.inputs[1]!.value, 'Is **4** right?');
    assert.deepEqual(parseAnchoredBody(posted[0]!), { anchor, text: 'Is **4** right?' });

    up = false;
    const thread = { rootId: 'c1', anchor: { table: 't', key: { id: '1' }, commit: HEAD } };
    ui.answer(input('Fixed.'));
    await replyToThread({ ui, post }, PULL, thread, LATER);
    up = true;
    ui.answer(input(''));
    await unsent[1]!.again!();
    assert.equal(ui.inputs.at(-1)!.value, 'Fixed.');
    assert.deepEqual(parseAnchoredBody(posted[1]!)?.anchor, { table: 't', key: { id: '1' }, commit: LATER, replyTo: 'c1' });
  });

  it('the grid message is checked like row.history', () => {
    assert.deepEqual(parseGridPagingMessage({ type: 'row.comment', sourceId: 's', key: ['1', null], column: 'c' }), {
      type: 'row.comment',
      sourceId: 's',
      key: ['1', null],
      column: 'c',
    });
    assert.equal(parseGridPagingMessage({ type: 'row.comment', sourceId: 's', key: [1] }), undefined);
    assert.equal(parseGridPagingMessage({ type: 'row.comment', sourceId: 's', key: [] }), undefined);
  });

  it('Suggest a Value…: the value typed (starting from the cell as shown) or NULL travels in the anchor, the text is optional', async () => {
    const anchor = { table: 'suppliers', key: { id: '3' }, column: 'name', commit: HEAD };
    const posted: string[] = [];
    const env = (ui: ScriptedUi) => ({ ui, post: async (_t: PullTarget, b: string) => posted.push(b) });
    let prefilled: string | undefined;
    const typed = new ScriptedUi([
      pick('A value…'),
      { kind: 'input', reply: (_l, p) => ((prefilled = p.input?.value), 'Quinta "Nova" ünï') },
      input(''),
    ]);
    await commentOnRow(env(typed), { pull: PULL, anchor, suggest: { value: 'Quinta do Vale' } });
    assert.equal(prefilled, 'Quinta do Vale');
    assert.deepEqual(parseAnchoredBody(posted[0]!), { anchor: { ...anchor, suggestion: { value: 'Quinta "Nova" ünï' } }, text: '' });
    await commentOnRow(env(new ScriptedUi([pick('NULL'), input('No name known.')])), { pull: PULL, anchor, suggest: { value: 'x' } });
    assert.deepEqual(parseAnchoredBody(posted[1]!), { anchor: { ...anchor, suggestion: { value: null } }, text: 'No name known.' });
    // Dismissed at any step: nothing posted.
    await commentOnRow(env(new ScriptedUi([pick('A value…'), input(undefined)])), { pull: PULL, anchor, suggest: { value: 'x' } });
    assert.equal(posted.length, 2);
    assert.deepEqual(parseGridPagingMessage({ type: 'row.comment', sourceId: 's', key: ['1'], column: 'c', suggest: { value: null } }), {
      type: 'row.comment',
      sourceId: 's',
      key: ['1'],
      column: 'c',
      suggest: { value: null },
    });
    assert.deepEqual(parseGridPagingMessage({ type: 'row.comment', sourceId: 's', key: ['1'], column: 'c', suggest: { value: 3 } }), {
      type: 'row.comment',
      sourceId: 's',
      key: ['1'],
      column: 'c',
    });
  });

  it('Suggest a Value…: a value over several lines is edited in an editor, offered first when the cell has line breaks', async () => {
    const anchor = { table: 'suppliers', key: { id: '3' }, column: 'notes', commit: HEAD };
    const posted: string[] = [];
    const env = (ui: ScriptedUi) => ({ ui, post: async (_t: PullTarget, b: string) => posted.push(b) });
    const multi = 'Line one\n  indented "two"\n\nünï';
    const ui = new ScriptedUi([pick('A value over several lines…'), editText(multi), input('Reworded.')]);
    await commentOnRow(env(ui), { pull: PULL, anchor, suggest: { value: 'one line' } });
    assert.deepEqual(ui.picks[0]!.labels, ['$(edit) A value…', '$(list-flat) A value over several lines…', 'NULL']);
    assert.deepEqual(ui.edits, [
      { name: 'Suggested value', title: 'Suggested value for suppliers, id = 3, notes (pull request #4)', value: 'one line' },
    ]);
    assert.deepEqual(parseAnchoredBody(posted[0]!), { anchor: { ...anchor, suggestion: { value: multi } }, text: 'Reworded.' });
    // A cell over several lines now: the editor is offered first, and starts from it.
    const again = new ScriptedUi([pick('A value over several lines…'), editText(undefined)]);
    await commentOnRow(env(again), { pull: PULL, anchor, suggest: { value: 'a\r\nb' } });
    assert.equal(again.picks[0]!.labels[0], '$(list-flat) A value over several lines…');
    assert.equal(again.edits[0]!.value, 'a\r\nb');
    assert.equal(posted.length, 1, 'cancelled in the editor: nothing posted');
  });
});
