// @three-masters: the increase script over several keys of the account, and the liquidation hint in another slot
import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { increase } from '../../shared/engine/increase.js';
import { auditBook, type LedgerTrade } from '../../shared/paper/audit/ledger-audit.js';
import { bookCounters } from '../../shared/paper/positions/book-counters.js';
import { computeClose } from '../../shared/engine/close-record.js';
import { closeWrite } from '../../shared/paper/positions/close-service.js';
import { IncreaseStore, type IncreaseWrite } from '../../shared/paper/positions/increase-store.js';
import { PositionStore } from '../../shared/paper/positions/position-store.js';
import { triggerMember, type BookRef, type Position, type StoredPosition } from '../../shared/paper/positions/position-types.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { freshRedis, snapshotRedis, testRedisUrl } from '../helpers/redis.js';
import { expectOneWinner } from '../helpers/race.js';
import { testPosition } from '../helpers/sweep.js';

/** The write of an increase of `read` by `addQty` at `fill` (10x), as the service computes it. */
function increaseWrite(ref: BookRef, read: StoredPosition, addQty: number, fill: number, coid: string | null): IncreaseWrite {
  const now = Date.now();
  const out = increase(read.position, { addQty, fillPrice: fill, leverage: 10, now, fundingOwed: read.position.funding_carry_usd });
  if (!out.ok) throw new Error('refused');
  const updated: Position = { ...read.position, ...out.fields, v: read.position.v + 1 };
  return {
    ref,
    read,
    updated,
    added: { price: fill, qty: addQty },
    addedMarginCents: Math.round(out.addedMargin * 100),
    clientOrderId: coid,
    enforceMargin: false,
    now,
  };
}

