import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

// Baseline of the stream's price tick: a bare ws server that serializes one prices message per tick and sends it to every client.
const tickMs = Number(process.env.BARE_WS_TICK_MS ?? 500);
const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
wss.on('listening', () => {
  process.stdout.write(`${JSON.stringify({ url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}` })}\n`);
});
setInterval(() => {
  const text = JSON.stringify({ type: 'prices', data: { BTCUSDT: 60000 + Math.random(), ETHUSDT: 3000 + Math.random() }, ts: Date.now() });
  for (const client of wss.clients) client.send(text);
}, tickMs);
process.on('SIGTERM', () => wss.close(() => process.exit(0)));
