// @three-masters: order scripts over several keys, its own cluster
import { expect } from 'chai';
import { subscriberClient, type RedisClient } from '../../shared/core/redis-client.js';
import { expiresAt, MINUTE_MS, watermarkAfter } from '../../shared/engine/order-rules.js';
import { OrderExpiry } from '../../shared/paper/orders/order-expiry.js';
import { OrderHints } from '../../shared/paper/orders/order-hints.js';
import { STORING_MS } from '../../shared/paper/timed-ids.js';
import { orderScripts } from '../../shared/paper/orders/lua/order-scripts.js';
import { closeArgs, closeKeys, OrderStore } from '../../shared/paper/orders/order-store.js';
import { fillResult, OrderSweep } from '../../shared/paper/orders/order-sweep.js';
import {
  newOrderId,
  ORDER_TOMBSTONE_MS,
  ORDER_TOMBSTONES_KEPT,
  ORDERS_DONE_KEPT,
  type Order,
} from '../../shared/paper/orders/order-types.js';
import { PositionStore } from '../../shared/paper/positions/position-store.js';
import type { BookRef } from '../../shared/paper/positions/position-types.js';
import type { SweepJob } from '../../shared/queues/job-types.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { startClusterRedis, type ClusterRedis } from '../helpers/cluster-redis.js';
import { waitFor } from '../helpers/market-wait.js';
import { expectOneWinner } from '../helpers/race.js';
import { freshRedis, snapshotRedis, testRedisUrl } from '../helpers/redis.js';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 30);
const W0 = watermarkAfter(T0);

let seq = 0;
function newOrder(ref: BookRef, over: Partial<Order> = {}): Order {
  return {
    order_id: `lotest${++seq}`,
    type: 'limit',
    account: ref.book,
    symbol: 'ETHUSDT',
    asset_class: 'crypto',
    side: 'long',
    limit_price: 95,
    margin_usd: 50,
    leverage: 5,
    sl: 90,
    tp: 120,
    trail_pct: null,
    fee_venue: null,
    mmr_pct: null,
    client_order_id: null,
    status: 'open',
    placed_ts: T0,
    expires_ts: expiresAt(T0),
    fills_from_ts: W0,
    ...over,
  };
}

const candle = (over: Partial<SweepJob> = {}): SweepJob => ({
  symbol: 'ETHUSDT',
  minute: W0,
  open: 100,
  high: 101,
  low: 94,
  close: 96,
  ...over,
});

