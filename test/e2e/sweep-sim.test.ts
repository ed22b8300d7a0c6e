// @three-masters: the sweep's BullMQ jobs and position-close
import { expect } from 'chai';
import { trailingStop } from '../../shared/engine/trailing.js';
import { createMarketStore, type MarketStore } from '../../shared/market/market-store.js';
import { computeClose } from '../../shared/engine/close-record.js';
import type { BookRef, Position } from '../../shared/paper/positions/position-types.js';
import { QUEUES } from '../../shared/queues/queue-names.js';
import { keys } from '../../shared/redis/keys.js';
import { liveSweepProcessor } from '../../workers/processors/sweep/live-sweep-processor.js';
import { candleSweepProcessor } from '../../workers/processors/sweep/candle-sweep-processor.js';
import { SCHEDULES } from '../../workers/schedules.js';
import { closeCurrentMinute, simControl, TRADING_SIM_ENV, useSimStack } from '../helpers/market-sim.js';
import { waitFor } from '../helpers/market-wait.js';
import { closedPosition, holdSweeps, MINUTE, openPosition, positionEvents } from '../helpers/sweep.js';
import { accountServices, botCall, createTrader, type Trader } from '../helpers/trading.js';

/**
 * The sweep end to end: the simulated exchange publishes a closed candle, the feed stores it and
 * enqueues the sweep job, a real worker settles. The API's clock runs an hour behind, so positions
 * are opened before the past minutes the sim can still publish (a candle never applies to a
 * position opened within or after its minute). Prices stay at the sim's own, so the minutes the sim
 * closes by itself are flat and trigger nothing; each case has its own symbol.
 */
