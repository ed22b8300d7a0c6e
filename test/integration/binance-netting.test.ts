import { expect } from 'chai';
import { orderActions, type OrderBody } from '../../api/binance/order-routes.js';
import { configWith } from '../../shared/config.js';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { createDomain, type Domain } from '../../shared/domain.js';
import type { KeyContext } from '../../shared/paper/key-context.js';
import { effectivePlan } from '../../shared/paper/plans.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { freshRedis } from '../helpers/redis.js';
import { TestPrices } from '../helpers/trading.js';

describe('Binance dialect: a MARKET order whose position closed under it nets onto what the symbol holds now', function () {
  this.timeout(30_000);
  let redis: RedisClient;
  let domain: Domain;
  const auth: KeyContext = {
    keyId: 'k1',
    keyName: 'k',
    accountId: 'netting-acct',
    email: 'n@example.org',
    book: 'main',
    bookBound: false,
    plan: effectivePlan({ plan: 'business', until: null }, 0),
  };
  const buy = (quantity: number, id: string): OrderBody => ({
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'MARKET',
    quantity,
    reduceOnly: 'false',
    closePosition: 'false',
    newClientOrderId: id,
  });

  beforeEach(async () => {
    redis = await freshRedis();
    domain = createDomain({ config: configWith({}), redis });
    await new TestPrices(redis).set({ BTCUSDT: 65000 });
  });
  afterEach(() => closeRedis(redis));

  const actionsOver = (trading: Domain['trading']) => {
    const { clock, market, binance } = domain;
    return orderActions({ clock, market, trading, leverage: binance.leverage, answers: binance.answers, book: binance.book });
  };
  /**
   * The order routes over the domain, whose first increase meets `before` just ahead of it (what other orders did
   * between the order's read of the book and its increase).
   */
  const actionsWith = (before: () => Promise<void>) => {
    const increases = domain.trading.increases;
    let first = true;
    const racedIncreases = Object.assign(Object.create(increases) as typeof increases, {
      increase: async (...args: Parameters<typeof increases.increase>) => {
        if (first) {
          first = false;
          await before();
        }
        return increases.increase(...args);
      },
    });
    return actionsOver({ ...domain.trading, increases: racedIncreases });
  };
  const openLongs = () => domain.trading.reads.snapshot(auth).then((s) => s.positions.filter((p) => p.status === 'open'));

  it('adds to the position another order opened after the one it read was closed', async () => {
    const plain = actionsOver(domain.trading);
    const actions = actionsWith(async () => {
      const [read] = await openLongs();
      await domain.trading.closes.close(auth, { id: read.id, pct: 100 });
      await plain.place(auth, buy(0.02, 'reopened'));
    });
    await plain.place(auth, buy(0.01, 'first'));
    const added = await actions.place(auth, buy(0.01, 'add'));
    const [held, ...others] = await openLongs();
    expect(others, 'one position in the symbol').to.deep.equal([]);
    expect(held.client_order_id).to.equal('reopened');
    expect(String(added.orderId)).to.match(new RegExp(`^${held.id}-ADD\\d+$`));
    expect(held.qty).to.be.closeTo(0.03, 1e-9);
  });

  it('two orders that both read an empty symbol make one position: the second adds to the first', async () => {
    // both orders read the book before either writes: the first two reads wait for each other
    const reads = domain.trading.reads;
    let waiting: (() => void) | undefined;
    const bothRead = new Promise<void>((resolve) => (waiting = resolve));
    let count = 0;
    const barrierReads = Object.assign(Object.create(reads) as typeof reads, {
      snapshot: async (...args: Parameters<typeof reads.snapshot>) => {
        const read = await reads.snapshot(...args);
        if (++count === 2) waiting?.();
        if (count <= 2) await bothRead;
        return read;
      },
    });
    const actions = actionsOver({ ...domain.trading, reads: barrierReads });
    const answers = await Promise.all([actions.place(auth, buy(0.01, 'a')), actions.place(auth, buy(0.02, 'b'))]);
    const [held, ...others] = await openLongs();
    expect(others, 'one position in the symbol').to.deep.equal([]);
    expect(held.qty).to.be.closeTo(0.03, 1e-9);
    expect(answers.filter((a) => /-ADD\d+$/.test(String(a.orderId)))).to.have.length(1);
  });

  it('opens when the symbol holds nothing any more', async () => {
    const actions = actionsWith(async () => {
      const [read] = await openLongs();
      await domain.trading.closes.close(auth, { id: read.id, pct: 100 });
    });
    await actions.place(auth, buy(0.01, 'first'));
    const opened = await actions.place(auth, buy(0.01, 'second'));
    const [held, ...others] = await openLongs();
    expect(others).to.deep.equal([]);
    expect(opened.orderId).to.equal(held.id);
    expect(held.client_order_id).to.equal('second');
  });
});
