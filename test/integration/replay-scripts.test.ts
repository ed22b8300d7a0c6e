// @three-masters: replay scripts over several keys
/**
 * The replay scripts under races: two starts of one key, two clocks counting one minute, a stop
 * racing an open, and two whole clocks running one replay side by side (a stalled job taken over
 * while its first worker still runs): every position settles once and the frontier moves once per
 * minute.
 */
import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { configWith } from '../../shared/config.js';
import { createMarketStore } from '../../shared/market/market-store.js';
import type { Candle } from '../../shared/market/types.js';
import { FundingStore } from '../../shared/paper/funding/funding-store.js';
import { ReplayCandles } from '../../shared/paper/replay/replay-candles.js';
import { ReplayClock } from '../../shared/paper/replay/replay-clock.js';
import { DAY_MS, MINUTE_MS } from '../../shared/paper/replay/replay-math.js';
import { journalBook, journalRef, ReplayStore, type ReplayState } from '../../shared/paper/replay/replay-store.js';
import { SweepStore } from '../../shared/paper/sweep/sweep-store.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { freshRedis } from '../helpers/redis.js';
import { testPosition } from '../helpers/sweep.js';

const DAY = '2026-03-10';
const S = Date.UTC(2026, 2, 10);
const BASE = 50_000;

/** Flat at 50000; minute 40 dips to 48900, minute 50 spikes to 50900. */
const CANDLES: Candle[] = Array.from({ length: 1440 }, (_, i) => ({
  openTime: S + i * MINUTE_MS,
  open: BASE,
  high: i === 50 ? 50_900 : BASE,
  low: i === 40 ? 48_900 : BASE,
  close: BASE,
  volume: 1,
  closed: true,
}));

let n = 0;
function replayState(over: Partial<ReplayState> = {}): ReplayState {
  const id = `rptest${++n}${Date.now().toString(36)}`;
  return {
    id,
    keyId: `key${n}`,
    accountId: `acctreplay${n}`,
    symbol: 'BTCUSDT',
    day: DAY,
    speed: 600,
    startTs: S,
    endTs: S + DAY_MS,
    startedAt: Date.now(),
    sweptTo: S,
    candles: 1440,
    firstPrice: BASE,
    finished: false,
    book: journalBook(id),
    ...over,
  };
}

describe('replay scripts and clocks under races', function () {
  this.timeout(60_000);
  let redis: RedisClient;
  let store: ReplayStore;

  before(async () => {
    redis = await freshRedis();
    store = new ReplayStore(redis, 3_600);
    await store.cacheCandles('BTCUSDT', DAY, CANDLES);
  });
  after(() => closeRedis(redis));

  it('starts one replay per key however many starts race', async () => {
    const first = replayState();
    const rivals = Array.from({ length: 8 }, () => ({ ...replayState(), accountId: first.accountId, keyId: first.keyId }));
    const outcomes = await Promise.all([first, ...rivals].map((s) => store.start(s)));
    expect(outcomes.filter(Boolean)).to.have.length(1);
  });

  it('counts a minute once when two clocks race for it, and a stopped replay not at all', async () => {
    const s = replayState();
    await store.start(s);
    const outcomes = await Promise.all([store.advance(s, S, S + MINUTE_MS), store.advance(s, S, S + MINUTE_MS)]);
    expect(outcomes.map((o) => o.kind).sort()).to.deep.equal(['moved', 'stale']);
    expect(outcomes.find((o) => o.kind === 'stale')).to.deep.equal({ kind: 'stale', sweptTo: S + MINUTE_MS });
    expect((await store.stop(s)).kind).to.equal('stopped');
    expect(await store.advance(s, S + MINUTE_MS, S + 2 * MINUTE_MS)).to.deep.equal({ kind: 'stopped' });
    expect(await store.get(s.accountId, s.keyId)).to.equal(null);
  });

  it('does not stop while the journal holds an open position (an open that raced the close-all)', async () => {
    const s = replayState();
    await store.start(s);
    const ref = journalRef(s);
    const p = testPosition(ref, { symbol: 'BTCUSDT', side: 'long', entry: BASE, opened_ts: S });
    await store.journal.open(ref, p, 100);
    expect(await store.stop(s)).to.deep.equal({ kind: 'open', open: 1 });
    await redis.hdel(keys.bookOpen(ref.accountId, ref.book), p.id);
    expect(await store.stop(s)).to.deep.equal({ kind: 'stopped' });
  });

  it('settles each position once when two clocks run one replay side by side', async () => {
    // started a day ago at 600x: every minute is due at once, and both clocks sweep the whole day
    const s = replayState({ startedAt: Date.now() - 200_000 });
    await store.start(s);
    const ref = journalRef(s);
    const positions = [
      testPosition(ref, { symbol: 'BTCUSDT', side: 'long', entry: BASE, opened_ts: S + 1, sl: 49_000 }),
      testPosition(ref, { symbol: 'BTCUSDT', side: 'short', entry: BASE, opened_ts: S + 1, leverage: 50 }),
      testPosition(ref, { symbol: 'BTCUSDT', side: 'long', entry: BASE, opened_ts: S + 1, tp: 50_800 }),
    ];
    for (const p of positions) await store.journal.open(ref, p, 100);
    const config = configWith({});
    const clockDeps = {
      store,
      candles: new ReplayCandles(createMarketStore(redis, config), store),
      index: new SweepStore(redis),
      funding: new FundingStore(redis),
      clock: { now: () => Date.now() },
    };
    const minutes: number[] = [];
    const [a, b] = await Promise.all(
      [new ReplayClock(clockDeps), new ReplayClock(clockDeps)].map((clock) =>
        clock.run({ accountId: s.accountId, keyId: s.keyId, replayId: s.id }, { onMinute: ({ minute }) => minutes.push(minute) }),
      ),
    );
    expect([a, b]).to.deep.equal(['finished', 'finished']);
    // each minute counted once, by one clock or the other
    expect(minutes.sort((x, y) => x - y)).to.deep.equal(CANDLES.map((c) => c.openTime));
    const state = await store.get(s.accountId, s.keyId);
    expect(state).to.include({ sweptTo: S + DAY_MS, finished: true });
    const stats = await redis.hgetall(keys.bookStats(ref.accountId, ref.book));
    expect([Number(stats.closed), Number(stats.liquidations)]).to.deep.equal([3, 1]);
    const closed = (await redis.hvals(keys.bookClosed(ref.accountId, ref.book))).map(
      (raw) => JSON.parse(raw) as { close_reason: string; closed_ts: number; src?: string },
    );
    expect(closed.map((p) => [p.close_reason, p.closed_ts, p.src]).sort()).to.deep.equal(
      [
        ['stop_loss', S + 41 * MINUTE_MS, 'replay'],
        ['liquidation', S + 51 * MINUTE_MS, 'replay'],
        ['take_profit', S + 51 * MINUTE_MS, 'replay'],
      ].sort(),
    );
    const events = await redis.xrange(keys.replayEvents(ref.accountId), '-', '+');
    expect(events.filter(([, f]) => f[1] === 'position.closed' || f[1] === 'position.liquidated')).to.have.length(3);
    expect(await redis.xlen(keys.accountOutbox(ref.accountId))).to.equal(0);
  });
});
