// One memory budget for the request bodies the hub holds at once (bodyBudget.ts): many large
// bodies sent together get 503 with Retry-After before they are read, instead of all being held.
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { startHub, type HubHandle } from '../helpers/hub';

const BUDGET_MB = 48;

/** A POST of `body` on its own connection, answered as status, headers and parsed JSON. */
function post(url: string, body: Buffer): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  const agent = new Agent({ keepAlive: false });
  return new Promise<{ status: number; headers: Record<string, unknown>; body: any }>((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': String(body.length) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString()) }),
        );
      },
    );
    // A refused body is cut off by the hub (Connection: close): the client may see the closed
    // connection before the 503 (EPIPE, ECONNRESET). That is a refusal too: status 0.
    req.on('error', (e: NodeJS.ErrnoException) =>
      e.code === 'EPIPE' || e.code === 'ECONNRESET' ? resolve({ status: 0, headers: {}, body: { code: e.code } }) : reject(e),
    );
    req.end(body);
  }).finally(() => agent.destroy());
}

describe('hub request body budget', function () {
  this.timeout(120000);
  let hub: HubHandle;

  before(async () => {
    hub = await startHub({ seed: true, args: ['--max-body-memory-mb', String(BUDGET_MB)] });
  });
  after(async () => hub?.stop());

  const sqlBody = (bytes: number): Buffer => Buffer.from(JSON.stringify({ ref: 'main', q: `SELECT 1 /* ${'x'.repeat(bytes - 60)} */` }));

  it('refuses bodies past the budget with 503 and Retry-After, serves the others, and gives the budget back', async () => {
    const url = `${hub.url}/api/v2/databases/alice/prices/sql`;
    const body = sqlBody(7 * 1024 * 1024);
    // Twenty 7 MiB bodies at once: each counts three times its size (21 MiB), so at most two fit in 48 MiB.
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(url, body)));
    const served = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 503);
    const cut = answers.filter((a) => a.status === 0);
    assert.equal(served.length + refused.length + cut.length, answers.length, answers.map((a) => a.status).join(','));
    assert.ok(refused.length > 0, 'some bodies were refused');
    assert.ok(served.length > 0, 'some bodies were served');
    for (const a of served) assert.deepEqual(a.body.data.rows, [['1']]);
    for (const a of refused) {
      assert.equal(a.body.code, 'SERVICE_UNAVAILABLE');
      assert.equal(a.headers['retry-after'], '1');
    }
    // Every answered request gave its share back: a body as large is served now.
    const again = await post(url, body);
    assert.equal(again.status, 200, JSON.stringify(again.body));
  });

  it('counts a body at three times its size (bytes, text, parsed value): one that could never fit so is 413 even alone', async () => {
    const small = await startHub({ seed: true, args: ['--max-body-memory-mb', '20'] });
    try {
      const url = `${small.url}/api/v2/databases/alice/prices/sql`;
      const alone = await post(url, sqlBody(7 * 1024 * 1024));
      assert.ok(alone.status === 413 || alone.status === 0, `7 MiB counts 21 MiB, over 20: ${alone.status}`);
      if (alone.status === 413) assert.match(alone.body.detail, /larger than the \d+ bytes the hub can hold for one body/);
      const fits = await post(url, sqlBody(6 * 1024 * 1024));
      assert.equal(fits.status, 200, '6 MiB counts 18 MiB and is served');
    } finally {
      await small.stop();
    }
  });
});
