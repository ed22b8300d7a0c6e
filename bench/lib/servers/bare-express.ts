import express from 'express';
import type { AddressInfo } from 'node:net';

// Baseline: an Express hello-world answering the same JSON.
const app = express();
app.get('/', (_req, res) => {
  res.json({ ok: true, data: { hello: 'world' }, ts: Date.now() });
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
