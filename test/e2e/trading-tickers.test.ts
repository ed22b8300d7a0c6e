// @three-masters: the stream's pub/sub across nodes
import { expect } from 'chai';
import { keys } from '../../shared/redis/keys.js';
import { waitFor } from '../helpers/market-wait.js';
import { connectStream, useWebhookStack, type ReceivedDelivery, type StreamMessage, type TestStream } from '../helpers/push.js';
import { botCall, createTrader, TestPrices, type Trader } from '../helpers/trading.js';

type Row = Record<string, unknown> & { id: string; symbol: string };
type Order = Record<string, unknown> & { order_id: string; symbol: string };
type Body = Record<string, unknown> & {
  position?: Row;
  closed?: Row;
  order?: Order;
  orders?: Order[];
  recent?: Order[];
  positions?: Row[];
  trades?: Row[];
  webhook?: { id: string };
};

const payload = (delivery: ReceivedDelivery) =>
  JSON.parse(delivery.body) as { event: string; data: Record<string, unknown> & { symbol: string } };

/**
 * The spec names a market by its ticker (BTC, XAU), as the original does: every view a client gets
 * of positions, orders and trades, through REST, the stream and webhooks, whatever spelling opened it.
 */
describe('bot trading: symbols are the spec ticker everywhere a client sees them', function () {
  this.timeout(30_000);
  const env = { PUBLIC_RATE_LIMIT: '1000000', STREAM_TICK_MS: '200', WEBHOOK_ALLOW_PRIVATE: 'true', RELAY_SCAN_MS: '200' };
  let trader: Trader;
  let stream: TestStream | undefined;

  after(() => stream?.ws.terminate());
  const stack = useWebhookStack(env);
  before(async () => {
    await new TestPrices(stack.redis).set({ BTCUSDT: 60000, XAUUSDT: 4000, '1000PEPEUSDT': 0.0125 });
    trader = await createTrader(stack.mod, { plan: 'pro' });
  });

  const call = (method: 'GET' | 'POST', path: string, body?: unknown) => botCall<Body>(stack.api.url, trader, method, path, body);
  const delivered = (event: string, symbol: string) =>
    waitFor(
      () => stack.receiver.received.map(payload).find((p) => p.event === event && p.data.symbol === symbol),
      10_000,
      `${event} of ${symbol} delivered`,
    );

  it('names the ticker in REST views, the stream (position events and prices) and webhook payloads, for any input spelling', async () => {
    const hook = await call('POST', '/webhooks', { act: 'add', url: `${stack.receiver.url}/hook` });
    expect(hook.status, JSON.stringify(hook.body)).to.equal(200);
    stream = connectStream(stack.api.url, { api_key: trader.apiKey });
    await stream.next((m) => m.type === 'snapshot');

    const dry = await call('POST', '/open', { symbol: 'xau_usdt', side: 'long', margin_usd: 100, leverage: 10, dry_run: true });
    expect(dry.body.position).to.include({ symbol: 'XAU' });
    const gold = await call('POST', '/open', { symbol: 'XAU-USDT', side: 'long', margin_usd: 100, leverage: 10 });
    expect(gold.status, JSON.stringify(gold.body)).to.equal(200);
    expect(gold.body.position).to.include({ symbol: 'XAU', asset_class: 'metal' });
    const pepe = await call('POST', '/open', { symbol: '1000PEPEUSDT', side: 'short', margin_usd: 10, leverage: 5 });
    expect(pepe.body.position).to.include({ symbol: '1000PEPE' });

    const listed = (await call('GET', '/positions')).body.positions!;
    expect(listed.map((p) => p.symbol).sort()).to.deep.equal(['1000PEPE', 'XAU']);

    // the stream: the position event carries the REST view's symbol; prices are keyed by ticker
    const opened = await stream.next((m) => m.type === 'position' && (m.data?.position as Row).id === gold.body.position!.id);
    expect(opened.data?.position).to.include({ symbol: 'XAU' });
    const tick = await stream.next((m: StreamMessage) => m.type === 'prices' && Object.keys(m.data ?? {}).length === 2, 5_000);
    expect(tick.data).to.deep.equal({ XAU: 4000, '1000PEPE': 0.0125 });

    // a limit order: placed, listed, cancelled, and its webhook, all under the ticker
    const placed = await call('POST', '/open', {
      symbol: 'btc',
      side: 'long',
      type: 'limit',
      limit_price: 50000,
      margin_usd: 100,
      leverage: 10,
    });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    expect(placed.body.order).to.include({ symbol: 'BTC' });
    expect((await call('GET', '/orders')).body.orders!.map((o) => o.symbol)).to.deep.equal(['BTC']);
    const cancelled = await call('POST', '/cancel_order', { order_id: placed.body.order!.order_id });
    expect(cancelled.body.order).to.include({ symbol: 'BTC' });
    const recent = (await call('GET', '/orders')).body.recent!;
    expect((await delivered('order.cancelled', 'BTC')).data).to.deep.equal(recent[0]);

    // closing by the ticker the views name (the close's symbol hint) works, and the trade row names it too
    const closed = await call('POST', '/close', { id: gold.body.position!.id, symbol: 'XAU' });
    expect(closed.status, JSON.stringify(closed.body)).to.equal(200);
    expect(closed.body.closed).to.include({ symbol: 'XAU', status: 'closed' });
    expect((await call('GET', '/trades')).body.trades!.map((t) => t.symbol)).to.deep.equal(['XAU']);
    expect((await call('GET', '/positions?status=closed')).body.positions!.map((p) => p.symbol)).to.deep.equal(['XAU']);
    const closedEvent = await stream.next((m) => m.type === 'position' && m.data?.event === 'closed');
    expect(closedEvent.data?.position).to.include({ symbol: 'XAU' });

    // webhooks carry the same views
    expect((await delivered('position.opened', 'XAU')).data).to.include({ id: gold.body.position!.id });
    expect((await delivered('position.opened', '1000PEPE')).data).to.include({ id: pepe.body.position!.id });
    expect((await delivered('position.closed', 'XAU')).data).to.deep.equal(closed.body.closed);
    expect(stack.receiver.received.map(payload).filter((p) => p.data.symbol.endsWith('USDT'))).to.deep.equal([]);

    // close_all names what it could not close (no fresh price) by its ticker as well
    await stack.redis.set(
      keys.marketQuote('1000PEPEUSDT'),
      JSON.stringify({ symbol: '1000PEPEUSDT', price: 0.0125, venues: 1, changePct24h: null, ts: Date.now() - 60_000 }),
    );
    const all = await call('POST', '/close_all', {});
    expect(all.body).to.deep.include({ closed: 0, not_closed: [{ id: pepe.body.position!.id, symbol: '1000PEPE', error: 'no_price' }] });
  });
});
