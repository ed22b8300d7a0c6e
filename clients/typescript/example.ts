/**
 * Opens a paper position, reads the positions with their ETag, closes it, and shows a named error.
 * Run against a service (npm run demo prints a key):  npx tsx clients/typescript/example.ts http://127.0.0.1:3000 <API_KEY>
 */
import { createPerpdeskClient, PerpdeskError, readPositions, unwrap } from './src/index.js';

const [baseUrl = 'http://127.0.0.1:3000', apiKey] = process.argv.slice(2);
if (apiKey === undefined) throw new Error('usage: example.ts <base url> <api key>');
const client = createPerpdeskClient({ baseUrl, apiKey });

const opened = unwrap(await client.POST('/api/bot/v2/open', { body: { symbol: 'BTC', side: 'long', leverage: 10, margin_usd: 100 } }));
const { position } = opened.data;
// a market open answers its position (a limit or stop entry answers its order instead)
if (position === undefined || !('id' in position)) throw new Error('no position in the answer');
console.log('opened', position.id, 'at', position.entry, 'liquidation at', position.liq_price);

const first = await readPositions(client);
if (!first.notModified) console.log(first.positions.length, 'open position(s), ETag', first.etag);
// the same ETag again: 304, nothing sent, until a position changes
if (first.etag !== null) console.log('unchanged:', (await readPositions(client, { etag: first.etag })).notModified);

const closed = unwrap(await client.POST('/api/bot/v2/close', { body: { id: position.id } }));
console.log('closed, P&L', closed.data.closed.pnl_usd);

try {
  unwrap(await client.POST('/api/bot/v2/close', { body: { id: position.id } }));
} catch (error) {
  // error.code is typed: one of the service's named codes
  if (error instanceof PerpdeskError && error.code === 'already_closed') console.log('closing twice:', error.status, error.code);
  else throw error;
}