/** Each order script raced from two connections (two "pods"): the order's own state decides, once. */
describe('order scripts under races (Lua, real Redis)', () => {
  let redis: RedisClient;
  let conns: RedisClient[];
  let pods: [OrderStore, OrderStore];
  let openCap = 50;
  const clock = { now: () => T0 + 5 * MINUTE_MS };
  const sweeps = () => pods.map((store) => new OrderSweep({ store, clock, openCap: async () => openCap }));
  const ref: BookRef = { accountId: 'acct1', book: 'main' };

  beforeEach(async () => {
    redis = await freshRedis();
    conns = [createRedis(testRedisUrl()), createRedis(testRedisUrl())];
    pods = [new OrderStore(conns[0]), new OrderStore(conns[1])];
    openCap = 50;
  });
  afterEach(async () => {
    await closeRedis(redis, ...conns);
  });

  /** The account's outbox entries but its placements' order.placed (the place test checks those). */
  const entries = async (accountId = ref.accountId) =>
    (await redis.xrange(keys.accountOutbox(accountId), '-', '+')).filter(([, f]) => f[1] !== 'order.placed');
  const events = async (accountId = ref.accountId) => (await entries(accountId)).map(([, f]) => f[1]);
  const place = async (order: Order, cap = 20) => {
    const outcome = await pods[0].place(ref, order, cap);
    expect(outcome.kind).to.equal('placed');
    return (await pods[0].get(ref, order.order_id))!;
  };

  it('place: one client_order_id places one order however many pods race; the others get it back as idempotent', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => pods[i % 2].place(ref, newOrder(ref, { client_order_id: 'c-1' }), 20)),
    );
    expectOneWinner(results, 'placed', (r) => (r.kind === 'cap' ? '' : r.stored?.order.order_id));
    expect(await redis.zcard(keys.bookOrders(ref.accountId, ref.book))).to.equal(1);
    expect(await redis.ttl(keys.bookIdempotency(ref.accountId, ref.book, 'order', 'c-1'))).to.be.within(7 * 86_400 - 5, 7 * 86_400);
    // one order.placed, for the order placed (the channel's event: the spec names none, webhooks never carry it)
    const written = await redis.xrange(keys.accountOutbox(ref.accountId), '-', '+');
    const [winner] = results.flatMap((r) => (r.kind === 'placed' ? [r.stored] : []));
    expect(written.map(([, f]) => f)).to.deep.equal([
      ['event', 'order.placed', 'book', 'main', 'ts', String(winner.order.placed_ts), 'order', winner.raw],
    ]);
  });

  it('place: the cap of resting orders holds under a race, and a refusal writes nothing', async () => {
    const results = await Promise.all(Array.from({ length: 26 }, (_, i) => pods[i % 2].place(ref, newOrder(ref), 20)));
    expect(results.filter((r) => r.kind === 'placed')).to.have.length(20);
    expect(results.filter((r) => r.kind === 'cap')).to.have.length(6);
    const before = await snapshotRedis(redis);
    expect(await pods[0].place(ref, newOrder(ref), 20)).to.deep.equal({ kind: 'cap', resting: 20 });
    expect(await snapshotRedis(redis)).to.deep.equal(before);
    expect(await redis.zcard(keys.orderIndex('ETHUSDT', 'down'))).to.equal(20);
    expect(await redis.zcard(keys.orderExpiry())).to.equal(20);
  });

  it('fill: two pods sweeping the same candle fill once: one position, indexed like a market open; the order carries its id', async () => {
    const read = await place(newOrder(ref, { trail_pct: 2 }));
    const results = await Promise.all(sweeps().map((s) => s.fillCandle(candle())));
    expect(results.map((r) => r.filled).sort()).to.deep.equal([0, 1]);
    const positions = await new PositionStore(redis).listOpen(ref);
    expect(positions).to.have.length(1);
    const p = positions[0].position;
    expect(p).to.include({
      entry: 95,
      opened_ts: W0,
      status: 'open',
      sl: 90,
      tp: 120,
      trail_pct: 2,
      trail_hwm: 95,
      margin: 50,
      leverage: 5,
    });
    const order = (await pods[0].get(ref, read.order.order_id))!.order;
    expect(order).to.include({ status: 'filled', position_id: p.id, filled_ts: W0 });
    const member = `${ref.accountId}|${ref.book}|${p.id}`;
    expect(Number(await redis.zscore(keys.triggerIndex('ETHUSDT', 'liq', 'long'), member))).to.equal(p.liq_price);
    expect(await redis.zscore(keys.triggerIndex('ETHUSDT', 'tp', 'long'), member)).to.equal('120');
    expect(Number(await redis.zscore(keys.triggerIndex('ETHUSDT', 'sl', 'long'), member))).to.be.closeTo(95 * 0.98, 1e-9); // the trailing stop is the tighter
    expect(await redis.zscore(keys.triggerIndex('ETHUSDT', 'trail', 'long'), member)).to.equal('95');
    expect(await redis.sismember(keys.paperBooks(ref.accountId), 'main')).to.equal(1);
    expect(await events()).to.deep.equal(['order.filled', 'position.opened']);
    const [, fields] = (await entries())[0];
    expect(JSON.parse(fields[fields.indexOf('order') + 1])).to.include({ status: 'filled', position_id: p.id });
    expect(JSON.parse(fields[fields.indexOf('position') + 1])).to.include({ id: p.id });
    expect(await redis.zcard(keys.orderIndex('ETHUSDT', 'down'))).to.equal(0);
    expect(await redis.zcard(keys.orderExpiry())).to.equal(0);
  });

  it('fill racing a cancel settles once: either a position and order.filled, or order.cancelled and nothing else', async () => {
    for (let i = 0; i < 12; i++) {
      const r: BookRef = { accountId: `acct-fc-${i}`, book: 'main' };
      const order = newOrder(r);
      expect((await pods[0].place(r, order, 20)).kind).to.equal('placed');
      const read = (await pods[0].get(r, order.order_id))!;
      const now = clock.now();
      const [fill, cancel] = await Promise.all([
        new OrderSweep({ store: pods[0], clock, openCap: async () => 50 }).fillCandle(candle()),
        pods[1].cancel(r, read, { ...read.order, status: 'cancelled', done_ts: now }, now),
      ]);
      const stored = (await pods[0].get(r, order.order_id))!.order;
      const open = await redis.hlen(keys.bookOpen(r.accountId, r.book));
      if (cancel === 'applied') {
        expect(fill.filled).to.equal(0);
        expect(stored.status).to.equal('cancelled');
        expect(open).to.equal(0);
        expect(await events(r.accountId)).to.deep.equal(['order.cancelled']);
      } else {
        expect(fill.filled).to.equal(1);
        expect(stored.status).to.equal('filled');
        expect(open).to.equal(1);
        expect(await events(r.accountId)).to.deep.equal(['order.filled', 'position.opened']);
      }
    }
  });

  it('fills of a long and a short of one symbol racing from two pods: one opens, the other is rejected by one-way mode, one event each', async () => {
    for (let i = 0; i < 12; i++) {
      const r: BookRef = { accountId: `acct-ow-${i}`, book: 'main' };
      const long = newOrder(r);
      const short = newOrder(r, { type: 'stop', side: 'short', limit_price: 94.5, sl: 100, tp: 80 });
      for (const o of [long, short]) expect((await pods[0].place(r, o, 20)).kind).to.equal('placed');
      const now = clock.now();
      const [a, b] = await Promise.all(
        [long, short].map(async (o, pod) => {
          const read = (await pods[pod].get(r, o.order_id))!;
          return pods[pod].fill({ ref: r, read, ...fillResult(r, read.order, W0, now, `bp-ow-${i}-${o.side}`, 50), openCap: 50, now });
        }),
      );
      const outcomes = [a, b];
      const winner = outcomes.findIndex((o) => o.kind === 'filled');
      expect(winner, JSON.stringify(outcomes)).to.be.oneOf([0, 1]);
      const side = winner === 0 ? 'long' : 'short';
      expect(outcomes[1 - winner]).to.deep.equal({ kind: 'rejected', opposite: `bp-ow-${i}-${side}` });
      const open = await redis.hgetall(keys.bookOpen(r.accountId, r.book));
      expect(Object.keys(open)).to.deep.equal([`bp-ow-${i}-${side}`]);
      const loser = (await pods[0].get(r, (winner === 0 ? short : long).order_id))!.order;
      expect(loser.status).to.equal('rejected');
      expect(loser.note).to.match(new RegExp(`open ${side} on ETH; one-way mode`));
      const evs = await events(r.accountId);
      expect([...evs].sort()).to.deep.equal(['order.cancelled', 'order.filled', 'position.opened']);
    }
  });

  it('fill blocked by the open-position cap: the order is rejected with a note, no position opens, one event', async () => {
    openCap = 0;
    const read = await place(newOrder(ref));
    const result = await sweeps()[0].fillCandle(candle());
    expect(result).to.deep.equal({ filled: 0, blocked: 1 });
    const order = (await pods[0].get(ref, read.order.order_id))!.order;
    expect(order.status).to.equal('rejected');
    expect(order.note).to.match(/cap of 0 open positions/);
    expect(order).to.not.have.property('position_id');
    expect(await redis.hlen(keys.bookOpen(ref.accountId, ref.book))).to.equal(0);
    expect(await events()).to.deep.equal(['order.cancelled']);
    expect(await redis.zcard(keys.orderIndex('ETHUSDT', 'down'))).to.equal(0);
  });

  it('modify: two changes from the same read apply once; the index holds the winner level; no event', async () => {
    const read = await place(newOrder(ref));
    const one = { ...read.order, limit_price: 93 };
    const two = { ...read.order, limit_price: 92 };
    const results = await Promise.all([pods[0].modify(ref, read, one), pods[1].modify(ref, read, two)]);
    expect([...results].sort()).to.deep.equal(['applied', 'stale']);
    const winner = results[0] === 'applied' ? one : two;
    // never later than the winner's level (the loser's widening may land after the winner's alignment: an early entry)
    const member = `${ref.accountId}|main|${read.order.order_id}`;
    expect(Number(await redis.zscore(keys.orderIndex('ETHUSDT', 'down'), member))).to.be.within(winner.limit_price, 93);
    expect((await pods[0].get(ref, read.order.order_id))!.order.limit_price).to.equal(winner.limit_price);
    expect(await events()).to.deep.equal([]);
    // a candle the entry offers but the level does not reach sets it to the level
    expect(await sweeps()[0].fillCandle(candle({ low: 92.5, minute: W0 + 2 * MINUTE_MS }))).to.deep.equal({
      filled: winner.limit_price === 93 ? 1 : 0,
      blocked: 0,
    });
    if (winner.limit_price === 92) expect(await redis.zscore(keys.orderIndex('ETHUSDT', 'down'), member)).to.equal('92');
  });

  it('a fill that read the order before a modify does not fill the old terms: it judges the new ones (watermark restarted)', async () => {
    const read = await place(newOrder(ref));
    const modified = { ...read.order, limit_price: 96, fills_from_ts: W0 + 2 * MINUTE_MS };
    expect(await pods[1].modify(ref, read, modified)).to.equal('applied');
    // the candle at W0 reached the old and the new level, but it opened before the new watermark
    expect(
      await pods[0].fill({ ref, read, ...fillResult(ref, read.order, W0, clock.now(), 'bpx', 50), openCap: 50, now: clock.now() }),
    ).to.deep.equal({ kind: 'stale' });
    expect(await sweeps()[0].fillCandle(candle({ low: 90 }))).to.deep.equal({ filled: 0, blocked: 0 });
    expect(await sweeps()[0].fillCandle(candle({ minute: W0 + 2 * MINUTE_MS, low: 95.5 }))).to.deep.equal({ filled: 1, blocked: 0 });
    const p = (await new PositionStore(redis).listOpen(ref))[0].position;
    expect(p).to.include({ entry: 96, opened_ts: W0 + 2 * MINUTE_MS });
  });

  it('expire racing a cancel settles once, with one event', async () => {
    const read = await place(newOrder(ref));
    const later = expiresAt(T0) + 1;
    const expiry = new OrderExpiry(pods[0], { now: () => later });
    const [expired, cancel] = await Promise.all([
      expiry.expireDue(),
      pods[1].cancel(ref, read, { ...read.order, status: 'cancelled', done_ts: later }, later),
    ]);
    const stored = (await pods[0].get(ref, read.order.order_id))!.order;
    expect(expired.expired + (cancel === 'applied' ? 1 : 0)).to.equal(1);
    expect(stored.status).to.equal(cancel === 'applied' ? 'cancelled' : 'expired');
    expect(await events()).to.have.length(1);
    expect(await redis.zcard(keys.orderExpiry())).to.equal(0);
  });

  it('expiry: only orders whose 30 days are up; two expiry jobs at once expire each order once', async () => {
    const due = await place(newOrder(ref));
    const young = await place(newOrder(ref, { placed_ts: T0 + 86_400_000, expires_ts: expiresAt(T0 + 86_400_000) }));
    const at = { now: () => expiresAt(T0) };
    const results = await Promise.all(pods.map((store) => new OrderExpiry(store, at).expireDue()));
    expect(results.map((r) => r.expired).sort()).to.deep.equal([0, 1]);
    expect((await pods[0].get(ref, due.order.order_id))!.order).to.include({ status: 'expired', done_ts: expiresAt(T0) });
    expect((await pods[0].get(ref, young.order.order_id))!.order.status).to.equal('open');
    expect(await events()).to.deep.equal(['order.expired']);
    const [, fields] = (await entries())[0];
    const raw = (await pods[0].get(ref, due.order.order_id))!.raw;
    expect(fields).to.deep.equal(['event', 'order.expired', 'book', 'main', 'ts', String(expiresAt(T0)), 'order', raw]);
  });

  it('close: a status other than cancelled or expired is refused by name; nothing is written or published', async () => {
    const read = await place(newOrder(ref));
    const other: BookRef = { accountId: 'acct-close-other', book: 'main' };
    const control = newOrder(other);
    expect((await pods[0].place(other, control, 20)).kind).to.equal('placed');
    const controlRead = (await pods[0].get(other, control.order_id))!;
    const sub = subscriberClient(redis);
    const nudges: string[] = [];
    await sub.subscribe('pd:outbox');
    sub.on('message', (_channel: string, outbox: string) => nudges.push(outbox));
    try {
      const before = await snapshotRedis(redis);
      const now = clock.now();
      const args = closeArgs(ref, read, { ...read.order, status: 'filled', done_ts: now }, now);
      for (const status of ['filled', 'rejected', 'open', '', 'CANCELLED']) {
        expect(await orderScripts.runStatus(redis, 'order-close', { keys: closeKeys(ref), args: [...args, status] }), status).to.deep.equal(
          [-3, 'unknown_status'],
        );
      }
      expect(await snapshotRedis(redis)).to.deep.equal(before);
      expect(await events()).to.deep.equal([]); // the snapshot shows a stream only as its type
      // a close of another account publishes after any nudge a refusal would have sent (one connection delivers in order)
      expect(await pods[1].cancel(other, controlRead, { ...control, status: 'cancelled', done_ts: now }, now)).to.equal('applied');
      await waitFor(() => nudges.length > 0, 2_000, 'the nudge of the control close');
      expect(nudges).to.deep.equal([keys.accountOutbox(other.accountId)]);
      // the refused order is still resting, and closes normally
      const cancelled = { ...read.order, status: 'cancelled' as const, done_ts: now };
      expect(await pods[0].cancel(ref, read, cancelled, now)).to.equal('applied');
      expect((await entries()).map(([, f]) => f)).to.deep.equal([
        ['event', 'order.cancelled', 'book', 'main', 'ts', String(now), 'order', JSON.stringify(cancelled)],
      ]);
    } finally {
      await closeRedis(sub);
    }
  });

  it('reset cancels the resting orders in the same step (one order.cancelled each); their leftover hints are dropped when next met', async () => {
    const a = await place(newOrder(ref));
    const b = await place(newOrder(ref, { type: 'stop', limit_price: 105, sl: 100, tp: 130 }));
    const filled = await place(newOrder(ref, { symbol: 'BTCUSDT', limit_price: 60000, sl: null, tp: null }));
    await sweeps()[0].fillCandle({ symbol: 'BTCUSDT', minute: W0, open: 61000, high: 61000, low: 59000, close: 60500 });
    const positions = new PositionStore(redis);
    const open = (await positions.listOpen(ref))[0];
    await redis.hdel(keys.bookOpen(ref.accountId, ref.book), open.position.id); // no open position may block the reset
    const outcome = await positions.reset(ref, T0 + 10 * MINUTE_MS, 10_000);
    expect(outcome).to.deep.equal({ kind: 'reset', archived: 0, cancelled: 2 });
    for (const id of [a.order.order_id, b.order.order_id]) {
      const o = (await pods[0].get(ref, id))!.order;
      expect(o).to.include({
        status: 'cancelled',
        note: 'book reset',
        done_ts: T0 + 10 * MINUTE_MS,
        limit_price: id === a.order.order_id ? 95 : 105,
      });
      expect(o.placed_ts).to.equal(T0);
    }
    expect((await pods[0].get(ref, filled.order.order_id))!.order.status).to.equal('filled');
    expect(await events()).to.deep.equal(['order.filled', 'position.opened', 'order.cancelled', 'order.cancelled', 'book.reset']);
    expect(await redis.zcard(keys.orderIndex('ETHUSDT', 'down'))).to.equal(1);
    expect(await sweeps()[0].fillCandle(candle({ low: 50, high: 200 }))).to.deep.equal({ filled: 0, blocked: 0 });
    expect(await redis.zcard(keys.orderIndex('ETHUSDT', 'down'))).to.equal(0);
    expect(await redis.zcard(keys.orderIndex('ETHUSDT', 'up'))).to.equal(0);
    expect((await new OrderExpiry(pods[0], { now: () => expiresAt(T0) }).expireDue()).expired).to.equal(0);
    expect(await redis.zcard(keys.orderExpiry())).to.equal(0);
  });

  it('keeps the last done orders of a book whole; older ones leave its order data', async () => {
    for (let i = 0; i < ORDERS_DONE_KEPT + 3; i++) {
      const read = await place(newOrder(ref), 1000);
      expect(await pods[0].cancel(ref, read, { ...read.order, status: 'cancelled', done_ts: T0 + i }, T0 + i)).to.equal('applied');
    }
    expect(await redis.hlen(keys.bookOrderData(ref.accountId, ref.book))).to.equal(ORDERS_DONE_KEPT);
    expect(await redis.zcard(keys.bookOrdersDone(ref.accountId, ref.book))).to.equal(ORDERS_DONE_KEPT);
    const recent = await pods[0].listRecent(ref, 20);
    expect(recent.map((o) => o.done_ts)).to.deep.equal(Array.from({ length: 20 }, (_, i) => T0 + ORDERS_DONE_KEPT + 2 - i));
  });

  it('leaves a tombstone (the final status) of each forgotten order; drops tombstones past their 30 days and the oldest beyond the cap', async () => {
    const gone = keys.bookOrdersGone(ref.accountId, ref.book);
    const statuses = keys.bookOrdersGoneStatus(ref.accountId, ref.book);
    /** Cancels a new order done at `at`, through order-close.lua with a tombstone cap of `cap`. */
    const cancelAt = async (at: number, cap = ORDER_TOMBSTONES_KEPT) => {
      const read = await place(newOrder(ref), 1000);
      const args = closeArgs(ref, read, { ...read.order, status: 'cancelled', done_ts: at }, at);
      args[args.length - 1] = cap;
      expect(await orderScripts.runStatus(redis, 'order-close', { keys: closeKeys(ref), args: [...args, 'cancelled'] })).to.have.property(
        '0',
        1,
      );
    };
    for (let i = 0; i < ORDERS_DONE_KEPT + 3; i++) await cancelAt(T0 + i);
    const firstIds = await redis.zrange(gone, '0', '-1');
    expect(await redis.zrange(gone, '0', '-1', 'WITHSCORES')).to.deep.equal(firstIds.flatMap((id, i) => [id, String(T0 + i)]));
    expect(await redis.hmget(statuses, ...firstIds)).to.deep.equal(['cancelled', 'cancelled', 'cancelled']);
    expect(await pods[0].tombstone(ref, firstIds[0])).to.equal('cancelled');
    expect(await pods[0].get(ref, firstIds[0])).to.equal(null);

    // 30 days after the second one was done: the first two are past their time
    await cancelAt(T0 + 1 + ORDER_TOMBSTONE_MS);
    expect(await redis.zcard(gone)).to.equal(2);
    expect(await redis.hlen(statuses)).to.equal(2);
    expect(await pods[0].tombstone(ref, firstIds[0])).to.equal(null);
    expect(await pods[0].tombstone(ref, firstIds[2])).to.equal('cancelled');

    // a cap of 2: the oldest goes, whatever its age
    await cancelAt(T0 + 2 + ORDER_TOMBSTONE_MS, 2);
    expect(await redis.zcard(gone)).to.equal(2);
    expect(await redis.hlen(statuses)).to.equal(2);
    expect(await pods[0].tombstone(ref, firstIds[2])).to.equal(null);
  });

  describe("index hints written around the scripts (every script key is the account's)", () => {
    const down = () => keys.orderIndex('ETHUSDT', 'down');
    const up = () => keys.orderIndex('ETHUSDT', 'up');
    const member = (o: Order, r: BookRef = ref) => `${r.accountId}|${r.book}|${o.order_id}`;
    const expiry = (o: Order, reach: 'down' | 'up' = 'down', r: BookRef = ref) => `${member(o, r)}|${o.symbol}|${reach}`;
    const entries = async (o: Order, reach: 'down' | 'up' = 'down') => [
      await redis.zscore(keys.orderIndex(o.symbol, reach), member(o)),
      await redis.zscore(keys.orderExpiry(), expiry(o, reach)),
    ];
    const triggers = async (positionId: string) =>
      Promise.all(
        (['liq', 'sl', 'tp', 'trail'] as const).map((kind) =>
          redis.zscore(keys.triggerIndex('ETHUSDT', kind, 'long'), `${ref.accountId}|${ref.book}|${positionId}`),
        ),
      );

    it('place: a placed order is indexed at its level and expiry; a refused one (cap) leaves no entry', async () => {
      const kept = newOrder(ref);
      await place(kept, 1);
      expect(await entries(kept)).to.deep.equal(['95', String(kept.expires_ts)]);
      const refused = newOrder(ref, { limit_price: 94 });
      expect(await pods[0].place(ref, refused, 1)).to.deep.equal({ kind: 'cap', resting: 1 });
      expect(await entries(refused)).to.deep.equal([null, null]);
      expect(await redis.zcard(down())).to.equal(1);
      expect(await redis.zcard(keys.orderExpiry())).to.equal(1);
    });

    it('place: a reused client_order_id leaves no entry for the new order id; the same order sent again keeps its entries', async () => {
      const first = newOrder(ref, { client_order_id: 'c-hint' });
      await place(first);
      const again = newOrder(ref, { client_order_id: 'c-hint', limit_price: 94 });
      const outcome = await pods[1].place(ref, again, 20);
      expect(outcome.kind === 'idempotent' && outcome.stored?.order.order_id).to.equal(first.order_id);
      expect(await entries(again)).to.deep.equal([null, null]);
      expect(await entries(first)).to.deep.equal(['95', String(first.expires_ts)]);
      const same = await pods[1].place(ref, first, 20);
      expect(same.kind === 'idempotent' && same.stored?.order.order_id).to.equal(first.order_id);
      expect(await entries(first)).to.deep.equal(['95', String(first.expires_ts)]);
      // done and no longer kept: a new id is refused its entries too
      const read = (await pods[0].get(ref, first.order_id))!;
      expect(await pods[0].cancel(ref, read, { ...read.order, status: 'cancelled', done_ts: T0 }, T0)).to.equal('applied');
      await redis.hdel(keys.bookOrderData(ref.accountId, ref.book), first.order_id);
      const late = newOrder(ref, { client_order_id: 'c-hint' });
      expect(await pods[0].place(ref, late, 20)).to.deep.equal({ kind: 'idempotent', stored: null });
      expect(await entries(late)).to.deep.equal([null, null]);
      expect(await redis.zcard(down())).to.equal(0);
      expect(await redis.zcard(keys.orderExpiry())).to.equal(0);
    });

    it('a cancelled, an expired and a filled order each leave no order index or expiry entry', async () => {
      const cancelled = await place(newOrder(ref));
      const expired = await place(newOrder(ref, { type: 'stop', limit_price: 105, sl: 100, tp: 130 }));
      const filled = await place(newOrder(ref, { limit_price: 90, sl: 85, tp: 110, placed_ts: T0 + 1 }));
      const now = clock.now();
      expect(await pods[0].cancel(ref, cancelled, { ...cancelled.order, status: 'cancelled', done_ts: now }, now)).to.equal('applied');
      expect(await entries(cancelled.order)).to.deep.equal([null, null]);
      expect(await pods[0].expire(ref, expired, { ...expired.order, status: 'expired', done_ts: now }, now)).to.equal('applied');
      expect(await entries(expired.order, 'up')).to.deep.equal([null, null]);
      expect(await sweeps()[0].fillCandle(candle({ low: 89 }))).to.deep.equal({ filled: 1, blocked: 0 });
      expect(await entries(filled.order)).to.deep.equal([null, null]);
      expect((await pods[0].get(ref, filled.order.order_id))!.order.status).to.equal('filled');
      for (const key of [down(), up(), keys.orderExpiry()]) expect(await redis.zcard(key), key).to.equal(0);
      // a close or a modify that finds the order gone takes out entries left behind (a crash after the script)
      await redis.zadd(down(), 95, member(cancelled.order));
      await redis.zadd(keys.orderExpiry(), cancelled.order.expires_ts, expiry(cancelled.order));
      expect(await pods[1].cancel(ref, cancelled, { ...cancelled.order, status: 'cancelled', done_ts: now }, now)).to.equal('gone');
      expect(await entries(cancelled.order)).to.deep.equal([null, null]);
      expect(await pods[1].modify(ref, cancelled, { ...cancelled.order, limit_price: 93 })).to.equal('gone');
      expect(await entries(cancelled.order)).to.deep.equal([null, null]);
    });

    it('fill: a position that did not open (open cap, stale read) leaves no trigger entry', async () => {
      const read = await place(newOrder(ref, { trail_pct: 2 }));
      const now = clock.now();
      const modified = { ...read.order, sl: 91 };
      expect(await pods[1].modify(ref, read, modified)).to.equal('applied');
      expect(await pods[0].fill({ ref, read, ...fillResult(ref, read.order, W0, now, 'bp-stale', 50), openCap: 50, now })).to.deep.equal({
        kind: 'stale',
      });
      expect(await triggers('bp-stale')).to.deep.equal([null, null, null, null]);
      expect(await entries(read.order)).to.deep.equal(['95', String(read.order.expires_ts)]);
      const fresh = (await pods[0].get(ref, read.order.order_id))!;
      expect(
        await pods[0].fill({ ref, read: fresh, ...fillResult(ref, fresh.order, W0, now, 'bp-cap', 0), openCap: 0, now }),
      ).to.deep.equal({ kind: 'rejected', open: 0 });
      expect(await triggers('bp-cap')).to.deep.equal([null, null, null, null]);
      expect(await entries(read.order)).to.deep.equal([null, null]);
      for (const kind of ['liq', 'sl', 'tp', 'trail'] as const)
        expect(await redis.zcard(keys.triggerIndex('ETHUSDT', kind, 'long')), kind).to.equal(0);
    });

    it('modify: a level moved later or sooner ends with its exact score; the expiry entry stays', async () => {
      const read = await place(newOrder(ref));
      const later = { ...read.order, limit_price: 90, sl: 85 };
      expect(await pods[0].modify(ref, read, later)).to.equal('applied');
      expect(await entries(later)).to.deep.equal(['90', String(read.order.expires_ts)]);
      const sooner = { ...later, limit_price: 96.5 };
      expect(await pods[0].modify(ref, (await pods[0].get(ref, read.order.order_id))!, sooner)).to.equal('applied');
      expect(await entries(sooner)).to.deep.equal(['96.5', String(read.order.expires_ts)]);
      // an up order: lower is sooner
      const stop = await place(newOrder(ref, { type: 'stop', limit_price: 105, sl: 100, tp: 130 }));
      const looser = { ...stop.order, limit_price: 110 };
      expect(await pods[0].modify(ref, stop, looser)).to.equal('applied');
      expect(await entries(looser, 'up')).to.deep.equal(['110', String(stop.order.expires_ts)]);
    });

    it('align: an entry set from an old read is widened to the order as it stands; one of an order no longer resting comes out', async () => {
      const read = await place(newOrder(ref));
      const now = (await pods[0].get(ref, read.order.order_id))!;
      const moved = { ...now.order, limit_price: 96 };
      expect(await pods[0].modify(ref, now, moved)).to.equal('applied');
      // a writer that read the order before the modify aligns to its old level: the read-back finds the change
      await new OrderHints(redis).align([{ ref, order: read.order, raw: read.raw }]);
      expect(await redis.zscore(down(), member(read.order))).to.equal('96');
      const gone = await place(newOrder(ref));
      const t = clock.now();
      expect(await pods[0].cancel(ref, gone, { ...gone.order, status: 'cancelled', done_ts: t }, t)).to.equal('applied');
      await new OrderHints(redis).align([{ ref, order: gone.order, raw: gone.raw }]);
      expect(await entries(gone.order)).to.deep.equal([null, null]);
    });

    it('a crash between a widening and its script leaves entries the sweep steps over without filling anything', async () => {
      const hints = new OrderHints(redis);
      const now = clock.now();
      // places that crashed before their scripts: one just now (it may still be on its way), one long ago
      const young = newOrder(ref, { order_id: newOrderId(now - 1000), limit_price: 97 });
      const old = newOrder(ref, { order_id: newOrderId(now - STORING_MS - 1000), limit_price: 97 });
      await hints.widen(
        [
          { ref, order: young },
          { ref, order: old },
        ],
        true,
      );
      // a modify that crashed before its script: the entry of a resting order at 95 moved early, to 97
      const resting = await place(newOrder(ref));
      await hints.widen([{ ref, order: { ...resting.order, limit_price: 97 } }], false);
      expect(await redis.zscore(down(), member(resting.order))).to.equal('97');
      // the candle reaches the entries, not the resting level
      expect(await sweeps()[0].fillCandle(candle({ low: 96 }))).to.deep.equal({ filled: 0, blocked: 0 });
      expect(await redis.hlen(keys.bookOpen(ref.accountId, ref.book))).to.equal(0);
      expect(await events()).to.deep.equal([]);
      expect(await redis.zscore(down(), member(young))).to.equal('97');
      expect(await redis.zscore(down(), member(old))).to.equal(null);
      expect(await redis.zscore(down(), member(resting.order))).to.equal('95');
      expect((await pods[0].get(ref, resting.order.order_id))!.order.status).to.equal('open');
      // once its time is up, the young leftover drops too; the expiry job drops the expiry entries of orders not found
      const sweepLater = new OrderSweep({ store: pods[0], clock: { now: () => now + STORING_MS }, openCap: async () => 50 });
      expect(await sweepLater.fillCandle(candle({ low: 96 }))).to.deep.equal({ filled: 0, blocked: 0 });
      expect(await redis.zrange(down(), '0', '-1')).to.deep.equal([member(resting.order)]);
      expect((await new OrderExpiry(pods[0], { now: () => expiresAt(T0) }).expireDue()).expired).to.equal(1);
      expect(await redis.zcard(keys.orderExpiry())).to.equal(0);
      expect(await redis.zcard(down())).to.equal(0);
    });
  });
});

