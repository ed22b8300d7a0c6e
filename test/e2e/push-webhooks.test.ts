// @three-masters: webhook-outcome and outbox-ack over several keys, BullMQ webhook jobs
import { expect } from 'chai';
import fc from 'fast-check';
import { ERROR_CODES } from '../../shared/core/errors.js';
import { keys } from '../../shared/redis/keys.js';
import { waitFor } from '../helpers/market-wait.js';
import { signatureVerifies, useWebhookStack, webhooksIdle, type ReceivedDelivery } from '../helpers/push.js';
import { snapshotRedis } from '../helpers/redis.js';
import { botCall, createTrader, TestPrices, type Trader } from '../helpers/trading.js';

type Body = Record<string, unknown> & {
  error?: string | { code: string; plan_needed?: string };
  webhook?: { id: string; secret: string };
  webhooks?: Record<string, unknown>[];
};
type Pos = Record<string, unknown> & { id: string };

const payload = (delivery: ReceivedDelivery) =>
  JSON.parse(delivery.body) as { event: string; ts: number; hook_id: string; data: Record<string, unknown>; account?: string };

describe('push: webhooks', function () {
  this.timeout(60_000);
  const env = { PUBLIC_RATE_LIMIT: '1000000', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '50', RELAY_SCAN_MS: '200' };
  let prices: TestPrices;
  let trader: Trader;

  const stack = useWebhookStack(env);
  before(() => {
    prices = new TestPrices(stack.redis);
  });
  beforeEach(async () => {
    await prices.set({ BTCUSDT: 60000, ETHUSDT: 3000 });
    trader = await createTrader(stack.mod, { plan: 'pro' });
    stack.receiver.received.length = 0;
    stack.receiver.answer = () => 200;
  });

  const call = (method: 'GET' | 'POST', path: string, body?: unknown, who: Trader = trader, version: 'v1' | 'v2' = 'v1') =>
    botCall<Body>(stack.api.url, who, method, path, body, version);
  const addHook = async (url: string, events?: string[], who: Trader = trader): Promise<{ id: string; secret: string }> => {
    const r = await call('POST', '/webhooks', { act: 'add', url, ...(events ? { events } : {}) }, who);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body.webhook!;
  };
  const open = async (symbol = 'BTC', who: Trader = trader): Promise<Pos> => {
    const r = await botCall<{ position: Pos }>(stack.api.url, who, 'POST', '/open', {
      symbol,
      side: 'long',
      margin_usd: 100,
      leverage: 10,
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body.position;
  };
  const hookView = async (id: string, who: Trader = trader): Promise<Record<string, unknown>> => {
    const list = await call('GET', '/webhooks', undefined, who);
    return list.body.webhooks!.find((hook) => hook.id === id)!;
  };
  /** Appends an outbox entry the way the settlement and order scripts do, and nudges the relay. */
  const appendEvent = async (accountId: string, fields: Record<string, string>): Promise<void> => {
    await stack.redis.xadd(keys.accountOutbox(accountId), '*', ...Object.entries(fields).flat());
    await stack.redis.publish(keys.outboxNudgeChannel, keys.accountOutbox(accountId));
  };

  it('answers 402 plan_required with plan_needed pro on the Free plan, in v1 and v2', async () => {
    const free = await createTrader(stack.mod, { plan: 'free' });
    const v1 = await call('GET', '/webhooks', undefined, free);
    expect(v1.status).to.equal(402);
    expect(v1.body).to.include({ error: 'plan_required', plan_needed: 'pro' });
    const v2 = await call('POST', '/webhooks', { act: 'add', url: `${stack.receiver.url}/x` }, free, 'v2');
    expect(v2.status).to.equal(402);
    expect(v2.body.error).to.include({ code: 'plan_required', plan_needed: 'pro' });
  });

  it('adds (secret returned once), lists, refuses bad input by name, caps per plan, and deletes', async () => {
    const hook = await addHook(`${stack.receiver.url}/a`, ['position.closed']);
    expect(hook.secret).to.match(/^whs_[0-9A-Za-z]{40}$/);
    expect(hook.id).to.match(/^wh[0-9A-Za-z]{16}$/);
    const listed = await call('GET', '/webhooks');
    expect(listed.body).to.include({ max: 3 });
    expect(listed.body.events).to.have.length(7);
    expect(listed.body.webhooks).to.have.length(1);
    expect(listed.body.webhooks![0]).to.include({ id: hook.id, active: true, deliveries: 0, consecutive_failures: 0, last_error: null });
    expect(listed.body.webhooks![0]).to.not.have.property('secret');
    expect(JSON.stringify(listed.body)).to.not.contain(hook.secret);

    const refusals: [Record<string, unknown>, number, string][] = [
      [{ act: 'add' }, 400, 'bad_url'],
      [{ act: 'add', url: 'ftp://example.org/x' }, 400, 'bad_url'],
      [{ act: 'add', url: 12 }, 400, 'bad_url'],
      [{ act: 'add', url: `${stack.receiver.url}/b`, events: ['position.exploded'] }, 400, 'bad_event'],
      [{ act: 'add', url: `${stack.receiver.url}/b`, events: 'nope' }, 400, 'bad_event'],
      [{ act: 'launch' }, 400, 'invalid_param'],
      [{ url: `${stack.receiver.url}/b` }, 400, 'missing_param'],
      [{ act: 'delete' }, 400, 'id_required'],
      [{ act: 'delete', id: 'whnope' }, 404, 'webhook_not_found'],
    ];
    for (const [body, status, code] of refusals) {
      const r = await call('POST', '/webhooks', body);
      expect(r.status, JSON.stringify(body)).to.equal(status);
      expect(r.body.error, JSON.stringify(body)).to.equal(code);
    }
    await addHook(`${stack.receiver.url}/b`, ['position.opened']);
    await addHook(`${stack.receiver.url}/c`);
    const fourth = await call('POST', '/webhooks', { act: 'add', url: `${stack.receiver.url}/d` });
    expect(fourth.status).to.equal(409);
    expect(fourth.body).to.include({ error: 'too_many_webhooks', max: 3 });
    const deleted = await call('POST', '/webhooks', { act: 'delete', id: hook.id });
    expect(deleted.body).to.deep.equal({ ok: true, deleted: hook.id });
    expect((await call('POST', '/webhooks', { act: 'delete', id: hook.id })).status).to.equal(404);
    expect((await call('GET', '/webhooks')).body.webhooks).to.have.length(2);
  });

  it('delivers every event kind, each signed with the hook secret, with the X-PD headers', async () => {
    const hook = await addHook(`${stack.receiver.url}/all`);
    const p = await open('BTC');
    expect((await call('POST', '/sltp', { id: p.id, sl: 55000 })).status).to.equal(200);
    expect((await call('POST', '/close', { id: p.id, pct: 50 })).status).to.equal(200);
    const closed = (await call('POST', '/close', { id: p.id })).body.closed as Pos;
    const order = { order_id: 'lo1', type: 'limit', symbol: 'ETHUSDT', side: 'long', limit_price: 2900, status: 'filled', account: 'main' };
    const ts = String(Date.now());
    await appendEvent(trader.accountId, {
      event: 'position.liquidated',
      book: 'main',
      ts,
      position: JSON.stringify({ ...closed, id: 'bpliq', liquidated: true, close_reason: 'liquidation' }),
    });
    await appendEvent(trader.accountId, {
      event: 'order.filled',
      book: 'main',
      ts,
      order: JSON.stringify(order),
      position: JSON.stringify({ ...p, id: 'bpfill' }),
    });
    await appendEvent(trader.accountId, {
      event: 'order.cancelled',
      book: 'main',
      ts,
      order: JSON.stringify({ ...order, order_id: 'lo2', status: 'cancelled' }),
    });
    await appendEvent(trader.accountId, {
      event: 'order.expired',
      book: 'main',
      ts,
      order: JSON.stringify({ ...order, order_id: 'lo3', status: 'expired' }),
    });
    await appendEvent(trader.accountId, { event: 'book.reset', book: 'main', ts, reset: '{}' });

    // nine: a partial close is the closed part and the updated remainder; book.reset is not a webhook event
    await waitFor(() => stack.receiver.received.length >= 9, 10_000, 'nine deliveries');
    await webhooksIdle(stack.redis, [trader.accountId]);
    expect(stack.receiver.received).to.have.length(9);
    const byEvent = new Map(stack.receiver.received.map((d) => [payload(d).event, d]));
    expect([...byEvent.keys()].sort()).to.deep.equal([
      'order.cancelled',
      'order.expired',
      'order.filled',
      'position.closed',
      'position.liquidated',
      'position.opened',
      'position.updated',
    ]);
    for (const delivery of stack.receiver.received) {
      const body = payload(delivery);
      expect(signatureVerifies(delivery, hook.secret), body.event).to.equal(true);
      expect(signatureVerifies(delivery, 'whs_wrong'), body.event).to.equal(false);
      expect(body).to.include({ hook_id: hook.id });
      expect(body).to.not.have.property('account');
      expect(body.ts).to.be.a('number');
      expect(delivery.headers['x-pd-event']).to.equal(body.event);
      expect(Number(delivery.headers['x-pd-timestamp'])).to.be.closeTo(Date.now(), 60_000);
      expect(delivery.headers['content-type']).to.equal('application/json');
    }
    expect(new Set(stack.receiver.received.map((d) => d.headers['x-pd-delivery'])).size).to.equal(9);
    expect(payload(byEvent.get('position.opened')!).data).to.include({ id: p.id, status: 'open' });
    expect(payload(byEvent.get('position.liquidated')!).data).to.include({ id: 'bpliq', liquidated: true });
    // stored under the canonical symbol, delivered under the ticker (as /orders shows it)
    expect(payload(byEvent.get('order.filled')!).data).to.deep.include({ order_id: 'lo1', symbol: 'ETH' });
    expect((payload(byEvent.get('order.filled')!).data.position as Pos).id).to.equal('bpfill');
    // deliveries are independent jobs; their ids (hook.entry[.n]) keep the outbox order
    const entryOrder = (d: ReceivedDelivery): number[] =>
      String(d.headers['x-pd-delivery']).split('.').slice(1).join('-').split('-').map(Number);
    const sorted = [...stack.receiver.received].sort((a, b) => {
      const [x, y] = [entryOrder(a), entryOrder(b)];
      return x[0] - y[0] || x[1] - y[1] || (x[2] ?? 0) - (y[2] ?? 0);
    });
    expect(sorted.map((d) => payload(d).event).slice(0, 6)).to.deep.equal([
      'position.opened',
      'position.updated',
      'position.closed',
      'position.updated',
      'position.closed',
      'position.liquidated',
    ]);
    expect(await stack.redis.xlen(keys.accountOutbox(trader.accountId))).to.equal(0);
    const view = await hookView(hook.id);
    expect(view).to.include({ deliveries: 9, failures: 0, consecutive_failures: 0, active: true });
  });

  it("sends a book's events with account set to the book; a book key's hook carries only that book", async () => {
    const bookTrader = await createTrader(stack.mod, { plan: 'pro', book: 'alpha' });
    const email = (await stack.mod.accounts.get(bookTrader.accountId))!.email;
    const mainTrader: Trader = {
      apiKey: (await stack.mod.service.createKey({ email })).apiKey,
      accountId: bookTrader.accountId,
      book: 'main',
    };
    const bookHook = await addHook(`${stack.receiver.url}/book`, ['position.opened'], bookTrader);
    const allHook = await addHook(`${stack.receiver.url}/all-books`, ['position.opened'], mainTrader);
    await open('BTC', bookTrader);
    await open('ETH', mainTrader);
    await waitFor(() => stack.receiver.received.length >= 3, 5_000, 'three deliveries');
    await webhooksIdle(stack.redis, [bookTrader.accountId]);
    const seen = stack.receiver.received.map((d) => ({
      hook: payload(d).hook_id,
      account: payload(d).account ?? 'main',
      symbol: payload(d).data.symbol,
    }));
    expect(seen).to.have.deep.members([
      { hook: bookHook.id, account: 'alpha', symbol: 'BTC' },
      { hook: allHook.id, account: 'alpha', symbol: 'BTC' },
      { hook: allHook.id, account: 'main', symbol: 'ETH' },
    ]);
    expect((await call('GET', '/webhooks', undefined, bookTrader)).body.webhooks!.map((h) => h.id)).to.deep.equal([bookHook.id]);
    expect((await call('GET', '/webhooks', undefined, mainTrader)).body.webhooks).to.have.length(2);
  });

  it('retries a failed delivery with exponential backoff, the same delivery id each time, and counts it', async () => {
    const hook = await addHook(`${stack.receiver.url}/flaky`, ['position.opened']);
    stack.receiver.answer = () => (stack.receiver.received.length <= 2 ? 503 : 200);
    await open();
    await waitFor(() => stack.receiver.received.length >= 3, 10_000, 'three attempts');
    const [first, second, third] = stack.receiver.received;
    expect(new Set(stack.receiver.received.map((d) => d.headers['x-pd-delivery'])).size).to.equal(1);
    expect(second.at - first.at).to.be.at.least(45);
    expect(third.at - second.at).to.be.at.least(95);
    for (const attempt of stack.receiver.received) expect(signatureVerifies(attempt, hook.secret)).to.equal(true);
    await waitFor(async () => (await hookView(hook.id)).deliveries === 1, 2_000, 'the delivery counted');
    expect(await hookView(hook.id)).to.include({
      deliveries: 1,
      failures: 2,
      consecutive_failures: 0,
      last_error: 'answered 503',
      last_status: 200,
      active: true,
    });
  });

  it('pauses a hook (active false) after 25 consecutive failures and sends it nothing more', async () => {
    const hook = await addHook(`${stack.receiver.url}/down`, ['position.opened']);
    stack.receiver.answer = () => 500;
    for (let i = 0; i < 5; i += 1) await open(i % 2 ? 'ETH' : 'BTC');
    await waitFor(async () => (await hookView(hook.id)).active === false, 20_000, 'the hook paused');
    const view = await hookView(hook.id);
    expect(view.consecutive_failures).to.be.at.least(25);
    expect(view).to.include({ deliveries: 0, last_error: 'answered 500' });
    await webhooksIdle(stack.redis, [trader.accountId], 20_000);
    const attempts = stack.receiver.received.length;
    expect(attempts).to.be.within(25, 30);
    await open();
    await webhooksIdle(stack.redis, [trader.accountId]);
    expect(stack.receiver.received.length).to.equal(attempts);
  });

  it('tests a hook: answers the HTTP status its receiver gave, with a signed ping, counted in the hook like any delivery', async () => {
    const hook = await addHook(`${stack.receiver.url}/test`);
    stack.receiver.answer = () => 204;
    const r = await call('POST', '/webhooks', { act: 'test', id: hook.id }, trader, 'v2');
    expect(r.status).to.equal(200);
    expect(r.body.data).to.include({ delivered: true, status: 204, error: null });
    expect(stack.receiver.received).to.have.length(1);
    expect(payload(stack.receiver.received[0])).to.include({ event: 'ping', hook_id: hook.id });
    expect(signatureVerifies(stack.receiver.received[0], hook.secret)).to.equal(true);
    expect(await hookView(hook.id)).to.include({ deliveries: 1, failures: 0, consecutive_failures: 0, last_status: 204, last_error: null });
    stack.receiver.answer = () => 302;
    const redirected = await call('POST', '/webhooks', { act: 'test', id: hook.id });
    expect(redirected.body).to.include({ delivered: false, status: 302, error: 'redirect not followed (302)' });
    expect(stack.receiver.received).to.have.length(2);
    expect(await hookView(hook.id)).to.include({
      deliveries: 1,
      failures: 1,
      consecutive_failures: 1,
      last_status: 302,
      last_error: 'redirect not followed (302)',
      active: true,
    });
  });

  it('records deliveries at a whsink address and echoes the last 20 as { deliveries: [{ ts, headers, body }] }, body parsed when JSON', async () => {
    type Echoed = { ts: number; received_ts: number; headers: Record<string, string>; body: unknown; raw_body: string; truncated: boolean };
    type Sink = { deliveries: Echoed[]; count: number; expires_in_s: number };
    const token = `sink_${Date.now()}_abcdefgh`;
    const hook = await addHook(`${stack.api.url}/api/whsink/${token}`, ['position.opened']);
    const opened = [await open(), await open()];
    const sink = await waitFor(
      async () => {
        const r = await fetch(`${stack.api.url}/api/whsink/${token}`);
        const body = (await r.json()) as Sink;
        return body.count >= 2 ? body : undefined;
      },
      5_000,
      'two deliveries at the sink',
    );
    // no envelope, as the original answers
    expect(sink).to.not.have.any.keys('ok', 'data');
    expect(sink.expires_in_s).to.be.within(890, 900);
    for (const delivery of sink.deliveries) {
      expect(delivery.headers['x-pd-event']).to.equal('position.opened');
      expect(delivery.ts).to.be.a('number').and.equal(delivery.received_ts);
      expect(delivery.body).to.deep.equal(JSON.parse(delivery.raw_body));
      expect(delivery.body).to.deep.include({ event: 'position.opened', hook_id: hook.id });
      expect(signatureVerifies({ headers: delivery.headers, body: delivery.raw_body, at: 0 }, hook.secret)).to.equal(true);
    }
    expect(sink.deliveries.map((d) => (d.body as { data: Pos }).data.id)).to.have.members(opened.map((p) => p.id));
    for (let i = 0; i < 25; i += 1) await fetch(`${stack.api.url}/api/whsink/${token}`, { method: 'POST', body: `{"n":${i}}` });
    await fetch(`${stack.api.url}/api/whsink/${token}`, { method: 'POST', body: 'not json {' });
    const echoed = (await (await fetch(`${stack.api.url}/api/whsink/${token}`)).json()) as Sink;
    expect(echoed.deliveries).to.have.length(20);
    // a body that is not JSON comes back as the text received
    expect(echoed.deliveries[0]).to.include({ body: 'not json {', raw_body: 'not json {', truncated: false });
    expect(echoed.deliveries[1].body).to.deep.equal({ n: 24 });
    expect(echoed.deliveries[1].raw_body).to.equal('{"n":24}');
    const bad = await fetch(`${stack.api.url}/api/whsink/short`);
    expect(bad.status).to.equal(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).to.equal('invalid_param');
  });

  it('answers hostile bodies with a 4xx and a named code, never a 500, and writes nothing of the account', async function () {
    this.timeout(120_000);
    const hostile = fc.oneof(
      fc.constantFrom(
        '',
        ' ',
        'null',
        'NaN',
        '💥',
        "' OR 1=1 --",
        '<script>',
        'file:///etc/passwd',
        'https://169.254.169.254/',
        'http://[fe80::1]/',
        'gopher://x',
        '9'.repeat(400),
      ),
      fc.string({ maxLength: 40 }),
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
    );
    const body = fc.record(
      {
        act: fc.oneof(fc.constantFrom('add', 'delete', 'test', 'ADD', ' test '), hostile),
        url: hostile,
        events: fc.oneof(hostile, fc.array(hostile, { maxLength: 3 })),
        id: hostile,
      },
      { requiredKeys: [] },
    );
    const accountKeys = async () =>
      new Map(
        [...(await snapshotRedis(stack.redis))].filter(([key]) => key.startsWith(`acct:{${trader.accountId}}`) && !key.includes(':day:')),
      );
    const before = await accountKeys();
    await fc.assert(
      fc.asyncProperty(body, async (sent) => {
        const r = await call('POST', '/webhooks', sent);
        const where = JSON.stringify(sent);
        expect(r.status, where).to.be.within(400, 499);
        expect(Object.keys(ERROR_CODES), where).to.include(r.body.error);
      }),
      { numRuns: 150 },
    );
    expect(await accountKeys()).to.deep.equal(before);
  });
});
