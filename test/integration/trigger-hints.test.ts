// @three-masters: trigger-ranges over two keys, its own cluster
import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import type { Side } from '../../shared/engine/side.js';
import { computeClose } from '../../shared/engine/close-record.js';
import { closeWrite } from '../../shared/paper/positions/close-service.js';
import { defaultPositionId } from '../../shared/paper/positions/position-deps.js';
import { PositionStore } from '../../shared/paper/positions/position-store.js';
import { STORING_MS } from '../../shared/paper/timed-ids.js';
import { triggerMember, type BookRef, type Position } from '../../shared/paper/positions/position-types.js';
import { TRIGGER_KINDS, TriggerHints, triggerLevels, type TriggerKind } from '../../shared/paper/positions/trigger-hints.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { startClusterRedis, type ClusterRedis } from '../helpers/cluster-redis.js';
import { testRedisUrl, useFreshRedis } from '../helpers/redis.js';
import { candle, closedPosition, MINUTE, testSweep, testPosition } from '../helpers/sweep.js';

const A: BookRef = { accountId: 'acct-hints', book: 'main' };
const nextMinute = (): number => Math.ceil((Date.now() + 1) / MINUTE) * MINUTE;

/** The entries of a position in each index of its symbol and side (score, or null). */
async function entries(redis: RedisClient, ref: BookRef, p: Position): Promise<Record<TriggerKind, number | null>> {
  const member = triggerMember(ref, p.id);
  const scores = await Promise.all(TRIGGER_KINDS.map((kind) => redis.zscore(keys.triggerIndex(p.symbol, kind, p.side), member)));
  return Object.fromEntries(TRIGGER_KINDS.map((kind, i) => [kind, scores[i] === null ? null : Number(scores[i])])) as Record<
    TriggerKind,
    number | null
  >;
}

