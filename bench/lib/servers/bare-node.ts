import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// Baseline: the cheapest possible JSON answer from Node's own http module.
const server = createServer((_req, res) => {
  const body = JSON.stringify({ ok: true, data: { hello: 'world' }, ts: Date.now() });
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
