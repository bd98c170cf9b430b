// The benches' stand-in for VS Code's channel between the extension host and a webview, as
// code-server carries it: the host's message goes as JSON text over a socket to the browser, where
// the page parses it. The page is served by this loopback server; host → page messages are lines
// of JSON text on one streamed response that the page reads as it comes. A CDP `page.evaluate` per
// message, the benches' earlier bridge, spent more of the two cores on the protocol's own encoding
// and the inspector's parse than the message needed; EventSource would be the obvious stream, but
// Blink's parser of it costs about 10 ms of the renderer a 45 KB page. Page → host messages (small:
// which pages the grid wants) stay on a Playwright binding (page.exposeFunction), which cost the
// two cores less than a fetch per message (bench/RESULTS.md, the pull diff's section).
import { createServer } from 'node:http';

/**
 * Starts the bridge. `html` is the page served at `/` (`scripts`: more files it loads, by path); it
 * loads the bridge's client with `<script src="/bridge.js"></script>`, which calls
 * `globalThis.onHostMessage(message)` for every message the host sends.
 */
export async function startSocketBridge({ html, scripts = {} }) {
  let events;
  let connected;
  const ready = new Promise((r) => (connected = r));
  const server = createServer((req, res) => {
    if (req.url === '/events') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.socket.setNoDelay(true);
      res.write('\n');
      events = res;
      connected();
      return;
    }
    const body = req.url === '/' ? html : req.url === '/bridge.js' ? CLIENT : scripts[req.url];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': req.url === '/' ? 'text/html' : 'text/javascript' }).end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    /** Resolves once the page's event stream is open (messages sent before it would be lost). */
    ready,
    /** Sends one message to the page, as JSON text (VS Code serializes a webview message so). */
    send(message) {
      events.write(`${JSON.stringify(message)}\n`);
    },
    close() {
      events?.end();
      server.closeAllConnections();
      server.close();
    },
  };
}

const CLIENT = `
void (async () => {
  const reader = (await fetch('/events')).body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffered += value;
    let nl;
    while ((nl = buffered.indexOf('\\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (line) globalThis.onHostMessage(JSON.parse(line));
    }
  }
})();
`;
