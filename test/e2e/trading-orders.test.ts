// @three-masters: order-place, order-modify and order-fill over several keys
import { expect } from 'chai';
import { MINUTE_MS, ORDER_TTL_MS, watermarkAfter } from '../../shared/engine/order-rules.js';
import { keys } from '../../shared/redis/keys.js';
import { useOrderFixture } from '../helpers/order-fixture.js';
import { changedKeys, isRequestBookkeeping, snapshotRedis } from '../helpers/redis.js';
import { botCall, createTrader, type Trader } from '../helpers/trading.js';

type Order = Record<string, unknown> & { order_id: string; fills_from_ts: number; status: string };
type Body = Record<string, unknown> & { order?: Order; position?: Record<string, unknown>; error?: string };

describe('bot trading: limit and stop entries (placement, fills, caps, idempotency)', function () {
  this.timeout(30_000);
  const fx = useOrderFixture();

  const call = (method: 'GET' | 'POST', path: string, body?: unknown, who: Trader = fx.trader, version: 'v1' | 'v2' = 'v1') =>
    botCall<Body>(fx.api.url, who, method, path, body, version);
  const place = async (body: Record<string, unknown>, who: Trader = fx.trader): Promise<Order> => {
    const r = await call('POST', '/open', { symbol: 'BTC', margin_usd: 100, leverage: 10, ...body }, who);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body.order!;
  };
  const orders = async (who: Trader = fx.trader) =>
    (await call('GET', '/orders', undefined, who)).body as unknown as { orders: Order[]; recent: Order[] };

  const cases = [
    { type: 'limit', side: 'long', level: 64000, near: [64500, 65200], reach: [63900, 64800] },
    { type: 'limit', side: 'short', level: 66000, near: [65100, 65500], reach: [65200, 66100] },
    { type: 'stop', side: 'long', level: 66500, near: [65000, 66400], reach: [65000, 66500] },
    { type: 'stop', side: 'short', level: 63500, near: [63600, 65000], reach: [63400, 64000] },
  ] as const;

  for (const c of cases) {
    it(`rests a ${c.type} ${c.side} and fills it at its level, stamped with the minute the market reached it`, async () => {
      const now = fx.clock.now();
      const order = await place({
        side: c.side,
        type: c.type,
        limit_price: c.level,
        sl: c.side === 'long' ? c.level * 0.9 : c.level * 1.1,
      });
      expect(order).to.include({
        type: c.type,
        side: c.side,
        symbol: 'BTC',
        limit_price: c.level,
        status: 'open',
        margin_usd: 100,
        leverage: 10,
        account: 'main',
        client_order_id: null,
      });
      expect(order.order_id).to.match(/^lo[0-9a-z]+$/);
      expect(order.placed_ts).to.be.within(now, fx.clock.now());
      expect(order.expires_ts).to.equal((order.placed_ts as number) + ORDER_TTL_MS);
      expect(order.fills_from_ts).to.equal(watermarkAfter(order.placed_ts as number));
      expect((await orders()).orders.map((o) => o.order_id)).to.deep.equal([order.order_id]);

      const w = order.fills_from_ts;
      // the minute of placement reached the level, but partly before the order existed: no fill
      expect(await fx.candle('BTCUSDT', w - MINUTE_MS, 60000, 70000)).to.deep.equal({ filled: 0, blocked: 0 });
      expect(await fx.candle('BTCUSDT', w, c.near[0], c.near[1])).to.deep.equal({ filled: 0, blocked: 0 });
      expect(await fx.events(fx.trader.accountId)).to.deep.equal([]);
      expect(await fx.candle('BTCUSDT', w + MINUTE_MS, c.reach[0], c.reach[1])).to.deep.equal({ filled: 1, blocked: 0 });

      const listed = await orders();
      expect(listed.orders).to.deep.equal([]);
      const filled = listed.recent[0];
      expect(filled).to.include({ order_id: order.order_id, status: 'filled', filled_ts: w + MINUTE_MS });
      const positions = (await call('GET', '/positions')).body.positions as Record<string, unknown>[];
      expect(positions).to.have.length(1);
      expect(positions[0]).to.include({
        id: filled.position_id,
        side: c.side,
        entry: c.level,
        entry_price: c.level,
        opened_ts: w + MINUTE_MS,
        status: 'open',
        margin: 100,
        leverage: 10,
      });
      expect(positions[0].qty as number).to.be.closeTo(1000 / c.level, 1e-12);
      const events = await fx.events(fx.trader.accountId);
      expect(events.map((e) => e.event)).to.deep.equal(['order.filled', 'position.opened']);
      expect(events[0].order).to.include({ order_id: order.order_id, status: 'filled', position_id: filled.position_id });
      expect(events[0].position).to.include({ id: filled.position_id });
      // later candles find nothing to fill
      expect(await fx.candle('BTCUSDT', w + 2 * MINUTE_MS, 1, 1e9)).to.deep.equal({ filled: 0, blocked: 0 });
    });
  }

  it("fills an order at the leverage it was accepted with after the symbol's cap fell below it", async () => {
    await fx.prices.set({ DOTUSDT: 7.2 });
    await fx.prices.setVolumes({ DOTUSDT: 3e8 }); // 150x
    const order = await place({ symbol: 'DOT', side: 'long', type: 'limit', limit_price: 7, leverage: 150 });
    await fx.prices.setVolumes({ DOTUSDT: null }); // out of the universe: 100x
    expect((await call('POST', '/open', { symbol: 'DOT', side: 'long', margin_usd: 10, leverage: 150, dry_run: true })).body).to.include({
      error: 'leverage_max',
      max: 100,
    });
    expect(await fx.candle('DOTUSDT', order.fills_from_ts, 6.9, 7.1)).to.deep.equal({ filled: 1, blocked: 0 });
    const positions = (await call('GET', '/positions')).body.positions as Record<string, unknown>[];
    expect(positions.map((p) => [p.symbol, p.leverage, p.entry])).to.deep.equal([['DOT', 150, 7]]);
  });

  it('refuses a level on the side the market already reached (limit_marketable, stop_wrong_side): never a market fill, nothing written', async () => {
    await place({ side: 'long', type: 'limit', limit_price: 60000 }); // the book exists
    const before = await snapshotRedis(fx.redis);
    const wrong: [string, string, number, string][] = [
      ['limit', 'long', 65000, 'limit_marketable'],
      ['limit', 'long', 65001, 'limit_marketable'],
      ['limit', 'short', 64999, 'limit_marketable'],
      ['stop', 'long', 64000, 'stop_wrong_side'],
      ['stop', 'short', 65000, 'stop_wrong_side'],
      ['stop', 'short', 66000, 'stop_wrong_side'],
    ];
    for (const [type, side, level, code] of wrong) {
      const r = await call('POST', '/open', { symbol: 'BTC', side, type, limit_price: level, margin_usd: 10, leverage: 2 });
      expect(r.status, `${type} ${side} ${level}`).to.equal(400);
      expect(r.body).to.include({ error: code, live: 65000, limit_price: level, symbol: 'BTC' });
      const v2 = await call(
        'POST',
        '/open',
        { symbol: 'BTC', side, type, stop_price: level, margin_usd: 10, leverage: 2 },
        fx.trader,
        'v2',
      );
      expect((v2.body.error as unknown as { code: string }).code).to.equal(code);
    }
    const after = await snapshotRedis(fx.redis);
    expect(changedKeys(before, after, isRequestBookkeeping)).to.deep.equal([]);
    expect((await call('GET', '/positions')).body.positions).to.deep.equal([]);
  });

  it('checks stop and target against limit_price, not against the market', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ side: 'long', type: 'limit', limit_price: 60000, sl: 61000 }, 'sl_wrong_side'], // below the market, above the level
      [{ side: 'long', type: 'limit', limit_price: 60000, tp: 59000 }, 'tp_wrong_side'],
      [{ side: 'short', type: 'stop', limit_price: 63000, sl: 62000 }, 'sl_wrong_side'],
      [{ side: 'short', type: 'stop', limit_price: 63000, tp: 64000 }, 'tp_wrong_side'], // below the market, above the level
    ];
    for (const [body, code] of bad) {
      const r = await call('POST', '/open', { symbol: 'BTC', margin_usd: 10, leverage: 2, ...body });
      expect(r.status, JSON.stringify(body)).to.equal(400);
      expect(r.body).to.include({ error: code, live: body.limit_price });
    }
    // a target below the market but above a limit long's level is fine, as is a short's stop above its level but below the market
    expect(await place({ side: 'long', type: 'limit', limit_price: 60000, tp: 62000, sl: 59000 })).to.include({ tp: 62000, sl: 59000 });
    expect(await place({ side: 'short', type: 'stop', limit_price: 63000, sl: 64000, tp: 61000 })).to.include({ sl: 64000, tp: 61000 });
  });

  it('answers a dry run of a resting entry with the order (type, direction, would_fill_now) and position_if_filled priced at limit_price; writes nothing', async () => {
    const before = await snapshotRedis(fx.redis);
    const r = await call('POST', '/open', {
      symbol: 'BTC',
      side: 'long',
      type: 'limit',
      limit_price: 50000,
      margin_usd: 100,
      leverage: 10,
      dry_run: true,
    });
    expect(r.status).to.equal(200);
    expect(r.body).to.have.keys('ok', 'dry_run', 'order', 'position_if_filled');
    expect(r.body).to.include({ ok: true, dry_run: true });
    expect(r.body.order).to.deep.equal({
      type: 'limit',
      symbol: 'BTC',
      side: 'long',
      limit_price: 50000,
      direction: 'down',
      would_fill_now: false,
    });
    const ifFilled = r.body.position_if_filled as Record<string, unknown>;
    expect(ifFilled).to.include({ entry: 50000, entry_price: 50000, qty: 1000 / 50000, leverage_max: 1000, side: 'long', symbol: 'BTC' });
    expect(ifFilled.liq_price as number).to.be.closeTo(50000 * (1 - 1 / 10 + 0.005), 1e-6);
    expect(ifFilled).to.not.have.property('id');
    // the market has to come up to a stop long and a limit short, down to a stop short
    for (const [type, side, level, direction] of [
      ['stop', 'long', 66000, 'up'],
      ['limit', 'short', 66000, 'up'],
      ['stop', 'short', 64000, 'down'],
    ] as const) {
      const v2 = await call(
        'POST',
        '/open',
        { symbol: 'BTC', side, type, limit_price: level, margin_usd: 100, leverage: 10, dry_run: true },
        fx.trader,
        'v2',
      );
      const data = v2.body.data as unknown as { order: Record<string, unknown>; position_if_filled: Record<string, unknown> };
      expect(data.order, `${type} ${side}`).to.include({ type, direction, would_fill_now: false });
      expect(data.position_if_filled).to.include({ entry: level, side });
    }
    const after = await snapshotRedis(fx.redis);
    expect(changedKeys(before, after, isRequestBookkeeping)).to.deep.equal([]);
  });

  it('refuses limit_price 0 as missing (limit_price_required), on open and on modify_order', async () => {
    for (const body of [{ limit_price: 0 }, { stop_price: 0 }, { limit_price: -5 }, {}]) {
      const r = await call('POST', '/open', { symbol: 'BTC', side: 'long', type: 'limit', margin_usd: 10, leverage: 2, ...body });
      expect(r.status, JSON.stringify(body)).to.equal(400);
      expect(r.body.error, JSON.stringify(body)).to.equal('limit_price_required');
    }
    const order = await place({ side: 'long', type: 'limit', limit_price: 60000 });
    const modify = await call('POST', '/modify_order', { order_id: order.order_id, limit_price: 0 }, fx.trader, 'v2');
    expect(modify.status).to.equal(400);
    expect((modify.body.error as unknown as { code: string }).code).to.equal('limit_price_required');
  });

  it('refuses a level more than 50% away from the market (limit_price_far), on open and on modify_order: never an order that cannot fill', async () => {
    const far: [string, string, number][] = [
      ['limit', 'long', 32000],
      ['limit', 'long', 0.5],
      ['limit', 'short', 98000],
      ['stop', 'long', 100000],
      ['stop', 'short', 30000],
    ];
    for (const [type, side, level] of far) {
      const r = await call('POST', '/open', { symbol: 'BTC', side, type, limit_price: level, margin_usd: 10, leverage: 2 });
      expect(r.status, `${type} ${side} ${level}`).to.equal(400);
      expect(r.body).to.include({ error: 'limit_price_far', live: 65000, limit_price: level, max_distance_pct: 50 });
      expect(
        (await call('POST', '/open', { symbol: 'BTC', side, type, limit_price: level, margin_usd: 10, leverage: 2, dry_run: true })).body
          .error,
      ).to.equal('limit_price_far');
    }
    expect((await orders()).orders).to.deep.equal([]);
    // 50% away is the farthest level taken
    const order = await place({ side: 'long', type: 'limit', limit_price: 32500 });
    const moved = await call('POST', '/modify_order', { order_id: order.order_id, limit_price: 32000 });
    expect(moved.status).to.equal(400);
    expect(moved.body).to.include({ error: 'limit_price_far', limit_price: 32000 });
    expect((await orders()).orders[0]).to.include({ limit_price: 32500, status: 'open' });
  });

  it('one-way mode at fill: a limit short reached while the book holds a long of the symbol closes with a readable note and opens nothing', async () => {
    const long = (await call('POST', '/open', { symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10 })).body.position!;
    const short = await place({ side: 'short', type: 'limit', limit_price: 66000 });
    // another symbol and the same side are not blocked
    const eth = await place({ symbol: 'ETH', side: 'short', type: 'limit', limit_price: 3600 });
    const more = await place({ side: 'long', type: 'limit', limit_price: 64000 });
    const before = (await fx.events(fx.trader.accountId)).length;
    expect(await fx.candle('BTCUSDT', short.fills_from_ts, 63900, 66100)).to.deep.equal({ filled: 1, blocked: 1 });
    expect(await fx.candle('ETHUSDT', eth.fills_from_ts, 3500, 3610)).to.deep.equal({ filled: 1, blocked: 0 });
    const { recent } = await orders();
    const rejected = recent.find((o) => o.order_id === short.order_id)!;
    expect(rejected).to.include({ status: 'rejected' });
    expect(rejected).to.not.have.property('position_id');
    expect(rejected.note)
      .to.be.a('string')
      .and.match(/open long on BTC; one-way mode/);
    expect(recent.find((o) => o.order_id === more.order_id)).to.include({ status: 'filled' });
    const positions = (await call('GET', '/positions')).body.positions as Record<string, unknown>[];
    expect(positions.map((p) => [p.symbol, p.side]).sort()).to.deep.equal([
      ['BTC', 'long'],
      ['BTC', 'long'],
      ['ETH', 'short'],
    ]);
    expect(positions.map((p) => p.id)).to.include(long.id);
    const events = (await fx.events(fx.trader.accountId)).slice(before);
    expect(events.filter((e) => e.order?.order_id === short.order_id).map((e) => [e.event, e.order?.status])).to.deep.equal([
      ['order.cancelled', 'rejected'],
    ]);
    const r = await call('POST', '/cancel_order', { order_id: short.order_id });
    expect(r.status).to.equal(409);
    expect(r.body).to.include({ error: 'already_done', status: 'rejected' });
  });

  it('market opens are not held to one-way mode: a book may hold a long and a short of one symbol (as the original)', async () => {
    expect((await call('POST', '/open', { symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2 })).status).to.equal(200);
    expect((await call('POST', '/open', { symbol: 'BTC', side: 'short', margin_usd: 10, leverage: 2 })).status).to.equal(200);
  });

  it('reads an order stored as resting (before the status read open) as open, and cancels it', async () => {
    const order = await place({ side: 'long', type: 'limit', limit_price: 60000 });
    const data = keys.bookOrderData(fx.trader.accountId, 'main');
    const raw = (await fx.redis.hget(data, order.order_id))!;
    await fx.redis.hset(data, order.order_id, raw.replace('"status":"open"', '"status":"resting"'));
    expect((await orders()).orders[0]).to.include({ order_id: order.order_id, status: 'open' });
    const r = await call('POST', '/cancel_order', { order_id: order.order_id });
    expect(r.status).to.equal(200);
    expect((await orders()).recent[0]).to.include({ order_id: order.order_id, status: 'cancelled' });
  });

  it('holds at most 20 resting orders per book (409 too_many_orders), also when 25 arrive at once; a cancel frees a slot', async () => {
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        call('POST', '/open', { symbol: 'ETH', side: 'long', type: 'limit', limit_price: 3000 - i, margin_usd: 5, leverage: 2 }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).to.have.length(20);
    const refused = results.filter((r) => r.status === 409);
    expect(refused).to.have.length(5);
    expect(refused[0].body).to.include({ error: 'too_many_orders', max: 20, resting: 20 });
    expect(await fx.redis.zcard(keys.bookOrders(fx.trader.accountId, 'main'))).to.equal(20);
    const first = results.find((r) => r.status === 200)!.body.order!;
    expect((await call('POST', '/cancel_order', { order_id: first.order_id })).status).to.equal(200);
    expect(
      (await call('POST', '/open', { symbol: 'ETH', side: 'short', type: 'stop', limit_price: 3000, margin_usd: 5, leverage: 2 })).status,
    ).to.equal(200);
  });

  it('rejects a fill the open-position cap blocks: the order closes with a readable note and no position opens', async () => {
    const free = await createTrader(fx.mod, { plan: 'free' });
    const order = await place({ symbol: 'ETH', side: 'long', type: 'limit', limit_price: 3400 }, free);
    const opens = await Promise.all(
      Array.from({ length: 50 }, () => call('POST', '/open', { symbol: 'ETH', side: 'short', margin_usd: 1, leverage: 1 }, free)),
    );
    expect(opens.every((r) => r.status === 200)).to.equal(true);
    const before = (await fx.events(free.accountId)).length;
    expect(await fx.candle('ETHUSDT', order.fills_from_ts, 3390, 3450)).to.deep.equal({ filled: 0, blocked: 1 });
    const rejected = (await orders(free)).recent[0];
    expect(rejected).to.include({ order_id: order.order_id, status: 'rejected' });
    expect(rejected.note)
      .to.be.a('string')
      .and.match(/cap of 50 open positions/);
    expect(rejected).to.not.have.property('position_id');
    expect(await fx.redis.hlen(keys.bookOpen(free.accountId, 'main'))).to.equal(50);
    const events = await fx.events(free.accountId);
    expect(events.slice(before).map((e) => [e.event, e.order?.status])).to.deep.equal([['order.cancelled', 'rejected']]);
    for (const path of ['/cancel_order', '/modify_order']) {
      const r = await call('POST', path, { order_id: order.order_id, limit_price: 3300 }, free);
      expect(r.status, path).to.equal(409);
      expect(r.body).to.include({ error: 'already_done', status: 'rejected' });
    }
  });

  it('answers a reused client_order_id with the same order (idempotent true), even after the market moved past its level', async () => {
    const body = { side: 'long', type: 'limit', limit_price: 64000, client_order_id: 'lim-1' };
    const first = await place(body);
    await fx.prices.set({ BTCUSDT: 63000 }); // a new placement at 64000 would now be marketable
    const again = await call('POST', '/open', { symbol: 'BTC', margin_usd: 100, leverage: 10, ...body });
    expect(again.status).to.equal(200);
    expect(again.body).to.include({ ok: true, idempotent: true });
    expect(again.body.order).to.deep.equal(first);
    const v2 = await call('POST', '/open', { symbol: 'BTC', margin_usd: 100, leverage: 10, ...body }, fx.trader, 'v2');
    expect(v2.body.data).to.deep.equal({ order: first, idempotent: true });
    // the same id on a market open is another namespace: it opens a position
    expect(
      (await call('POST', '/open', { symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2, client_order_id: 'lim-1' })).body.position,
    ).to.include({ client_order_id: 'lim-1' });
  });

  it('makes one order of 20 concurrent identical requests with one client_order_id', async () => {
    const body = { symbol: 'ETH', side: 'short', type: 'stop', limit_price: 3300, margin_usd: 20, leverage: 4, client_order_id: 'race-1' };
    const results = await Promise.all(Array.from({ length: 20 }, () => call('POST', '/open', body)));
    expect(results.every((r) => r.status === 200)).to.equal(true);
    expect(new Set(results.map((r) => r.body.order!.order_id)).size).to.equal(1);
    expect(results.filter((r) => r.body.idempotent === false)).to.have.length(1);
    expect(await fx.redis.zcard(keys.bookOrders(fx.trader.accountId, 'main'))).to.equal(1);
    expect(await fx.events(fx.trader.accountId)).to.deep.equal([]);
  });

  it('refuses a level without a resting type and a resting type without a level; answers v2 in the envelope', async () => {
    const noType = await call('POST', '/open', { symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2, limit_price: 60000 });
    expect(noType.body).to.include({ error: 'invalid_param', param: 'type' });
    const noLevel = await call(
      'POST',
      '/open',
      { symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2, type: 'stop' },
      fx.trader,
      'v2',
    );
    expect(noLevel.status).to.equal(400);
    expect((noLevel.body.error as unknown as { code: string }).code).to.equal('limit_price_required');
    const both = await call('POST', '/open', {
      symbol: 'BTC',
      side: 'long',
      margin_usd: 10,
      leverage: 2,
      type: 'limit',
      limit_price: 60000,
      stop_price: 61000,
    });
    expect(both.body).to.include({ error: 'invalid_param', param: 'stop_price' });
    const placed = await call(
      'POST',
      '/open',
      { symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2, type: 'LIMIT', stop_price: 60000 },
      fx.trader,
      'v2',
    );
    expect(placed.body.ok).to.equal(true);
    expect(placed.body.data).to.have.keys('order', 'idempotent');
    const list = await call('GET', '/orders', undefined, fx.trader, 'v2');
    expect(list.body.data).to.have.keys('orders', 'recent');
  });
});
