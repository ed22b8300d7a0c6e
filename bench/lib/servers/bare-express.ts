import express from 'express';
import type { AddressInfo } from 'node:net';

// Baseline: an Express hello-world answering the same JSON.
const app = express();
app.get('/', (_req, res) => {
  res.json({ ok: true, data: { hello: 'world' }, ts: Date.now() });
});
// The open + close loop's baseline (bench/sections/open-close-loop.ts): the same POSTs, their bodies parsed by
// express.json(), answered with the smallest body of the shape the loop reads.
let opened = 0;
app.post('/api/bot/v1/open', express.json(), (_req, res) => {
  opened += 1;
  res.json({ ok: true, position: { id: `p${opened}`, status: 'open' }, idempotent: false });
});
app.post('/api/bot/v1/close', express.json(), (req, res) => {
  res.json({ ok: true, closed: { id: (req.body as { id?: string }).id, status: 'closed' } });
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
