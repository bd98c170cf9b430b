// Comment anchors (issue #25): the exact anchor round-trips through a comment body for keys of any
// type and text, the body renders (markdown-it, raw HTML off, as the views render it) with the anchor
// hidden and a readable reference shown, and anything that is not a valid anchor stays plain text.
import { strict as assert } from 'node:assert';
import { anchoredBody, parseAnchoredBody, sameTarget, type CommentAnchor } from '../../../../src/core/review/commentAnchor';
import { createMarkdownRenderer } from '../../../../src/core/markdown';

const COMMIT = '0123456789abcdefghijklmnopqrstuv';
const AWKWARD: (string | null)[] = [
  '3',
  '-9007199254740993',
  '1.50',
  'O\'Brien "quoted" `tick` ``double``',
  'ünïcödé 😀 \u200b 中文',
  'line one\nline two\r\nthree',
  '[vdb-anchor]: https://anchor.invalid/v1/AAAA',
  '<script>alert(1)</script> **bold** _x_ # h',
  'x'.repeat(10_000),
  '',
  null,
  '\\ backslash \\\\',
];

describe('comment anchors', () => {
  const md = createMarkdownRenderer();

  it('round-trips every key value, column and text exactly', () => {
    for (const v of AWKWARD) {
      const anchor: CommentAnchor = { table: 'we`ird "t"', key: { "k'1": v, k2: 'é' }, column: 'c|ol\n', commit: COMMIT };
      for (const text of ['Why this value?', '', '```\nunclosed fence', 'multi\n\nparagraph\n']) {
        const parsed = parseAnchoredBody(anchoredBody(anchor, text));
        assert.deepEqual(parsed.anchor, anchor, JSON.stringify(v)?.slice(0, 40));
        assert.equal(parsed.text, text.trimEnd());
      }
    }
  });

  it('keeps replies, suggestions and applied marks', () => {
    const a: CommentAnchor = { table: 't', key: { id: '1' }, column: 'price', commit: COMMIT, replyTo: 'abc', suggestion: { value: null } };
    assert.deepEqual(parseAnchoredBody(anchoredBody(a, 'set it to NULL')).anchor, a);
    const applied: CommentAnchor = { table: 't', key: { id: '1' }, column: 'price', commit: COMMIT, replyTo: 'abc', applied: 'abc' };
    assert.deepEqual(parseAnchoredBody(anchoredBody(applied, '')).anchor, applied);
  });

  it('a suggested value round-trips exactly, the comment text too, whatever both hold', () => {
    const values: (string | null)[] = [...AWKWARD, '```', 'a ```` b', ' leading and trailing \n', '\r\n', 'y'.repeat(3000)];
    for (const v of values) {
      const anchor: CommentAnchor = { table: 't', key: { id: '1' }, column: 'price', commit: COMMIT, suggestion: { value: v } };
      for (const text of ['Try this.', '', '```\nunclosed fence', 'Suggested value: *NULL*']) {
        const body = anchoredBody(anchor, text);
        const parsed = parseAnchoredBody(body);
        assert.deepEqual(parsed.anchor, anchor, JSON.stringify(v)?.slice(0, 40));
        assert.equal(parsed.text, text.trimEnd(), JSON.stringify([v, text]).slice(0, 60));
      }
    }
    // NULL and empty text stay apart.
    const read = (v: string | null): unknown =>
      parseAnchoredBody(anchoredBody({ table: 't', key: { id: '1' }, column: 'c', commit: COMMIT, suggestion: { value: v } }, 'x')).anchor
        ?.suggestion;
    assert.deepEqual(read(null), { value: null });
    assert.deepEqual(read(''), { value: '' });
    assert.deepEqual(read('NULL'), { value: 'NULL' });
  });

  it('a suggested value reads on the web as the literal value (a code block), NULL and empty in words', () => {
    const render = (v: string | null, text = 'Use this.'): string =>
      md.render(anchoredBody({ table: 't', key: { id: '1' }, column: 'c', commit: COMMIT, suggestion: { value: v } }, text));
    const html = render('<b>x</b> ``` **y**', '```\nunclosed');
    assert.ok(!html.includes('anchor.invalid'), html);
    assert.match(html, /Suggested value:/);
    assert.match(html, /<code class="language-text">&lt;b&gt;x&lt;\/b&gt; ``` \*\*y\*\*\n<\/code>/);
    assert.ok(!html.includes('<b>') && !html.includes('<strong>y'), 'never markup');
    assert.match(render(null), /Suggested value: <em>NULL<\/em>/);
    assert.match(render(''), /Suggested value: <em>empty text<\/em>/);
    const long = render('z'.repeat(5000));
    assert.match(long, /the first 1000 of 5000 characters/);
  });

  it('renders with the anchor hidden and a readable, escaped reference first', () => {
    const body = anchoredBody({ table: 'suppliers', key: { id: '<b>3</b>' }, column: 'rating', commit: COMMIT }, 'Is **4** right?');
    const html = md.render(body);
    assert.ok(!html.includes('vdb-anchor') && !html.includes('anchor.invalid'), html);
    assert.match(html, /^<p><strong>suppliers<\/strong> · id = &lt;b&gt;3&lt;\/b&gt; · column rating<\/p>/);
    assert.match(html, /<strong>4<\/strong> right\?/);
    assert.ok(!html.includes('<b>'), 'key text never becomes markup');
  });

  it('a body whose first line is not a valid anchor is plain text', () => {
    const good = anchoredBody({ table: 't', key: { id: '1' }, commit: COMMIT }, 'hi');
    const line = good.split('\n')[0]!;
    const bad = [
      'just a comment',
      `${line.slice(0, -2)}!!\nrest`,
      `[vdb-anchor]: https://anchor.invalid/v1/${Buffer.from('{"table":"t"}').toString('base64url')}\nrest`,
      `[vdb-anchor]: https://anchor.invalid/v1/${Buffer.from('not json').toString('base64url')}\nrest`,
      `[vdb-anchor]: https://anchor.invalid/v1/${Buffer.from(JSON.stringify({ table: 't', key: { id: 1 }, commit: COMMIT })).toString('base64url')}\nx`,
      `[vdb-anchor]: https://anchor.invalid/v1/${Buffer.from(JSON.stringify({ table: 't', key: { id: '1' }, commit: 'HEAD' })).toString('base64url')}\nx`,
      `[vdb-anchor]: https://anchor.invalid/v1/${Buffer.from(JSON.stringify({ table: 't', key: { id: '1' }, commit: COMMIT, suggestion: { value: 'x' } })).toString('base64url')}\nx`,
      `[vdb-anchor]: https://anchor.invalid/v1/${Buffer.from(JSON.stringify({ table: 't', key: { id: '1' }, column: 'c', commit: COMMIT, suggestion: { value: 3 } })).toString('base64url')}\nx`,
      `[vdb-anchor]: https://anchor.invalid/v1/${Buffer.from(JSON.stringify({ table: 't', key: { id: '1' }, column: 'c', commit: COMMIT, suggestion: 'x' })).toString('base64url')}\nx`,
      `[vdb-anchor]: https://anchor.invalid/v1/${Buffer.from(JSON.stringify({ table: 't', key: { id: '1' }, column: 'c', commit: COMMIT, applied: 7 })).toString('base64url')}\nx`,
      `[vdb-anchor]: https://anchor.invalid/v1/${Buffer.from([0xff, 0xfe, 0x22]).toString('base64url')}\nx`,
      `hello\n${line}`,
    ];
    for (const body of bad) assert.deepEqual(parseAnchoredBody(body), { anchor: undefined, text: body }, body.slice(0, 60));
  });

  it('same row and cell', () => {
    const a = { table: 't', key: { a: '1', b: null }, column: 'c' };
    assert.ok(sameTarget(a, { table: 't', key: { b: null, a: '1' }, column: 'c' }));
    assert.ok(!sameTarget(a, { table: 't', key: { a: '1', b: '' }, column: 'c' }));
    assert.ok(!sameTarget(a, { table: 't', key: { a: '1', b: null } }));
    assert.ok(!sameTarget(a, { table: 'u', key: { a: '1', b: null }, column: 'c' }));
  });
});