describe('the sweep end to end: sim candles and prices -> feed -> sweep jobs -> settlement', function () {
  this.timeout(60_000);
  let market: MarketStore;
  let trader: Trader;
  let ref: BookRef;
  /** Minutes before the feed started: the feed never stored them, so a candle posted for one is its first close. */
  let unusedMinute: number;

  const stack = useSimStack({
    env: TRADING_SIM_ENV,
    feed: true,
    worker: {
      processors: [candleSweepProcessor, liveSweepProcessor],
      schedules: SCHEDULES.filter((s) => s.queue === QUEUES.liveSweep),
      relay: false,
    },
    clock: { now: () => Date.now() - 60 * MINUTE },
  });
  before(async () => {
    unusedMinute = stack.startedMinute - 30 * MINUTE;
    market = createMarketStore(stack.redis, stack.ctx.config);
    trader = await createTrader(accountServices(stack.redis));
    ref = { accountId: trader.accountId, book: 'main' };
    await waitFor(async () => (await market.getQuote('BCHUSDT')) !== null, 20_000, 'live prices');
  });

  const priceOf = async (symbol: string): Promise<number> =>
    (await waitFor(() => market.getQuote(symbol), 10_000, `a price for ${symbol}`)).price;
  const open = async (body: Record<string, unknown>): Promise<Position> => {
    const r = await botCall<{ position: Position }>(stack.api.url, trader, 'POST', '/open', { margin_usd: 100, leverage: 10, ...body });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body.position;
  };
  /** Publishes a closed candle of a past minute (open at the low, close at the high). */
  const publish = async (symbol: string, low: number, high: number): Promise<void> => {
    const minute = unusedMinute;
    unusedMinute += MINUTE;
    await simControl(stack.sim, 'candle', { symbol, minute, open: low, high, low, close: high });
  };
  const settled = (id: string) => waitFor(() => closedPosition(stack.redis, ref, id), 15_000, `position ${id} settled`);
  const cents = (p: Position, exit: number) => computeClose(p, exit, 100, 0, 0, 'x').cents;
  /** The position's events: names as listed; the last one carries the record as stored, of the book, at its close time. */
  const expectSettledEvent = async (closed: Position, names: string[]): Promise<void> => {
    const events = await positionEvents(stack.redis, ref.accountId, closed.id);
    expect(
      events.map((e) => e.event),
      closed.symbol,
    ).to.deep.equal(names);
    const last = events[events.length - 1];
    expect(last, closed.symbol).to.deep.include({ book: 'main', ts: closed.closed_ts });
    expect(last.position, closed.symbol).to.deep.equal(closed);
  };

  it("settles a long's stop, target and liquidation at their levels, and a short's", async () => {
    /** Levels and the candle's low and high as multiples of the entry; the exit is the level the reason names. */
    const cases: {
      symbol: string;
      side: 'long' | 'short';
      levels?: { sl: number; tp: number };
      range: [number, number];
      reason: string;
    }[] = [
      { symbol: 'LINKUSDT', side: 'long', levels: { sl: 0.95, tp: 1.1 }, range: [0.94, 1.01], reason: 'stop_loss' },
      { symbol: 'DOTUSDT', side: 'long', levels: { sl: 0.95, tp: 1.03 }, range: [0.99, 1.04], reason: 'take_profit' },
      { symbol: 'LTCUSDT', side: 'long', range: [0.85, 1], reason: 'liquidation' },
      { symbol: 'TONUSDT', side: 'short', levels: { sl: 1.05, tp: 0.9 }, range: [0.99, 1.06], reason: 'stop_loss' },
      { symbol: 'SUIUSDT', side: 'short', levels: { sl: 1.05, tp: 0.97 }, range: [0.96, 1.01], reason: 'take_profit' },
      { symbol: 'APTUSDT', side: 'short', range: [1, 1.15], reason: 'liquidation' },
    ];
    const exitOf = (reason: string, p: Position): number =>
      reason === 'stop_loss' ? p.sl! : reason === 'take_profit' ? p.tp! : p.liq_price;
    const opened = await Promise.all(
      cases.map(async (c) => {
        const e = await priceOf(c.symbol);
        const levels = c.levels && { sl: e * c.levels.sl, tp: e * c.levels.tp };
        return { c, e, p: await open({ symbol: c.symbol, side: c.side, ...levels }) };
      }),
    );
    for (const { c, e } of opened) await publish(c.symbol, e * c.range[0], e * c.range[1]);
    for (const { c, p } of opened) {
      const closed = await settled(p.id);
      const exit = exitOf(c.reason, p);
      expect(closed, c.symbol).to.include({ close_reason: c.reason, exit, liquidated: c.reason === 'liquidation' });
      expect(Math.round(closed.pnl_usd! * 100), c.symbol).to.equal(cents(p, exit));
      await expectSettledEvent(closed, ['position.opened', c.reason === 'liquidation' ? 'position.liquidated' : 'position.closed']);
      expect(closed, c.symbol).to.include({ id: p.id, symbol: c.symbol, side: c.side, status: 'closed', qty: p.qty, entry: p.entry });
      // stored once; the views add exit_price
      expect(closed, c.symbol).to.not.have.property('exit_price');
    }
  });

  it('takes the stop when a candle crosses both the stop and the target, and the level the price reaches first between stop and liquidation', async () => {
    const [arb, op, near] = await Promise.all(['ARBUSDT', 'OPUSDT', 'NEARUSDT'].map(priceOf));
    const both = await open({ symbol: 'ARBUSDT', side: 'long', sl: arb * 0.95, tp: arb * 1.05 });
    const stopFirst = await open({ symbol: 'OPUSDT', side: 'long', sl: op * 0.92 });
    const liqFirst = await open({ symbol: 'NEARUSDT', side: 'short', sl: near * 1.12 });
    await publish('ARBUSDT', both.entry * 0.9, both.entry * 1.1);
    await publish('OPUSDT', stopFirst.entry * 0.85, stopFirst.entry);
    await publish('NEARUSDT', liqFirst.entry, liqFirst.entry * 1.15);
    expect(await settled(both.id)).to.include({ close_reason: 'stop_loss', exit: both.sl });
    // a long's stop above its liquidation price is reached first on the way down
    expect(stopFirst.sl!).to.be.above(stopFirst.liq_price);
    expect(await settled(stopFirst.id)).to.include({ close_reason: 'stop_loss', exit: stopFirst.sl, liquidated: false });
    // a short's stop beyond its liquidation price never gets the chance
    expect(liqFirst.sl!).to.be.above(liqFirst.liq_price);
    expect(await settled(liqFirst.id)).to.include({ close_reason: 'liquidation', exit: liqFirst.liq_price, liquidated: true });
  });

  it('ratchets a trailing stop on the minute, never fires it at a level its own candle moved, fires it on the next', async () => {
    const e = await priceOf('ATOMUSDT');
    const p = await open({ symbol: 'ATOMUSDT', side: 'long', trail_pct: 5 });
    expect(p).to.include({ trail_pct: 5, trail_hwm: e });
    // checked at 0.95 e first, the low (0.97 e) holds; the high moves the stop to 0.988 e, above that low
    await publish('ATOMUSDT', e * 0.97, e * 1.04);
    const moved = await waitFor(
      async () => {
        const now = await openPosition(stack.redis, ref, p.id);
        return now && now.trail_hwm !== e ? now : undefined;
      },
      15_000,
      'the ratchet',
    );
    // the candle's high as the venue printed it (to its tick), so within rounding of 1.04 e
    const hwm = moved.trail_hwm as number;
    expect(hwm).to.be.closeTo(e * 1.04, e * 1e-9);
    const stop = trailingStop('long', hwm, 5);
    expect(stop)
      .to.be.above(e * 0.97)
      .and.below(e);
    expect(Number(await stack.redis.zscore(keys.triggerIndex('ATOMUSDT', 'sl', 'long'), `${ref.accountId}|main|${p.id}`))).to.equal(stop);
    const ratchet = await positionEvents(stack.redis, ref.accountId, p.id);
    expect(ratchet.map((x) => x.event)).to.deep.equal(['position.opened', 'position.updated']);
    // the ratchet's event carries the position as it stands: the new mark, the levels unchanged
    expect(ratchet[1]).to.deep.include({ book: 'main' });
    expect(ratchet[1].position).to.deep.equal(moved);
    expect(ratchet[1].position).to.include({
      id: p.id,
      symbol: 'ATOMUSDT',
      side: 'long',
      status: 'open',
      trail_pct: 5,
      trail_hwm: hwm,
      sl: null,
      tp: null,
      qty: p.qty,
    });
    await publish('ATOMUSDT', e * 0.98, e);
    const closed = await settled(p.id);
    expect(closed).to.include({ close_reason: 'trailing_stop', exit: stop, trail_hwm: hwm });
    await expectSettledEvent(closed, ['position.opened', 'position.updated', 'position.closed']);
  });

  it('liquidates between candles from the live price (the live sweep)', async () => {
    const e = await priceOf('FILUSDT');
    const p = await open({ symbol: 'FILUSDT', side: 'long' });
    // a minute just begun (the sim closes the current one now): it closes a minute of wall clock after this at the
    // earliest, too late for the candle sweep to be the one that settles
    const candleEnd = Date.now() + MINUTE;
    await closeCurrentMinute(stack.sim);
    await simControl(stack.sim, 'price', { symbol: 'FILUSDT', price: e * 0.9 });
    const closed = await settled(p.id);
    expect(closed).to.include({ close_reason: 'liquidation', liquidated: true, exit: p.liq_price });
    expect(closed.closed_ts!).to.be.below(candleEnd);
    await expectSettledEvent(closed, ['position.opened', 'position.liquidated']);
    expect(closed.pnl_usd).to.equal(cents(p, p.liq_price) / 100);
  });

  it('ratchets a trailing stop on a positions read (position.updated), once per new best price', async () => {
    const e = await priceOf('BCHUSDT');
    const p = await open({ symbol: 'BCHUSDT', side: 'long', trail_pct: 5 });
    // no minute sweep while the reads run: the candle holding the new price would ratchet the stop too,
    // and a read that found the position changed under it shows it as read
    const releaseSweeps = await holdSweeps();
    try {
      await simControl(stack.sim, 'price', { symbol: 'BCHUSDT', price: e * 1.03 });
      await waitFor(async () => (await market.getQuote('BCHUSDT'))?.price === e * 1.03, 20_000, "the new price as the venues' median");
      const read = await botCall<{ positions: Position[] }>(stack.api.url, trader, 'GET', '/positions');
      expect(read.body.positions.find((x) => x.id === p.id)).to.include({ trail_hwm: e * 1.03, mark_price: e * 1.03 });
      await botCall(stack.api.url, trader, 'GET', '/positions');
      const events = await positionEvents(stack.redis, ref.accountId, p.id);
      expect(events.map((x) => x.event)).to.deep.equal(['position.opened', 'position.updated']);
      expect(events[1].position).to.deep.equal(await openPosition(stack.redis, ref, p.id));
      expect(events[1].position).to.include({ id: p.id, symbol: 'BCHUSDT', status: 'open', trail_pct: 5, trail_hwm: e * 1.03 });
      const member = `${ref.accountId}|main|${p.id}`;
      expect(Number(await stack.redis.zscore(keys.triggerIndex('BCHUSDT', 'sl', 'long'), member))).to.equal(
        trailingStop('long', e * 1.03, 5),
      );
      expect(Number(await stack.redis.zscore(keys.triggerIndex('BCHUSDT', 'trail', 'long'), member))).to.equal(e * 1.03);
    } finally {
      await releaseSweeps();
    }
  });
});
