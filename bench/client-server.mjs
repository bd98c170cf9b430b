// Loopback server for the client benchmarks, run in its own process so its CPU does not count
// against the client being measured. Speaks just enough API v2 and S3-like part storage:
//   GET  /api/v2/...                          → a small Database in an envelope
//   POST /api/v2/databases/o/n/imports/uploads → an upload session whose parts point back here
//   PUT  /bucket/part-N?X-Amz-Signature=...    → consumes the part, answers ETag = "md5 hex"
// Prints `PORT <n>` on stdout once listening.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';

const database = JSON.stringify({
  data: {
    owner: 'o',
    name: 'n',
    visibility: 'public',
    fork_network_count: 0,
    star_count: 3,
    size_bytes: 12345,
    last_write_at: '2026-01-01T00:00:00Z',
  },
});

const server = createServer(async (req, res) => {
  const url = req.url ?? '';
  if (req.method === 'PUT' && url.startsWith('/bucket/')) {
    const hash = createHash('md5');
    for await (const chunk of req) hash.update(chunk);
    res.writeHead(200, { etag: `"${hash.digest('hex')}"`, 'content-length': '0' });
    res.end();
    return;
  }
  if (req.method === 'POST' && url.endsWith('/imports/uploads')) {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const { num_parts } = JSON.parse(Buffer.concat(chunks).toString());
    const origin = `http://127.0.0.1:${server.address().port}`;
    const parts = Array.from({ length: num_parts }, (_, i) => ({
      part_number: i + 1,
      url: `${origin}/bucket/part-${i + 1}?X-Amz-Signature=s${i}`,
    }));
    const body = JSON.stringify({ data: { token: 't', contents_key: 'k', parts, http_method: 'PUT', headers: {} } });
    res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  if (req.method === 'GET' && url.startsWith('/api/v2/')) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(database), 'x-request-id': 'bench' });
    res.end(database);
    return;
  }
  res.writeHead(404).end();
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`PORT ${server.address().port}`));
