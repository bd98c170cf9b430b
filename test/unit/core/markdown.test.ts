import { strict as assert } from 'node:assert';
import { createMarkdownRenderer, isSafeLink } from '../../../src/core/markdown';

describe('markdown of pull requests and comments', () => {
  const md = createMarkdownRenderer();

  it('renders ordinary markdown: emphasis, code, lists and https links', () => {
    const html = md.render('**bold** `code`\n\n- one\n- two\n\n[docs](https://example.com/a?b=1)');
    assert.match(html, /<strong>bold<\/strong>/);
    assert.match(html, /<code>code<\/code>/);
    assert.match(html, /<li>two<\/li>/);
    assert.match(html, /<a href="https:\/\/example.com\/a\?b=1" rel="noopener noreferrer">docs<\/a>/);
  });

  it('never passes raw HTML through: script tags and event handlers come out as text', () => {
    const html = md.render('<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n<a href="command:x">y</a>');
    assert.doesNotMatch(html, /<script/i);
    assert.doesNotMatch(html, /<img/i);
    assert.doesNotMatch(html, /<a /i);
    assert.match(html, /&lt;script&gt;/);
  });

  for (const target of [
    'command:workbench.action.quit',
    'command:versionedDb.mergePull?%5B1%5D',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'vscode://some.extension/path',
    '/relative/path',
  ]) {
    it(`refuses a link to ${target}: no anchor is produced`, () => {
      const html = md.render(`[click](${target}) and <${target}>`);
      assert.doesNotMatch(html, /<a /, html);
      assert.equal(isSafeLink(target), false);
    });
  }

  it('refuses a scheme hidden behind whitespace or entities', () => {
    for (const src of ['[x](java\tscript:alert(1))', '[x](&#106;avascript:alert(1))', '[x](%6Aavascript:alert(1))']) {
      assert.doesNotMatch(md.render(src), /<a /, src);
    }
  });

  it('keeps mailto links and linkifies bare https URLs', () => {
    assert.match(md.render('[me](mailto:a@example.com)'), /href="mailto:a@example.com"/);
    assert.match(md.render('see https://example.com/x'), /<a href="https:\/\/example.com\/x"/);
  });

  it('shows images only from https, and only once loaded; other sources become their alt text', () => {
    const loaded = { images: 'loaded' as const, blocked: 0 };
    assert.match(md.render('![chart](https://example.com/c.png)', loaded), /<img src="https:\/\/example.com\/c.png" alt="chart">/);
    assert.equal(loaded.blocked, 0);
    // Not asked for: a placeholder naming the image and its host, no URL a browser would fetch.
    const blocked = { images: 'blocked' as const, blocked: 0 };
    const html = md.render('![chart](https://tracker.example/c.png?who=me) and ![](https://x.example/y.gif)', blocked);
    assert.doesNotMatch(html, /<img|tracker\.example\/c\.png|src=/);
    assert.match(html, /<span class="remote-image"[^>]*>\[chart · tracker\.example\]<\/span>/);
    assert.match(html, /\[image · x\.example\]/);
    assert.equal(blocked.blocked, 2);
    assert.doesNotMatch(md.render('![chart](https://example.com/c.png)'), /<img/, 'blocked without an env too');
    const http = md.render('![chart](http://example.com/c.png)');
    assert.doesNotMatch(http, /<img/);
    assert.match(http, /chart/);
    assert.doesNotMatch(md.render('![x](data:image/png;base64,AAAA)'), /<img/);
  });

  it('escapes quotes inside link titles and text', () => {
    const html = md.render('[a"b](https://example.com "t\\"onmouseover=alert(1)")');
    assert.doesNotMatch(html, /"onmouseover/);
  });
});
