// @three-masters: order-fill from the sweep, the outbox
import { expect } from 'chai';
import { MINUTE_MS } from '../../shared/engine/order-rules.js';
import { candleSweepProcessor } from '../../workers/processors/sweep/candle-sweep-processor.js';
import { closeCurrentMinute, scriptCurrentCandle, simControl, TRADING_SIM_ENV, useSimStack } from '../helpers/market-sim.js';
import { waitFor } from '../helpers/market-wait.js';
import { MovableClock } from '../helpers/order-fixture.js';
import { holdSweeps, nextOutboxEvent, outbox } from '../helpers/sweep.js';
import { accountServices, botCall, createTrader, waitForOpenEntry, type Trader } from '../helpers/trading.js';

type Order = Record<string, unknown> & { order_id: string; status: string; fills_from_ts: number };
type Body = Record<string, unknown> & { order?: Order; position?: Record<string, unknown>; orders?: Order[]; recent?: Order[] };

describe('resting orders end to end: sim candle -> feed -> sweep job -> order step -> position', function () {
  this.timeout(60_000);
  let trader: Trader;
  // behind the wall clock: each test sets it so the orders it places may fill from the minute it scripts on
  const clock = new MovableClock();
  /** A minute well before the feed started: the feed never stored it, so a candle the sim publishes for it is its first close. */
  let unstoredMinute: number;

  const stack = useSimStack({
    env: TRADING_SIM_ENV,
    feed: true,
    // no outbox relay: the test reads the events the fills wrote
    worker: { processors: [candleSweepProcessor], schedules: [], relay: false },
    clock,
  });
  before(async () => {
    unstoredMinute = stack.startedMinute - 5 * MINUTE_MS;
    trader = await createTrader(accountServices(stack.redis));
  });

  it('fills a limit long and a stop short at their levels from the closed candle the sim publishes; a level it missed keeps resting', async () => {
    // the stop short in another account: one book would hold the symbol one way only (one-way mode at fill)
    const other = await createTrader(accountServices(stack.redis));
    await simControl(stack.sim, 'price', { symbol: 'ETHUSDT', price: 3500 });
    const eth = { symbol: 'ETH', side: 'long', margin_usd: 10, leverage: 2 };
    await waitForOpenEntry(stack.api.url, trader, eth, 3500, 'the sim price on the open path', 10_000);
    const place = async (body: Record<string, unknown>, who: Trader = trader): Promise<Order> => {
      const r = await botCall<Body>(stack.api.url, who, 'POST', '/open', { symbol: 'ETH', margin_usd: 100, leverage: 10, ...body });
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      return r.body.order!;
    };
    // the candle is set before the orders, so the sim closes the minute with it whenever the minute ends;
    // and nothing is swept until the orders rest, so that close cannot be swept before they exist
    const releaseSweeps = await holdSweeps();
    let minute: number;
    let limit: Order, stop: Order, untouched: Order;
    try {
      minute = await scriptCurrentCandle(stack.sim, { symbol: 'ETHUSDT', open: 3500, high: 3510, low: 3400, close: 3480 });
      // the API's clock at the start of the minute before: the orders may fill from this minute on, not
      // from an earlier candle (its low holds the price before 3500)
      clock.shift = minute - MINUTE_MS + 1 - Date.now();
      limit = await place({ side: 'long', type: 'limit', limit_price: 3450, tp: 3700 });
      stop = await place({ side: 'short', type: 'stop', limit_price: 3420, sl: 3600 }, other);
      untouched = await place({ side: 'long', type: 'limit', limit_price: 3300 });
    } finally {
      await releaseSweeps();
    }

    expect([limit.fills_from_ts, stop.fills_from_ts]).to.deep.equal([minute, minute]);
    // the sim closes the minute now rather than at its end (a minute that ended meanwhile is closed already)
    expect(await closeCurrentMinute(stack.sim)).to.be.at.least(minute);
    // the minute's close, its sweep job and the order step end in each fill's outbox event
    await Promise.all([trader, other].map((who) => nextOutboxEvent(stack.redis, who.accountId, (e) => e.event === 'order.filled', 30_000)));
    const [done, theirs] = await Promise.all(
      [trader, other].map(async (who) => (await botCall<Body>(stack.api.url, who, 'GET', '/orders')).body),
    );
    expect([done.recent, theirs.recent].map((recent) => recent?.length)).to.deep.equal([1, 1]);
    const byId = new Map([...done.recent!, ...theirs.recent!].map((o) => [o.order_id, o]));
    expect(byId.get(limit.order_id)).to.include({ status: 'filled', filled_ts: minute });
    expect(byId.get(stop.order_id)).to.include({ status: 'filled', filled_ts: minute });
    expect(done.orders!.map((o) => o.order_id)).to.deep.equal([untouched.order_id]);
    const positionsOf = async (who: Trader) =>
      (await botCall<Body>(stack.api.url, who, 'GET', '/positions')).body.positions as Record<string, unknown>[];
    const positions = [...(await positionsOf(trader)), ...(await positionsOf(other))];
    const byPosition = new Map(positions.map((p) => [p.id, p]));
    expect(byPosition.get(byId.get(limit.order_id)!.position_id)).to.include({
      side: 'long',
      entry: 3450,
      opened_ts: minute,
      tp: 3700,
      status: 'open',
    });
    expect(byPosition.get(byId.get(stop.order_id)!.position_id)).to.include({
      side: 'short',
      entry: 3420,
      opened_ts: minute,
      sl: 3600,
      status: 'open',
    });
  });

  it('fills a limit short and a stop long, and rejects a fill the open-position cap blocks, from a past candle the sim publishes', async () => {
    // the API's clock half a minute before the past minute the candles are for: the orders may fill from it on
    clock.shift = unstoredMinute - MINUTE_MS / 2 - Date.now();
    const bot = await createTrader(accountServices(stack.redis));
    // the stop long in another account: one book would hold SOL one way only (one-way mode at fill)
    const bot2 = await createTrader(accountServices(stack.redis));
    const free = await createTrader(accountServices(stack.redis), { plan: 'free' });
    const call = (who: Trader, method: 'GET' | 'POST', path: string, body?: Record<string, unknown>) =>
      botCall<Body>(stack.api.url, who, method, path, body);
    // the sim's own prices, left alone: the minutes it closes by itself stay flat and reach no level below
    const priceOf = async (symbol: string): Promise<number> =>
      waitFor(
        async () =>
          (await call(bot, 'POST', '/open', { symbol, side: 'long', margin_usd: 10, leverage: 2, dry_run: true })).body.position?.entry as
            number | undefined,
        10_000,
        `the sim price of ${symbol}`,
      );
    const [sol, bnb] = [await priceOf('SOL'), await priceOf('BNB')];
    const at = (price: number, factor: number): number => Number((price * factor).toPrecision(6));
    const place = async (who: Trader, body: Record<string, unknown>): Promise<Order> => {
      const r = await call(who, 'POST', '/open', { margin_usd: 100, leverage: 10, ...body });
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      return r.body.order!;
    };
    // a limit short rests above the market, a stop long above it too
    const limitShort = await place(bot, { symbol: 'SOL', side: 'short', type: 'limit', limit_price: at(sol, 1.025), sl: at(sol, 1.1) });
    const stopLong = await place(bot2, { symbol: 'SOL', side: 'long', type: 'stop', limit_price: at(sol, 1.02), tp: at(sol, 1.2) });
    const missed = await place(bot, { symbol: 'SOL', side: 'short', type: 'limit', limit_price: at(sol, 1.1) });
    const blocked = await place(free, { symbol: 'BNB', side: 'long', type: 'limit', limit_price: at(bnb, 0.98) });
    const opens = await Promise.all(
      Array.from({ length: 50 }, () => call(free, 'POST', '/open', { symbol: 'BNB', side: 'short', margin_usd: 1, leverage: 1 })),
    );
    expect(opens.every((r) => r.status === 200)).to.equal(true);

    const minute = unstoredMinute;
    for (const o of [limitShort, stopLong, blocked]) expect(o.fills_from_ts).to.equal(minute);
    await simControl(stack.sim, 'candle', { symbol: 'SOLUSDT', minute, open: sol, high: at(sol, 1.03), low: at(sol, 0.995), close: sol });
    await simControl(stack.sim, 'candle', { symbol: 'BNBUSDT', minute, open: bnb, high: at(bnb, 1.005), low: at(bnb, 0.975), close: bnb });

    const done = async (who: Trader, count: number) =>
      waitFor(
        async () => {
          const r = await call(who, 'GET', '/orders');
          return r.body.recent?.length === count ? r.body : undefined;
        },
        60_000,
        'the orders the candle reached',
      );
    const [mine, theirs] = await Promise.all([done(bot, 1), done(bot2, 1)]);
    const byId = new Map([...mine.recent!, ...theirs.recent!].map((o) => [o.order_id, o]));
    expect(byId.get(limitShort.order_id)).to.include({ status: 'filled', filled_ts: minute });
    expect(byId.get(stopLong.order_id)).to.include({ status: 'filled', filled_ts: minute });
    expect(mine.orders!.map((o) => o.order_id)).to.deep.equal([missed.order_id]);
    const positions = (
      await Promise.all([bot, bot2].map(async (who) => (await call(who, 'GET', '/positions')).body.positions as Record<string, unknown>[]))
    ).flat();
    const byPosition = new Map(positions.map((p) => [p.id, p]));
    expect(byPosition.get(byId.get(limitShort.order_id)!.position_id)).to.include({
      symbol: 'SOL',
      side: 'short',
      entry: limitShort.limit_price,
      opened_ts: minute,
      sl: limitShort.sl,
      status: 'open',
    });
    expect(byPosition.get(byId.get(stopLong.order_id)!.position_id)).to.include({
      symbol: 'SOL',
      side: 'long',
      entry: stopLong.limit_price,
      opened_ts: minute,
      tp: stopLong.tp,
      status: 'open',
    });
    // each fill announced with the order as it ended and the position it opened
    const fills = [...(await outbox(stack.redis, bot.accountId)), ...(await outbox(stack.redis, bot2.accountId))].filter(
      (e) => e.event === 'order.filled',
    );
    for (const o of [limitShort, stopLong]) {
      const fill = fills.find((e) => e.order?.order_id === o.order_id)!;
      // stored under the canonical symbol; /orders shows the ticker
      expect({ ...fill.order, symbol: 'SOL' }).to.deep.equal(byId.get(o.order_id));
      expect(fill.position).to.include({ id: byId.get(o.order_id)!.position_id, entry: o.limit_price, side: o.side, status: 'open' });
    }

    const rejected = (await done(free, 1)).recent![0];
    expect(rejected).to.include({ order_id: blocked.order_id, status: 'rejected' });
    expect(rejected).to.not.have.property('position_id');
    expect(String(rejected.note)).to.match(/cap of 50 open positions/);
    expect((await call(free, 'GET', '/account')).body).to.include({ open_positions: 50 });
    const freeEvents = await outbox(stack.redis, free.accountId);
    expect(freeEvents.filter((e) => e.event.startsWith('order.') && e.event !== 'order.placed')).to.have.length(1);
    const cancelled = freeEvents.find((e) => e.event === 'order.cancelled')!;
    expect(cancelled).to.deep.include({ book: 'main', ts: rejected.done_ts, order: { ...rejected, symbol: 'BNBUSDT' } });
  });
});