describe('position-increase.lua under races (real Redis)', () => {
  let redis: RedisClient;
  let conns: RedisClient[];
  let pods: [PositionStore, PositionStore];
  let adds: [IncreaseStore, IncreaseStore];
  const ref: BookRef = { accountId: 'acct-inc', book: 'main' };

  beforeEach(async () => {
    redis = await freshRedis();
    conns = [createRedis(testRedisUrl()), createRedis(testRedisUrl())];
    pods = [new PositionStore(conns[0]), new PositionStore(conns[1])];
    adds = [new IncreaseStore(conns[0]), new IncreaseStore(conns[1])];
  });
  afterEach(async () => {
    await closeRedis(redis, ...conns);
  });

  const outbox = async () => (await redis.xrange(keys.accountOutbox(ref.accountId), '-', '+')).map(([, f]) => f);
  const opened = async (over: Partial<Position> = {}) => {
    const position = testPosition(ref, { symbol: 'BTCUSDT', side: 'long', entry: 65000, margin: 65, leverage: 10, ...over });
    expect((await pods[0].open(ref, position, 50)).kind).to.equal('opened');
    return (await pods[0].getOpen(ref, position.id))!;
  };

  it('one client order id raced from two pods increases once; the other pod gets the first result; one position.updated', async () => {
    const read = await opened();
    const writes = [increaseWrite(ref, read, 0.01, 66000, 'inc-1'), increaseWrite(ref, read, 0.01, 66000, 'inc-1')];
    const results = await Promise.all(writes.map((w, i) => adds[i].increase(w)));
    expectOneWinner(results, 'increased', (r) =>
      r.kind === 'increased' ? r.stored.raw : r.kind === 'idempotent' ? JSON.stringify(r.record.position) : '',
    );
    const stored = (await pods[1].getOpen(ref, read.position.id))!.position;
    expect(stored).to.include({ v: 2, entry: 65500, margin: 131 });
    expect(stored.qty).to.be.closeTo(0.02, 1e-15);
    // a retry later answers the first result, with its added leg
    const retry = await adds[1].increase(increaseWrite(ref, read, 0.05, 70000, 'inc-1'));
    expect(retry).to.deep.equal({ kind: 'idempotent', record: { added: { price: 66000, qty: 0.01 }, position: stored } });
    expect(await adds[0].findIdempotent(ref, 'inc-1')).to.deep.equal({ added: { price: 66000, qty: 0.01 }, position: stored });
    const events = await outbox();
    expect(events.map((f) => f[1])).to.deep.equal(['position.opened', 'position.updated']);
    expect(events[1].slice(-2)).to.deep.equal(['change', 'increase']);
    expect(JSON.parse(events[1][events[1].indexOf('position') + 1] as string)).to.deep.equal(stored);
    // the liquidation hint is the increased position's
    const member = triggerMember(ref, read.position.id);
    expect(await redis.zscore(keys.triggerIndex('BTCUSDT', 'liq', 'long'), member)).to.equal(String(stored.liq_price));
  });

  it('two increases and a close computed from one read: one applies, the others write nothing', async () => {
    const read = await opened();
    const close = closeWrite(ref, read, computeClose(read.position, 65500, 100, 0, Date.now(), 'manual'), null, 'position.closed');
    const [a, b, c] = await Promise.all([
      adds[0].increase(increaseWrite(ref, read, 0.01, 65500, 'a')),
      adds[1].increase(increaseWrite(ref, read, 0.02, 65500, 'b')),
      pods[0].close(close),
    ]);
    const kinds = [a.kind, b.kind, c.kind];
    expect(kinds.filter((k) => k === 'increased' || k === 'closed')).to.have.length(1);
    // the losers: stale (changed since read), already closed, or gone (the close won before they ran)
    expect(kinds.filter((k) => k === 'stale' || k === 'already_closed' || k === 'gone')).to.have.length(2);
    // a stale attempt stored no idempotency record (its retry recomputes)
    const recorded = await Promise.all(['a', 'b'].map((id) => adds[0].findIdempotent(ref, id)));
    expect(recorded.filter((r) => r !== null)).to.have.length(kinds.filter((k) => k === 'increased').length);
    expect((await outbox()).map((f) => f[1])).to.have.length(2);
  });

  it('a closed position is gone; a stale read writes nothing; margin_enforced refuses past the free margin and writes nothing', async () => {
    const read = await opened({ margin: 9000, leverage: 1 });
    const budget = await adds[0].increase({
      ...increaseWrite(ref, read, 0.1, 65000, 'big'),
      enforceMargin: true,
      addedMarginCents: 200_000,
    });
    expect(budget).to.deep.equal({ kind: 'budget', freeCents: 100_000, inUseCents: 900_000, balanceCents: 1_000_000 });
    const fits = await adds[0].increase({ ...increaseWrite(ref, read, 0.1, 65000, 'fits'), enforceMargin: true, addedMarginCents: 50_000 });
    expect(fits.kind).to.equal('increased');
    const before = await snapshotRedis(redis);
    expect((await adds[1].increase(increaseWrite(ref, read, 0.01, 65000, null))).kind).to.equal('stale');
    expect(await snapshotRedis(redis)).to.deep.equal(before);
    const now = (await pods[0].getOpen(ref, read.position.id))!;
    await pods[0].close(closeWrite(ref, now, computeClose(now.position, 65000, 100, 0, Date.now(), 'manual'), null, 'position.closed'));
    expect((await adds[1].increase(increaseWrite(ref, now, 0.01, 65000, null))).kind).to.equal('gone');
  });

  it('the ledger audit adds up after increases and closes: the added leg settles in the close, no counter moves before', async () => {
    for (const fill of [64000, 66000, 65000]) {
      const read = await opened();
      const out = await adds[0].increase(increaseWrite(ref, read, 0.02, fill, null));
      if (out.kind !== 'increased') throw new Error(out.kind);
      // the increase moved no counter: only the closes before it count
      expect(bookCounters(await redis.hgetall(keys.bookStats(ref.accountId, ref.book))).closed).to.equal(
        2 * [64000, 66000, 65000].indexOf(fill),
      );
      const settled = computeClose(out.stored.position, 65800, 40, 0, Date.now(), 'manual');
      await pods[1].close(closeWrite(ref, out.stored, settled, null, 'position.closed'));
      const rest = (await pods[1].getOpen(ref, read.position.id))!;
      await pods[1].close(closeWrite(ref, rest, computeClose(rest.position, 65800, 100, 0, Date.now(), 'manual'), null, 'position.closed'));
    }
    const trades = (await redis.hvals(keys.bookClosed(ref.accountId, ref.book))).map((raw) => JSON.parse(raw) as LedgerTrade);
    expect(trades).to.have.length(6);
    const stats = bookCounters(await redis.hgetall(keys.bookStats(ref.accountId, ref.book)));
    expect(auditBook(stats, trades)).to.deep.equal([]);
  });
});
