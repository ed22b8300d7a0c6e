// @three-masters: order scripts over several keys, the sweep's BullMQ jobs
import { expect } from 'chai';
import { Queue } from 'bullmq';
import { MINUTE_MS, ORDER_TTL_MS } from '../../shared/engine/order-rules.js';
import { ORDERS_DONE_KEPT } from '../../shared/paper/orders/order-types.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { closeRedis, createBlockingRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { PROCESSORS } from '../../workers/processors/index.js';
import { SCHEDULES } from '../../workers/schedules.js';
import { useOrderFixture } from '../helpers/order-fixture.js';
import { outbox } from '../helpers/sweep.js';
import { changedKeys, isRequestBookkeeping, snapshotRedis, testRedisUrl } from '../helpers/redis.js';
import { botCall, createTrader, type Trader } from '../helpers/trading.js';

type Order = Record<string, unknown> & { order_id: string; fills_from_ts: number; status: string };
type Body = Record<string, unknown> & { order?: Order; error?: string };

describe('bot trading: resting orders over their life (modify, cancel, expiry, reset, isolation)', function () {
  this.timeout(30_000);
  const fx = useOrderFixture();

  const call = (method: 'GET' | 'POST', path: string, body?: unknown, who: Trader = fx.trader, version: 'v1' | 'v2' = 'v1') =>
    botCall<Body>(fx.api.url, who, method, path, body, version);
  const place = async (body: Record<string, unknown> = {}, who: Trader = fx.trader): Promise<Order> => {
    const r = await call(
      'POST',
      '/open',
      { symbol: 'BTC', side: 'long', type: 'limit', limit_price: 64000, margin_usd: 100, leverage: 10, ...body },
      who,
    );
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body.order!;
  };
  const orders = async (who: Trader = fx.trader) =>
    (await call('GET', '/orders', undefined, who)).body as unknown as { orders: Order[]; recent: Order[] };
  const eventNames = async (who: Trader = fx.trader) => (await fx.events(who.accountId)).map((e) => e.event);

  it('modifies a resting order: the level is re-checked against the market now, sl and tp against the new level, null clears', async () => {
    const order = await place({ sl: 60000, tp: 64500, trail_pct: 1 });
    const r = await call('POST', '/modify_order', {
      order_id: order.order_id,
      limit_price: 63000,
      margin_usd: 50,
      leverage: 20,
      tp: null,
      trail_pct: null,
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(r.body.order).to.include({
      order_id: order.order_id,
      status: 'open',
      limit_price: 63000,
      margin_usd: 50,
      leverage: 20,
      sl: 60000,
      tp: null,
      trail_pct: null,
      placed_ts: order.placed_ts,
    });
    expect(r.body.order!.modified_ts).to.be.a('number');
    const refusals: [Record<string, unknown>, number, string][] = [
      [{ limit_price: 65500 }, 400, 'limit_marketable'],
      [{ sl: 63500 }, 400, 'sl_wrong_side'],
      [{ limit_price: 59000 }, 400, 'sl_wrong_side'], // the kept stop (60000) would sit above the new level
      [{ leverage: 1001 }, 400, 'leverage_max'],
      [{ margin_usd: 0.5 }, 400, 'margin_usd_min_1'],
      [{}, 400, 'nothing_to_modify'],
    ];
    const before = await snapshotRedis(fx.redis);
    for (const [change, status, code] of refusals) {
      const bad = await call('POST', '/modify_order', { order_id: order.order_id, ...change });
      expect(bad.status, JSON.stringify(change)).to.equal(status);
      expect(bad.body.error, JSON.stringify(change)).to.equal(code);
    }
    const after = await snapshotRedis(fx.redis);
    expect(changedKeys(before, after, isRequestBookkeeping)).to.deep.equal([]);
    // a stop entry: the direction comes from the market now (a stop long must stay above it)
    await fx.prices.set({ BTCUSDT: 66000 });
    const stop = await place({ type: 'stop', limit_price: 67000 });
    await fx.prices.set({ BTCUSDT: 67500 });
    expect((await call('POST', '/modify_order', { order_id: stop.order_id, limit_price: 67200 })).body.error).to.equal('stop_wrong_side');
    expect((await call('POST', '/modify_order', { order_id: stop.order_id, limit_price: 68000 })).body.order).to.include({
      limit_price: 68000,
    });
    expect(await eventNames()).to.deep.equal([]); // the spec names no event for a modify
  });

  it('restarts the candle watermark on modify: a bar that opened before the modify never fills it', async () => {
    const order = await place();
    const w0 = order.fills_from_ts;
    fx.clock.advance(3 * MINUTE_MS);
    const modified = (await call('POST', '/modify_order', { order_id: order.order_id, limit_price: 63900 })).body.order!;
    const w1 = modified.fills_from_ts;
    expect(w1).to.be.at.least(w0 + 3 * MINUTE_MS);
    for (let minute = w0; minute < w1; minute += MINUTE_MS) {
      expect(await fx.candle('BTCUSDT', minute, 60000, 65000), String(minute)).to.deep.equal({ filled: 0, blocked: 0 });
    }
    expect((await orders()).orders[0]).to.include({ status: 'open' });
    expect(await fx.candle('BTCUSDT', w1, 63850, 64500)).to.deep.equal({ filled: 1, blocked: 0 });
    const positions = (await call('GET', '/positions')).body.positions as Record<string, unknown>[];
    expect(positions[0]).to.include({ entry: 63900, opened_ts: w1 });
  });

  it('cancels a resting order once: order.cancelled, then 409 already_done; an unknown id is 404 not_found', async () => {
    const order = await place({ client_order_id: 'c-9' });
    const r = await call('POST', '/cancel_order', { order_id: order.order_id }, fx.trader, 'v2');
    expect(r.status).to.equal(200);
    expect(r.body.data).to.include({ order_id: order.order_id, status: 'cancelled' });
    const listed = await orders();
    expect(listed.orders).to.deep.equal([]);
    expect(listed.recent[0]).to.include({ order_id: order.order_id, status: 'cancelled' });
    expect(await eventNames()).to.deep.equal(['order.cancelled']);
    const before = await snapshotRedis(fx.redis);
    for (const [path, body, status, code] of [
      ['/cancel_order', { order_id: order.order_id }, 409, 'already_done'],
      ['/modify_order', { order_id: order.order_id, sl: 1 }, 409, 'already_done'],
      ['/cancel_order', { order_id: 'lo-nope' }, 404, 'not_found'],
      ['/modify_order', { order_id: 'lo-nope', sl: 1 }, 404, 'not_found'],
      ['/cancel_order', {}, 400, 'order_id_required'],
      ['/modify_order', { order_id: '', sl: 1 }, 400, 'order_id_required'],
    ] as const) {
      const bad = await call('POST', path, body);
      expect(bad.status, `${path} ${JSON.stringify(body)}`).to.equal(status);
      expect(bad.body.error).to.equal(code);
      const v2 = await call('POST', path, body, fx.trader, 'v2');
      expect((v2.body.error as unknown as { code: string }).code).to.equal(code);
    }
    const after = await snapshotRedis(fx.redis);
    expect(changedKeys(before, after, isRequestBookkeeping)).to.deep.equal([]);
    // the client_order_id still answers the order, as it stands now
    const again = await call('POST', '/open', {
      symbol: 'BTC',
      side: 'long',
      type: 'limit',
      limit_price: 64000,
      margin_usd: 100,
      leverage: 10,
      client_order_id: 'c-9',
    });
    expect(again.body).to.include({ idempotent: true });
    expect(again.body.order).to.include({ order_id: order.order_id, status: 'cancelled' });
  });

  it('answers 409 already_done to modify and cancel of a filled order', async () => {
    const order = await place();
    await fx.candle('BTCUSDT', order.fills_from_ts, 63000, 65000);
    for (const path of ['/modify_order', '/cancel_order']) {
      const r = await call('POST', path, { order_id: order.order_id, limit_price: 63000 });
      expect(r.status, path).to.equal(409);
      expect(r.body).to.include({ error: 'already_done', status: 'filled', order_id: order.order_id });
    }
  });

  it('answers 409 already_done for orders done before the last 100 the book keeps, whichever step pushed them out (fill, reset, cancel)', async () => {
    const cancel = async (o: Order) => expect((await call('POST', '/cancel_order', { order_id: o.order_id })).status).to.equal(200);
    const filled = await place();
    await fx.candle('BTCUSDT', filled.fills_from_ts, 63000, 65000);
    const cancelled: Order[] = [];
    for (let i = 0; i < ORDERS_DONE_KEPT - 1; i++) {
      cancelled.push(await place({ limit_price: 60000 - i }));
      await cancel(cancelled[i]);
    }
    // 100 done: a fill pushes the filled one out, a reset and a cancel the two oldest cancelled ones
    const second = await place();
    await fx.candle('BTCUSDT', second.fills_from_ts, 63000, 65000);
    await place({ limit_price: 50000 });
    expect((await call('POST', '/close_all', {})).body.closed).to.equal(2);
    expect((await call('POST', '/reset', { confirm: true })).body).to.include({ cancelled_orders: 1 });
    await cancel(await place({ limit_price: 50000 }));
    const recent = new Set(await fx.redis.zrange(keys.bookOrdersDone(fx.trader.accountId, 'main'), '0', '-1'));
    for (const [o, status] of [
      [filled, 'filled'],
      [cancelled[0], 'cancelled'],
      [cancelled[1], 'cancelled'],
    ] as const) {
      expect(recent.has(o.order_id)).to.equal(false);
      for (const path of ['/modify_order', '/cancel_order']) {
        const r = await call('POST', path, { order_id: o.order_id, limit_price: 63000 });
        expect(r.status, `${path} ${status}`).to.equal(409);
        expect(r.body).to.include({ error: 'already_done', status, order_id: o.order_id });
      }
    }
    expect((await call('POST', '/cancel_order', { order_id: 'lonever1' })).body).to.include({ error: 'not_found' });
  });

  it('expires resting orders 30 days after placement through the orders job, once, with one order.expired each', async () => {
    const old = await place();
    fx.clock.advance(MINUTE_MS);
    const young = await place({ limit_price: 63000 });
    expect(await fx.expire(ORDER_TTL_MS - 2 * MINUTE_MS)).to.deep.equal({ expired: 0 });
    expect(await fx.expire(ORDER_TTL_MS - 30_000)).to.deep.equal({ expired: 1 });
    expect(await fx.expire(ORDER_TTL_MS - 30_000)).to.deep.equal({ expired: 0 });
    const listed = await orders();
    expect(listed.orders.map((o) => o.order_id)).to.deep.equal([young.order_id]);
    expect(listed.recent[0]).to.include({ order_id: old.order_id, status: 'expired' });
    expect(await eventNames()).to.deep.equal(['order.expired']);
    // the event carries the order as it ended (what /orders shows: the outbox keeps the canonical symbol, clients see the ticker), of its
    // book, at the time it expired
    const [expired] = (await outbox(fx.redis, fx.trader.accountId)).filter((e) => e.event !== 'order.placed');
    const shown: Record<string, unknown> = { ...expired.order, symbol: 'BTC' };
    const { done_ts: doneTs, ...ended } = shown;
    expect(shown).to.deep.equal(listed.recent[0]);
    expect(expired).to.deep.include({ book: 'main', ts: doneTs });
    expect(doneTs)
      .to.be.a('number')
      .and.at.least(old.expires_ts as number);
    expect(ended).to.deep.equal({ ...old, status: 'expired' });
    for (const path of ['/modify_order', '/cancel_order']) {
      const r = await call('POST', path, { order_id: old.order_id, tp: 70000 });
      expect(r.body).to.include({ error: 'already_done', status: 'expired' });
    }
    // an expired order never fills
    expect(await fx.candle('BTCUSDT', old.fills_from_ts + 2 * MINUTE_MS, 1, 1e9)).to.deep.equal({ filled: 1, blocked: 0 });
    expect((await orders()).recent.find((o) => o.order_id === young.order_id)).to.include({ status: 'filled' });
  });

  it('registers the expiry job in the one schedule list, consumed by the orders queue, once however many workers start', async () => {
    const schedule = SCHEDULES.find((s) => s.queue === QUEUES.orders);
    expect(schedule).to.deep.include({ id: 'orders-expire', repeat: { every: 60_000 } });
    expect(PROCESSORS.filter((p) => p.queue === QUEUES.orders)).to.have.length(1);
    const connections = [createBlockingRedis(testRedisUrl()), createBlockingRedis(testRedisUrl())];
    const queues = connections.map((connection) => new Queue(QUEUES.orders, { connection, prefix: QUEUE_PREFIX }));
    try {
      // two worker processes starting at once register the same scheduler
      await Promise.all(queues.map((q) => q.upsertJobScheduler(schedule!.id, schedule!.repeat, schedule!.job)));
      const schedulers = await queues[0].getJobSchedulers();
      expect(schedulers.map((s) => ({ key: s.key, every: s.every }))).to.deep.equal([{ key: 'orders-expire', every: 60_000 }]);
    } finally {
      await queues[0].removeJobScheduler('orders-expire');
      await Promise.all(queues.map((q) => q.close()));
      await closeRedis(...connections);
    }
  });

  it('reset cancels the resting orders of the book (cancelled_orders), each with one order.cancelled; filled ones stay filled', async () => {
    const filled = await place({ limit_price: 64500 });
    await fx.candle('BTCUSDT', filled.fills_from_ts, 64400, 65000);
    const positionId = (await orders()).recent[0].position_id as string;
    expect((await call('POST', '/close', { id: positionId })).status).to.equal(200);
    const a = await place();
    const b = await place({ type: 'stop', limit_price: 66000 });
    const before = (await eventNames()).length;
    const reset = await call('POST', '/reset', { confirm: true });
    expect(reset.body).to.include({ ok: true, cancelled_orders: 2, archived_trades: 1 });
    const listed = await orders();
    expect(listed.orders).to.deep.equal([]);
    const byId = new Map(listed.recent.map((o) => [o.order_id, o]));
    for (const o of [a, b])
      expect(byId.get(o.order_id)).to.include({ status: 'cancelled', note: 'book reset', limit_price: o.limit_price, margin_usd: 100 });
    expect(byId.get(filled.order_id)).to.include({ status: 'filled' });
    expect((await eventNames()).slice(before)).to.deep.equal(['order.cancelled', 'order.cancelled', 'book.reset']);
    expect((await call('POST', '/cancel_order', { order_id: a.order_id })).body.error).to.equal('already_done');
    // the reset left their index entries behind: a candle through both levels fills nothing
    expect(await fx.candle('BTCUSDT', a.fills_from_ts + 10 * MINUTE_MS, 1, 1e9)).to.deep.equal({ filled: 0, blocked: 0 });
    expect((await call('GET', '/positions')).body.positions).to.deep.equal([]);
  });

  it('keeps accounts and books apart: another account or book never sees, modifies or cancels an order', async () => {
    const other = await createTrader(fx.mod);
    const email = (await fx.mod.accounts.get(fx.trader.accountId))!.email;
    const bookKey = await createTrader(fx.mod, { email, book: 'swing' });
    const mine = await place({ client_order_id: 'shared' });
    const theirs = await place({ client_order_id: 'shared' }, other);
    const inBook = await place({ client_order_id: 'shared' }, bookKey);
    expect(new Set([mine.order_id, theirs.order_id, inBook.order_id]).size).to.equal(3);
    expect(inBook.account).to.equal('swing');
    expect((await orders(other)).orders.map((o) => o.order_id)).to.deep.equal([theirs.order_id]);
    expect((await orders(bookKey)).orders.map((o) => o.order_id)).to.deep.equal([inBook.order_id]);
    expect((await orders()).orders.map((o) => o.order_id)).to.deep.equal([mine.order_id]);
    for (const [who, id] of [
      [other, mine.order_id],
      [bookKey, mine.order_id],
      [fx.trader, inBook.order_id],
      [fx.trader, theirs.order_id],
    ] as const) {
      for (const path of ['/cancel_order', '/modify_order']) {
        const r = await call('POST', path, { order_id: id, sl: 100 }, who);
        expect(r.status, `${path} ${id}`).to.equal(404);
        expect(r.body.error).to.equal('not_found');
      }
    }
    expect((await call('POST', '/reset', { confirm: true }, bookKey)).body.cancelled_orders).to.equal(1);
    expect((await orders()).orders.map((o) => o.order_id)).to.deep.equal([mine.order_id]);
    expect(await fx.redis.zcard(keys.bookOrders(fx.trader.accountId, 'main'))).to.equal(1);
    expect(await eventNames(other)).to.deep.equal([]);
  });
});