describe('trigger index hints around the account scripts (real Redis)', () => {
  let redis: RedisClient;
  let store: PositionStore;
  let hints: TriggerHints;

  useFreshRedis((fresh) => {
    redis = fresh;
    store = new PositionStore(fresh);
    hints = new TriggerHints(fresh);
  }, 'each');

  it('an open writes one entry per level; a refused open leaves none', async () => {
    const trailing = testPosition(A, { symbol: 'ETHUSDT', side: 'long', entry: 100, sl: 92, tp: 120, trail_pct: 5, trail_hwm: 100 });
    expect((await store.open(A, trailing, 1)).kind).to.equal('opened');
    // the stop in force is the tighter of the stop-loss (92) and the trailing stop (95)
    expect(await entries(redis, A, trailing)).to.deep.equal({ liq: trailing.liq_price, sl: 95, tp: 120, trail: 100 });
    const refused = testPosition(A, { symbol: 'ETHUSDT', side: 'long', entry: 100, sl: 90 });
    expect((await store.open(A, refused, 1)).kind).to.equal('cap');
    expect(await entries(redis, A, refused)).to.deep.equal({ liq: null, sl: null, tp: null, trail: null });
  });

  it('a position with no stop or target: its liquidation entry goes in with the open and out with the close', async () => {
    const bare = testPosition(A, { symbol: 'ETHUSDT', side: 'short', entry: 100, sl: null, tp: null });
    await store.open(A, bare, 10);
    expect(await entries(redis, A, bare)).to.deep.equal({ liq: bare.liq_price, sl: null, tp: null, trail: null });
    const read = (await store.getOpen(A, bare.id))!;
    expect(
      (await store.close(closeWrite(A, read, computeClose(read.position, 99, 100, 0, Date.now(), 'manual'), null, 'position.closed'))).kind,
    ).to.equal('closed');
    expect(await entries(redis, A, bare)).to.deep.equal({ liq: null, sl: null, tp: null, trail: null });
  });

  it('level changes end on the exact new levels, loosened and cleared ones included', async () => {
    const p = testPosition(A, { symbol: 'ETHUSDT', side: 'short', entry: 100, sl: 104, tp: 90 });
    await store.open(A, p, 10);
    const read = (await store.getOpen(A, p.id))!;
    const loosened: Position = { ...read.position, v: 2, sl: 108, tp: null };
    expect(await store.sltp(A, read, loosened, Date.now())).to.equal('updated');
    expect(await entries(redis, A, p)).to.deep.equal({ liq: p.liq_price, sl: 108, tp: null, trail: null });
  });

  it('widen only ever moves an entry toward where the sweep finds it sooner, for every index and side', async () => {
    // [kind, side, a level the sweep reaches later, one it reaches sooner], from the sweep's ranges
    const cases: [TriggerKind, Side, number, number][] = [
      ['sl', 'long', 90, 95],
      ['liq', 'long', 80, 85],
      ['tp', 'long', 130, 120],
      ['trail', 'long', 110, 105],
      ['sl', 'short', 110, 105],
      ['liq', 'short', 120, 115],
      ['tp', 'short', 70, 80],
      ['trail', 'short', 90, 95],
    ];
    for (const [kind, side, later, sooner] of cases) {
      const base = testPosition(A, { symbol: 'SOLUSDT', side, entry: 100, sl: null, tp: null });
      const at = (level: number): Position => {
        if (kind === 'liq') return { ...base, liq_price: level };
        if (kind === 'sl') return { ...base, sl: level };
        if (kind === 'tp') return { ...base, tp: level };
        return { ...base, trail_pct: 50, trail_hwm: level };
      };
      const key = keys.triggerIndex('SOLUSDT', kind, side);
      const member = triggerMember(A, base.id);
      const start = (later + sooner) / 2;
      expect(triggerLevels(at(start))[kind], `${kind} ${side}`).to.equal(start);
      await redis.zadd(key, start, member);
      await hints.widen([{ ref: A, position: at(later) }]);
      expect(Number(await redis.zscore(key, member)), `${kind} ${side} later`).to.equal(start);
      await hints.widen([{ ref: A, position: at(sooner) }]);
      expect(Number(await redis.zscore(key, member)), `${kind} ${side} sooner`).to.equal(sooner);
    }
  });

  it('align reads back: a position changed since it was written is widened to its new levels, a gone one removed', async () => {
    const p = testPosition(A, { symbol: 'ETHUSDT', side: 'long', entry: 100, sl: 90 });
    await store.open(A, p, 10);
    const read = (await store.getOpen(A, p.id))!;
    // another writer has meanwhile stored a tighter stop (95); aligning the old read must not hide it
    const newer: Position = { ...read.position, v: 2, sl: 95 };
    await redis.hset(keys.bookOpen(A.accountId, A.book), p.id, JSON.stringify(newer));
    await hints.align([{ ref: A, ...read }]);
    expect((await entries(redis, A, p)).sl).to.equal(95);
    await redis.hdel(keys.bookOpen(A.accountId, A.book), p.id);
    await hints.align([{ ref: A, ...read }]);
    expect(await entries(redis, A, p)).to.deep.equal({ liq: null, sl: null, tp: null, trail: null });
  });

  it('the sweep leaves alone the entries of a position that may be opening right now, and drops those of one long gone', async () => {
    const now = Date.now();
    const opening = testPosition(A, { symbol: 'ETHUSDT', side: 'long', entry: 100, sl: 97, id: defaultPositionId(now) });
    const crashed = testPosition(A, {
      symbol: 'ETHUSDT',
      side: 'long',
      entry: 100,
      sl: 97,
      id: defaultPositionId(now - STORING_MS - 1_000),
    });
    // the widen step of two opens whose scripts have not run (yet, or ever)
    await hints.widen([
      { ref: A, position: opening },
      { ref: A, position: crashed },
    ]);
    const report = await testSweep(redis).candle.sweep([candle('ETHUSDT', nextMinute(), 96, 100)]);
    expect(report).to.deep.include({ checked: 2, settled: 0, dropped: 1 });
    expect((await entries(redis, A, opening)).sl).to.equal(97);
    expect(await entries(redis, A, crashed)).to.deep.equal({ liq: null, sl: null, tp: null, trail: null });
    // the open then lands: its entries are there for the next minute
    expect((await store.open(A, opening, 10)).kind).to.equal('opened');
    const later = await testSweep(redis).candle.sweep([candle('ETHUSDT', nextMinute() + MINUTE, 96, 100)]);
    expect(later).to.deep.include({ settled: 1 });
  });

  it('concurrent level changes and aligns from old reads never leave an entry later than the level', async () => {
    const p = testPosition(A, { symbol: 'ETHUSDT', side: 'long', entry: 100, sl: 90, tp: 120 });
    await store.open(A, p, 10);
    const pods = [createRedis(testRedisUrl()), createRedis(testRedisUrl())];
    const stores = pods.map((conn) => new PositionStore(conn));
    const aligners = pods.map((conn) => new TriggerHints(conn));
    let seed = 7;
    const random = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
    try {
      for (let round = 0; round < 20; round++) {
        const old = (await store.getOpen(A, p.id))!;
        await Promise.all([
          // three writers from the same read: one applies, the others are stale (their widened entries stay early)
          ...[0, 1, 2].map((w) =>
            stores[w % 2].sltp(
              A,
              old,
              {
                ...old.position,
                v: old.position.v + 1,
                sl: Math.round((85 + random() * 14) * 100) / 100,
                tp: Math.round((101 + random() * 30) * 100) / 100,
              },
              Date.now(),
            ),
          ),
          // a sweep aligning the position as it read it before the change
          aligners[round % 2].align([{ ref: A, ...old }]),
        ]);
        const now = (await store.getOpen(A, p.id))!.position;
        const entry = await entries(redis, A, p);
        // a long's stop is found sooner the higher its entry, its target the lower
        expect(entry.sl, `round ${round}`).to.be.at.least(now.sl!);
        expect(entry.tp, `round ${round}`).to.be.at.most(now.tp!);
      }
    } finally {
      await closeRedis(...pods);
    }
  });

  it('an entry written before a script that never ran (a crash) neither fires nor hides anything, and the sweep aligns it', async () => {
    const p = testPosition(A, { symbol: 'ETHUSDT', side: 'long', entry: 100, sl: 90 });
    await store.open(A, p, 10);
    // the widen step of a stop change to 97 whose script never ran
    await hints.widen([{ ref: A, position: { ...p, sl: 97 } }]);
    const report = await testSweep(redis).candle.sweep([candle('ETHUSDT', nextMinute(), 96, 100)]);
    expect(report).to.deep.include({ checked: 1, settled: 0 });
    expect((await entries(redis, A, p)).sl).to.equal(90);
    expect(await store.getOpen(A, p.id)).to.not.equal(null);
  });
});