/** Under Redis Cluster every order script must stay in its account's slot (a script spanning two slots fails with CROSSSLOT). */
describe('order scripts under Redis Cluster (one node owning every slot)', () => {
  let cluster: ClusterRedis;
  let redis: RedisClient;
  const ref: BookRef = { accountId: 'acct-cluster', book: 'main' };
  const clock = { now: () => T0 + 5 * MINUTE_MS };

  before(async function () {
    this.timeout(60_000);
    cluster = await startClusterRedis();
    redis = createRedis(cluster.url);
  });
  after(async () => {
    if (redis) await closeRedis(redis);
    await cluster?.stop();
  });

  it('place, modify, cancel, expire and fill run through OrderStore, the sweep and the expiry job', async () => {
    const store = new OrderStore(redis);
    // a script whose keys span two slots is refused here, as under a real cluster
    let crossSlot: unknown;
    try {
      await redis.eval(
        "return redis.call('GET', KEYS[1])",
        2,
        keys.bookOrders(ref.accountId, ref.book),
        keys.orderIndex('ETHUSDT', 'down'),
      );
    } catch (error) {
      crossSlot = error;
    }
    expect(String(crossSlot)).to.match(/CROSSSLOT/);

    const placed = async (over: Partial<Order>) => {
      const order = newOrder(ref, over);
      expect((await store.place(ref, order, 20)).kind).to.equal('placed');
      return (await store.get(ref, order.order_id))!;
    };
    const cancelled = await placed({ client_order_id: 'c-cluster' });
    const again = await store.place(ref, newOrder(ref, { client_order_id: 'c-cluster' }), 20);
    expect(again.kind === 'idempotent' && again.stored?.order.order_id).to.equal(cancelled.order.order_id);
    expect(await store.place(ref, newOrder(ref), 1)).to.deep.equal({ kind: 'cap', resting: 1 });
    const now = clock.now();
    expect(await store.modify(ref, cancelled, { ...cancelled.order, limit_price: 93, sl: 88 })).to.equal('applied');
    const modified = (await store.get(ref, cancelled.order.order_id))!;
    expect(await store.cancel(ref, modified, { ...modified.order, status: 'cancelled', done_ts: now }, now)).to.equal('applied');
    expect(await store.cancel(ref, modified, { ...modified.order, status: 'cancelled', done_ts: now }, now)).to.equal('gone');

    const expiring = await placed({ type: 'stop', limit_price: 105, sl: 100, tp: 130 });
    expect((await new OrderExpiry(store, { now: () => expiresAt(T0) }).expireDue()).expired).to.equal(1);
    expect((await store.get(ref, expiring.order.order_id))!.order.status).to.equal('expired');

    const filling = await placed({ trail_pct: 2 });
    const stale = { ...filling, raw: `${filling.raw} ` };
    expect(
      await store.fill({ ref, read: stale, ...fillResult(ref, filling.order, W0, now, 'bp-cluster', 50), openCap: 50, now }),
    ).to.deep.equal({ kind: 'stale' });
    const sweep = new OrderSweep({ store, clock, openCap: async () => 50 });
    expect(await sweep.fillCandle(candle({ low: 96 }))).to.deep.equal({ filled: 0, blocked: 0 });
    expect(await sweep.fillCandle(candle())).to.deep.equal({ filled: 1, blocked: 0 });
    const open = await new PositionStore(redis).listOpen(ref);
    expect(open).to.have.length(1);
    expect(await redis.zscore(keys.triggerIndex('ETHUSDT', 'tp', 'long'), `${ref.accountId}|main|${open[0].position.id}`)).to.equal('120');
    const rejected = await placed({ limit_price: 94 });
    const full = new OrderSweep({ store, clock, openCap: async () => 1 });
    expect(await full.fillCandle(candle({ low: 93 }))).to.deep.equal({ filled: 0, blocked: 1 });
    expect((await store.get(ref, rejected.order.order_id))!.order.status).to.equal('rejected');
    const events = (await redis.xrange(keys.accountOutbox(ref.accountId), '-', '+')).map(([, f]) => f[1]);
    // each of the four orders placed wrote its order.placed (the idempotent retry and the refusal wrote none)
    expect(events.filter((e) => e !== 'order.placed')).to.deep.equal([
      'order.cancelled',
      'order.expired',
      'order.filled',
      'position.opened',
      'order.cancelled',
    ]);
    expect(events.filter((e) => e === 'order.placed')).to.have.length(4);
    for (const key of [keys.orderIndex('ETHUSDT', 'down'), keys.orderIndex('ETHUSDT', 'up'), keys.orderExpiry()])
      expect(await redis.zcard(key), key).to.equal(0);
  });
});
