// @three-masters: position scripts over several keys
import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { computeClose } from '../../shared/engine/close-record.js';
import { closeWrite, wholeCloseJson } from '../../shared/paper/positions/close-service.js';
import { PositionStore } from '../../shared/paper/positions/position-store.js';
import { parsePosition, type BookRef, type Position } from '../../shared/paper/positions/position-types.js';
import { closedView, openView } from '../../shared/paper/positions/position-view.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { clusterSeeds } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { freshRedis, snapshotRedis, testRedisUrl } from '../helpers/redis.js';
import { expectOneWinner } from '../helpers/race.js';
import { testPosition } from '../helpers/sweep.js';

/** An ETHUSDT long at 100, 50 USD margin at 5x, stop 90, target 120, opened now. */
function newPosition(ref: BookRef, over: Partial<Position> = {}): Position {
  return testPosition(ref, {
    symbol: 'ETHUSDT',
    side: 'long',
    entry: 100,
    margin: 50,
    leverage: 5,
    sl: 90,
    tp: 120,
    opened_ts: Date.now(),
    ...over,
  });
}

/** Each script raced from two connections (two "pods"): the state it depends on decides, once. */
describe('position scripts under races (Lua, real Redis)', () => {
  let redis: RedisClient;
  let pods: [PositionStore, PositionStore];
  let conns: RedisClient[];
  const ref: BookRef = { accountId: 'acct1', book: 'main' };

  beforeEach(async () => {
    redis = await freshRedis();
    conns = [createRedis(testRedisUrl()), createRedis(testRedisUrl())];
    pods = [new PositionStore(conns[0]), new PositionStore(conns[1])];
  });
  afterEach(async () => {
    await closeRedis(redis, ...conns);
  });

  const outbox = async () => (await redis.xrange(keys.accountOutbox(ref.accountId), '-', '+')).map(([, f]) => f[1]);

  it('open: one client_order_id opens one position however many pods race; the others get it back as idempotent', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => pods[i % 2].open(ref, newPosition(ref, { client_order_id: 'coid-1' }), 50)),
    );
    const id = expectOneWinner(results, 'opened', (r) => ('stored' in r ? r.stored?.position.id : ''));
    expect(await redis.hlen(keys.bookOpen(ref.accountId, ref.book))).to.equal(1);
    expect(await outbox()).to.deep.equal(['position.opened']);
    expect(await redis.ttl(keys.bookIdempotency(ref.accountId, ref.book, 'open', 'coid-1'))).to.be.within(7 * 86_400 - 5, 7 * 86_400);
    expect(await redis.get(keys.bookIdempotency(ref.accountId, ref.book, 'open', 'coid-1'))).to.equal(id);
  });

  it('open: a client_order_id whose position a reset archived still answers that position', async () => {
    const position = newPosition(ref, { client_order_id: 'archived-1' });
    await pods[0].open(ref, position, 50);
    const read = (await pods[0].getOpen(ref, position.id))!;
    await pods[0].close(closeWrite(ref, read, computeClose(read.position, 100, 100, 0, Date.now(), 'manual'), null, 'position.closed'));
    expect((await pods[0].reset(ref, Date.now(), 10_000)).kind).to.equal('reset');
    const again = await pods[1].open(ref, newPosition(ref, { client_order_id: 'archived-1' }), 50);
    expect(again.kind).to.equal('idempotent');
    expect(again.kind === 'idempotent' ? again.stored?.position : null).to.include({ id: position.id, status: 'closed' });
    expect((await pods[1].findIdempotentOpen(ref, 'archived-1'))?.position.id).to.equal(position.id);
  });

  it('reads a position stored in the older shape (each alias beside its field): the view shows both names, a close stores each once', async () => {
    const position = newPosition(ref, { margin: 50, entry: 100, fee_open_usd: 0.1375 });
    await pods[0].open(ref, position, 50);
    // as versions before one name per field wrote it: the original's names stored too
    const legacy = { ...position, entry_price: 100, margin_usd: 50, feeOpen: 0.1375 };
    await redis.hset(keys.bookOpen(ref.accountId, ref.book), position.id, JSON.stringify(legacy));
    const read = (await pods[1].getOpen(ref, position.id))!;
    expect(read.position).to.not.have.any.keys('entry_price', 'margin_usd', 'feeOpen');
    expect(openView(read.position, undefined, 0)).to.include({
      entry: 100,
      entry_price: 100,
      margin: 50,
      margin_usd: 50,
      fee_open_usd: 0.1375,
      feeOpen: 0.1375,
    });
    // the sweep's whole close splices into the JSON as read: the old aliases stay beside it and still read
    const swept = parsePosition(wholeCloseJson(read, 95, 0, Date.now(), 'stop_loss', false).json).position;
    expect(closedView(swept)).to.include({ exit: 95, exit_price: 95, entry_price: 100, margin_usd: 50 });
    // a partial close builds both records from the parsed position: no stale alias is carried over
    const settled = computeClose(read.position, 110, 40, 0, Date.now(), 'manual');
    expect((await pods[1].close(closeWrite(ref, read, settled, null, 'position.closed'))).kind).to.equal('closed');
    const remaining = (await redis.hget(keys.bookOpen(ref.accountId, ref.book), position.id))!;
    const closedPart = (await pods[1].getClosed(ref, settled.closed.id))!;
    for (const raw of [remaining, closedPart.raw])
      expect(JSON.parse(raw)).to.not.have.any.keys('entry_price', 'margin_usd', 'exit_price', 'feeOpen');
    expect(openView(parsePosition(remaining).position, undefined, 0)).to.include({ margin: 30, margin_usd: 30 });
    expect(closedView(closedPart.position)).to.include({ margin: 20, margin_usd: 20, exit: 110, exit_price: 110 });
  });

  it('open: the cap holds under a race (never more open positions than the cap) and a refusal writes nothing', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => pods[i % 2].open(ref, newPosition(ref), 5)));
    expect(results.filter((r) => r.kind === 'opened')).to.have.length(5);
    expect(results.filter((r) => r.kind === 'cap')).to.have.length(7);
    const before = await snapshotRedis(redis);
    expect((await pods[0].open(ref, newPosition(ref), 5)).kind).to.equal('cap');
    expect(await snapshotRedis(redis)).to.deep.equal(before);
    expect(await redis.zcard(keys.triggerIndex('ETHUSDT', 'liq', 'long'))).to.equal(5);
  });

  it('open, one-way: of racing opens of one symbol one lands, the others name it and write nothing; other symbols open', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => pods[i % 2].open(ref, newPosition(ref), 50, { oneWay: true })));
    const opened = results.filter((r) => r.kind === 'opened');
    expect(opened).to.have.length(1);
    const id = opened[0].kind === 'opened' ? opened[0].stored.position.id : '';
    expect(results.filter((r) => r.kind === 'held')).to.deep.equal(Array.from({ length: 5 }, () => ({ kind: 'held', id })));
    const before = await snapshotRedis(redis);
    expect((await pods[1].open(ref, newPosition(ref), 50, { oneWay: true })).kind).to.equal('held');
    expect(await snapshotRedis(redis)).to.deep.equal(before);
    expect(await redis.zcard(keys.triggerIndex('ETHUSDT', 'liq', 'long'))).to.equal(1);
    expect((await pods[0].open(ref, newPosition(ref, { symbol: 'BTCUSDT' }), 50, { oneWay: true })).kind).to.equal('opened');
    expect((await pods[0].open(ref, newPosition(ref), 50)).kind, 'not one-way: a second ETH position').to.equal('opened');
  });

  it('close: two pods settling the same read settle it once; the loser sees already closed; counters move once', async () => {
    const position = newPosition(ref);
    await pods[0].open(ref, position, 50);
    const read = (await pods[0].getOpen(ref, position.id))!;
    const settled = computeClose(read.position, 110, 100, 0, Date.now(), 'manual');
    const results = await Promise.all(pods.map((pod) => pod.close(closeWrite(ref, read, settled, null, 'position.closed'))));
    expect(results.map((r) => r.kind).sort()).to.deep.equal(['already_closed', 'closed']);
    const stats = await redis.hgetall(keys.bookStats(ref.accountId, ref.book));
    expect(stats).to.include({ closed: '1', realized_cents: String(settled.cents), wins: '1' });
    expect(await outbox()).to.deep.equal(['position.opened', 'position.closed']);
    const member = `${ref.accountId}|${ref.book}|${position.id}`;
    for (const kind of ['sl', 'tp', 'liq'] as const)
      expect(await redis.zscore(keys.triggerIndex('ETHUSDT', kind, 'long'), member)).to.equal(null);
  });

  it('close: the book counters add up over wins, losses and a liquidation, best trade included, and stay integers', async () => {
    const stats = keys.bookStats(ref.accountId, ref.book);
    await redis.hset(stats, 'life_realized_cents', String(2 ** 52));
    const exits: [number, boolean][] = [
      [110, false],
      [95, false],
      [130, false],
      [80, true],
      [100.5, false],
    ];
    const cents: number[] = [];
    for (const [exit, liquidation] of exits) {
      const position = newPosition(ref, { sl: null, tp: null });
      await pods[0].open(ref, position, 50);
      const read = (await pods[0].getOpen(ref, position.id))!;
      const settled = computeClose(read.position, exit, 100, 0, Date.now(), liquidation ? 'liquidation' : 'manual');
      cents.push(settled.cents);
      expect(
        (await pods[1].close(closeWrite(ref, read, settled, null, liquidation ? 'position.liquidated' : 'position.closed'))).kind,
      ).to.equal('closed');
    }
    const total = cents.reduce((a, b) => a + b, 0);
    const wins = cents.filter((c) => c > 0).length;
    expect(await redis.hgetall(stats)).to.deep.equal({
      realized_cents: String(total),
      life_realized_cents: String(2 ** 52 + total),
      closed: '5',
      life_closed: '5',
      wins: String(wins),
      life_wins: String(wins),
      losses: String(5 - wins),
      life_losses: String(5 - wins),
      liquidations: '1',
      best_cents: String(Math.max(...cents)),
    });
  });

  it('close: a whole close clears the member from every index it was in (trailing stop included)', async () => {
    const trailing = newPosition(ref, { trail_pct: 2, trail_hwm: 100, tp: null });
    const bare = newPosition(ref, { sl: null, tp: null });
    for (const p of [trailing, bare]) await pods[0].open(ref, p, 50);
    const indexes = (['liq', 'sl', 'tp', 'trail'] as const).map((kind) => keys.triggerIndex('ETHUSDT', kind, 'long'));
    const members = async () => Promise.all(indexes.map((key) => redis.zrange(key, '0', '-1')));
    const memberOf = (p: Position) => `${ref.accountId}|${ref.book}|${p.id}`;
    expect(await members()).to.deep.equal([[memberOf(trailing), memberOf(bare)].sort(), [memberOf(trailing)], [], [memberOf(trailing)]]);
    for (const p of [trailing, bare]) {
      const read = (await pods[0].getOpen(ref, p.id))!;
      await pods[1].close(closeWrite(ref, read, computeClose(read.position, 101, 100, 0, Date.now(), 'manual'), null, 'position.closed'));
    }
    expect(await members()).to.deep.equal([[], [], [], []]);
  });

  it('close, many in one pipeline: settles each once, and loads the script again when the server lost it', async () => {
    const positions = [newPosition(ref), newPosition(ref), newPosition(ref)];
    for (const p of positions) await pods[0].open(ref, p, 50);
    const reads = await Promise.all(positions.map(async (p) => (await pods[0].getOpen(ref, p.id))!));
    const writes = reads.map((read) =>
      closeWrite(ref, read, computeClose(read.position, 110, 100, 0, Date.now(), 'manual'), null, 'position.closed'),
    );
    await redis.script('FLUSH');
    expect((await pods[1].closeMany(writes.slice(0, 2))).map((o) => o.kind)).to.deep.equal(['closed', 'closed']);
    expect((await pods[1].closeMany(writes)).map((o) => o.kind)).to.deep.equal(['already_closed', 'already_closed', 'closed']);
    expect(await redis.hget(keys.bookStats(ref.accountId, ref.book), 'closed')).to.equal('3');
    expect(await outbox()).to.deep.equal([
      ...positions.map(() => 'position.opened'),
      'position.closed',
      'position.closed',
      'position.closed',
    ]);
  });

  it('close: two partial closes from the same read apply once; the other is stale and writes nothing', async () => {
    const position = newPosition(ref);
    await pods[0].open(ref, position, 50);
    const read = (await pods[0].getOpen(ref, position.id))!;
    const a = computeClose(read.position, 105, 40, 0, Date.now(), 'manual');
    const b = computeClose(read.position, 105, 25, 0, Date.now(), 'manual');
    const results = await Promise.all([
      pods[0].close(closeWrite(ref, read, a, null, 'position.closed')),
      pods[1].close(closeWrite(ref, read, b, null, 'position.closed')),
    ]);
    expect(results.map((r) => r.kind).sort()).to.deep.equal(['closed', 'stale']);
    expect(await redis.hlen(keys.bookClosed(ref.accountId, ref.book))).to.equal(1);
    const remaining = (await pods[0].getOpen(ref, position.id))!.position;
    expect(remaining.v).to.equal(2);
    expect(await outbox()).to.deep.equal(['position.opened', 'position.closed']);
  });

  it('close: one client_order_id closes once; a second close with it returns the stored result', async () => {
    const position = newPosition(ref);
    await pods[0].open(ref, position, 50);
    const read = (await pods[0].getOpen(ref, position.id))!;
    const settled = computeClose(read.position, 95, 100, 0, Date.now(), 'manual');
    const results = await Promise.all(pods.map((pod) => pod.close(closeWrite(ref, read, settled, 'c1', 'position.closed'))));
    expect(results.map((r) => r.kind).sort()).to.deep.equal(['closed', 'idempotent']);
    const idem = results.find((r) => r.kind === 'idempotent');
    expect(idem?.kind === 'idempotent' ? idem.result : null).to.deep.equal({ closed_id: position.id, remaining_id: null });
    expect(await redis.hget(keys.bookStats(ref.accountId, ref.book), 'losses')).to.equal('1');
  });

  it('sltp: two changes from the same read apply once; the indexes match the winner', async () => {
    const position = newPosition(ref);
    await pods[0].open(ref, position, 50);
    const read = (await pods[0].getOpen(ref, position.id))!;
    const one = { ...read.position, v: 2, sl: 80, tp: null };
    const two = { ...read.position, v: 2, sl: 95, tp: 130 };
    const results = await Promise.all([pods[0].sltp(ref, read, one, Date.now()), pods[1].sltp(ref, read, two, Date.now())]);
    expect([...results].sort()).to.deep.equal(['stale', 'updated']);
    const winner = results[0] === 'updated' ? one : two;
    const member = `${ref.accountId}|${ref.book}|${position.id}`;
    const sl = await redis.zscore(keys.triggerIndex('ETHUSDT', 'sl', 'long'), member);
    const tp = await redis.zscore(keys.triggerIndex('ETHUSDT', 'tp', 'long'), member);
    if ((clusterSeeds(testRedisUrl())?.length ?? 0) < 3) {
      expect(sl).to.equal(String(winner.sl));
      expect(tp).to.equal(winner.tp === null ? null : String(winner.tp));
    } else {
      // on several masters the per-symbol index is on another node than the account's keys, written around the scripts:
      // two pods' hints may interleave and leave the wider level. A hint may be earlier than the position's level (the
      // sweep re-checks the position), never later: a long's stop at or above it, its target at or below it
      expect(Number(sl)).to.be.at.least(winner.sl);
      if (winner.tp !== null) expect(Number(tp)).to.be.at.most(winner.tp);
    }
    expect(await outbox()).to.deep.equal(['position.opened', 'position.updated']);
    expect(await pods[0].sltp(ref, read, one, Date.now())).to.equal('stale');
  });

  it('reset: two resets at the same time archive once; a reset never runs over an open position', async () => {
    const position = newPosition(ref);
    await pods[0].open(ref, position, 50);
    const read = (await pods[0].getOpen(ref, position.id))!;
    expect((await pods[1].reset(ref, Date.now(), 10_000)).kind).to.equal('open');
    await pods[0].close(closeWrite(ref, read, computeClose(read.position, 101, 100, 0, Date.now(), 'manual'), null, 'position.closed'));
    const ts = Date.now();
    const results = await Promise.all(pods.map((pod) => pod.reset(ref, ts, 10_000)));
    expect(results.map((r) => r.kind).sort()).to.deep.equal(['busy', 'reset']);
    expect(results.find((r) => r.kind === 'reset')).to.deep.include({ archived: 1, cancelled: 0 });
    expect(await redis.hlen(keys.bookArchiveClosed(ref.accountId, ref.book, ts))).to.equal(1);
    expect(await redis.hget(keys.bookStats(ref.accountId, ref.book), 'closed')).to.equal('0');
    expect(await redis.hget(keys.bookStats(ref.accountId, ref.book), 'life_closed')).to.equal('1');
    expect((await outbox()).filter((e) => e === 'book.reset')).to.have.length(1);
  });

  it('reset racing an open: either the open lands after the reset or the reset is refused, never both lost', async () => {
    for (let i = 0; i < 10; i++) {
      const r: BookRef = { accountId: `acct-race-${i}`, book: 'main' };
      const [opened, reset] = await Promise.all([pods[0].open(r, newPosition(r), 50), pods[1].reset(r, Date.now(), 10_000)]);
      expect(opened.kind).to.equal('opened');
      expect(['reset', 'open']).to.include(reset.kind);
      expect(await redis.hlen(keys.bookOpen(r.accountId, r.book))).to.equal(1);
    }
  });
});