describe('the account scripts on a Redis Cluster node (every key of a script in one slot)', () => {
  let cluster: ClusterRedis;
  let redis: RedisClient;

  before(async () => {
    cluster = await startClusterRedis();
    redis = createRedis(cluster.url);
  });
  after(async () => {
    await closeRedis(redis);
    await cluster.stop();
  });

  it('refuses keys of two slots (the check is real)', async () => {
    const error = await redis.mget('{a}x', '{b}y').then(
      () => null,
      (e: unknown) => e,
    );
    expect(String(error)).to.match(/CROSSSLOT/);
  });

  it('opens, changes levels, closes part and all, resets, and sweeps a stop', async () => {
    const store = new PositionStore(redis);
    const p = testPosition(A, { symbol: 'ETHUSDT', side: 'long', entry: 100, sl: 90, tp: 130, client_order_id: 'cluster-1' });
    expect((await store.open(A, p, 10)).kind).to.equal('opened');
    expect((await store.open(A, { ...p, id: 'bpother' }, 10)).kind).to.equal('idempotent');
    let read = (await store.getOpen(A, p.id))!;
    expect(await store.sltp(A, read, { ...read.position, v: 2, sl: 95 }, Date.now())).to.equal('updated');
    read = (await store.getOpen(A, p.id))!;
    expect(
      (await store.close(closeWrite(A, read, computeClose(read.position, 101, 50, 0, Date.now(), 'manual'), 'close-1', 'position.closed')))
        .kind,
    ).to.equal('closed');
    read = (await store.getOpen(A, p.id))!;
    expect(
      (await store.close(closeWrite(A, read, computeClose(read.position, 102, 100, 0, Date.now(), 'manual'), null, 'position.closed')))
        .kind,
    ).to.equal('closed');
    expect((await store.reset(A, Date.now(), 10_000)).kind).to.equal('reset');

    const stop = testPosition(A, { symbol: 'ETHUSDT', side: 'long', entry: 100, sl: 97 });
    await store.open(A, stop, 10);
    expect(await testSweep(redis).candle.sweep([candle('ETHUSDT', nextMinute(), 96, 100)])).to.deep.include({ settled: 1 });
    expect(await closedPosition(redis, A, stop.id)).to.include({ close_reason: 'stop_loss', exit: 97 });
    expect(await entries(redis, A, stop)).to.deep.equal({ liq: null, sl: null, tp: null, trail: null });
  });
});
