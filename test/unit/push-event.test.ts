import { expect } from 'chai';
import { Backoffs, type MinimalJob } from 'bullmq';
import { createHmac } from 'node:crypto';
import { channelMessage, compareStreamIds, mapOutboxEntry, webhookBody } from '../../shared/push/push-event.js';
import { deliveryHeaders, signBody } from '../../shared/push/webhook-signing.js';
import { webhookJobOptions } from '../../shared/push/webhook-retry-policy.js';
import { webhookJobId } from '../../shared/queues/job-types.js';

const stored = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id, v: 3, funding_carry_usd: 0, funding_from_ts: 1, status: 'open', symbol: 'BTCUSDT', account: 'main', ...extra });

describe('push events: outbox entries to webhook events and stream messages', () => {
  it('maps a position event to its webhook event with the public position, and to a stream position event', () => {
    const entry = mapOutboxEntry({ id: '17-0', fields: { event: 'position.opened', book: 'main', ts: '1700', position: stored('bp1') } });
    expect(entry).to.deep.include({ id: '17-0', book: 'main', ts: 1700 });
    expect(entry.items).to.have.length(1);
    expect(entry.items[0]).to.deep.include({ itemId: '17-0', event: 'position.opened' });
    expect(entry.items[0].data).to.not.have.any.keys('v', 'funding_carry_usd', 'funding_from_ts');
    expect(entry.items[0].data).to.include({ symbol: 'BTC' });
    expect(channelMessage(entry)).to.deep.equal({
      id: '17-0',
      book: 'main',
      messages: [{ type: 'position', data: { event: 'opened', position: entry.items[0].data }, ts: 1700 }],
    });
  });

  it('splits a partial close into the closed part and the updated remainder; a liquidation is a close on the stream', () => {
    const partial = mapOutboxEntry({
      id: '18-2',
      fields: {
        event: 'position.closed',
        book: 'alpha',
        ts: '1800',
        position: stored('bp1-1', { status: 'closed' }),
        remaining: stored('bp1'),
      },
    });
    expect(partial.items.map((i) => [i.itemId, i.event, i.stream?.event])).to.deep.equal([
      ['18-2', 'position.closed', 'closed'],
      ['18-2.1', 'position.updated', 'updated'],
    ]);
    const liquidated = mapOutboxEntry({
      id: '19-0',
      fields: { event: 'position.liquidated', book: 'main', ts: '1900', position: stored('bp2', { status: 'closed', liquidated: true }) },
    });
    expect(liquidated.items[0]).to.deep.include({ event: 'position.liquidated' });
    expect(liquidated.items[0].stream?.event).to.equal('closed');
  });

  it('carries order events to webhooks only (a fill carries its position; the stream shows the fill as the position.opened written with it)', () => {
    const order = '{"order_id":"lo1","symbol":"XAUUSDT"}';
    const filled = mapOutboxEntry({
      id: '20-0',
      fields: { event: 'order.filled', book: 'main', ts: '2000', order, position: stored('bp3', { symbol: 'XAUUSDT' }) },
    });
    // the order and its position name the ticker, as /orders and /positions do
    expect(filled.items[0].data).to.deep.include({ order_id: 'lo1', symbol: 'XAU' });
    expect(filled.items[0].data.position).to.include({ id: 'bp3', symbol: 'XAU' });
    expect(channelMessage(filled).messages).to.have.length(0);
    expect(
      mapOutboxEntry({
        id: '21-0',
        fields: { event: 'order.expired', book: 'main', ts: '2100', order: '{"order_id":"lo2","symbol":"BTCUSDT"}' },
      }).items[0].data,
    ).to.deep.equal({ order_id: 'lo2', symbol: 'BTC' });
  });

  it('carries a placed order (order.placed, which the spec does not name) on the channel only, never as a webhook item', () => {
    const placed = mapOutboxEntry({
      id: '21-1',
      fields: { event: 'order.placed', book: 'alpha', ts: '2150', order: '{"order_id":"lo3","symbol":"BTCUSDT","status":"open"}' },
    });
    expect(placed.items).to.deep.equal([]);
    expect(channelMessage(placed)).to.deep.equal({
      id: '21-1',
      book: 'alpha',
      messages: [],
      orders: [{ event: 'order.placed', order: { order_id: 'lo3', symbol: 'BTC', status: 'open' } }],
    });
  });

  it('gives no item for events clients do not subscribe to, and throws on a malformed entry', () => {
    expect(mapOutboxEntry({ id: '22-0', fields: { event: 'book.reset', book: 'main', ts: '1', reset: '{}' } }).items).to.deep.equal([]);
    expect(() => mapOutboxEntry({ id: '23-0', fields: { event: 'position.opened', book: 'main', ts: '1', position: '{oops' } })).to.throw();
    expect(() => mapOutboxEntry({ id: '24-0', fields: { event: 'order.cancelled', book: 'main', ts: '1' } })).to.throw(/carries no order/);
  });

  it('builds the webhook body { event, ts, hook_id, data }, with account only for a book', () => {
    const main = mapOutboxEntry({ id: '25-0', fields: { event: 'position.opened', book: 'main', ts: '2500', position: stored('bp4') } });
    expect(Object.keys(JSON.parse(webhookBody(main, main.items[0], 'wh1')) as object)).to.deep.equal(['event', 'ts', 'hook_id', 'data']);
    const book = mapOutboxEntry({
      id: '26-0',
      fields: { event: 'position.opened', book: 'alpha', ts: '2600', position: stored('bp5', { account: 'alpha' }) },
    });
    expect(JSON.parse(webhookBody(book, book.items[0], 'wh1'))).to.include({ account: 'alpha', hook_id: 'wh1' });
  });

  it('orders stream ids by time, then sequence', () => {
    expect(compareStreamIds('10-2', '9-5')).to.be.greaterThan(0);
    expect(compareStreamIds('10-2', '10-10')).to.be.lessThan(0);
    expect(compareStreamIds('10-2', '10-2')).to.equal(0);
  });
});

describe('webhook delivery: signature, headers, retries', () => {
  it('signs the raw body with HMAC-SHA256 of the secret, as sha256=<hex>', () => {
    const body = '{"event":"position.opened"}';
    expect(signBody(body, 'whs_s')).to.equal(`sha256=${createHmac('sha256', 'whs_s').update(body).digest('hex')}`);
    const headers = deliveryHeaders({ event: 'position.opened', deliveryId: 'wh1.1-0', timestamp: 1234, body, secret: 'whs_s' });
    expect(headers).to.deep.include({
      'x-pd-event': 'position.opened',
      'x-pd-delivery': 'wh1.1-0',
      'x-pd-timestamp': '1234',
      'x-pd-signature': signBody(body, 'whs_s'),
    });
  });

  it('retries 5 times after 30 s, 1, 2, 4 and 8 minutes; job ids carry no BullMQ separator', async () => {
    const options = webhookJobOptions(30_000);
    expect(options.attempts).to.equal(6);
    const job = {} as MinimalJob;
    const delays = [];
    for (let attempt = 1; attempt <= 5; attempt += 1)
      delays.push(await Backoffs.calculate(Backoffs.normalize(options.backoff ?? 0) ?? { type: 'fixed' }, attempt, new Error('x'), job));
    expect(delays).to.deep.equal([30_000, 60_000, 120_000, 240_000, 480_000]);
    expect(webhookJobId('whA', '1700-0.1')).to.equal('whA.1700-0.1').and.not.contain(':');
  });
});
