import { expect } from 'chai';
import { decodeQuote } from '../../shared/market/market-store.js';
import { unchangedFor } from '../../shared/market/quote-freshness.js';
import { keys } from '../../shared/redis/keys.js';
import { simControl, TRADING_SIM_ENV, useSimStack } from '../helpers/market-sim.js';
import { getJson } from '../helpers/app.js';
import { waitFor } from '../helpers/market-wait.js';
import { accountServices, botCall, createTrader, type Trader } from '../helpers/trading.js';

type Body = Record<string, unknown> & { position?: Record<string, unknown> };

/** A TradFi price no venue calls closed but that stopped moving: the production feed against the simulated exchanges. */
describe('bot trading end to end: a frozen TradFi price is stale for opens (sim -> feed -> Redis -> /open)', function () {
  this.timeout(60_000);
  const FROZEN_MS = 4_000;
  let trader: Trader;

  const stack = useSimStack({ env: { ...TRADING_SIM_ENV, TRADFI_FROZEN_MS: String(FROZEN_MS) }, feed: true });
  const open = (body: Record<string, unknown>) => botCall<Body>(stack.api.url, trader, 'POST', '/open', body);
  const gold = { symbol: 'XAU', side: 'long', margin_usd: 100, leverage: 20 };
  const storedQuote = async (symbol: string) => decodeQuote(await stack.redis.get(keys.marketQuote(symbol)));

  before(async () => {
    trader = await createTrader(accountServices(stack.redis));
    // every price walks, as the venues' do while their markets are open
    await simControl(stack.sim, 'mode', { mode: 'random' });
    await waitFor(async () => (await open({ ...gold, dry_run: true })).status === 200, 20_000, 'a moving gold price on the open path');
  });

  it('refuses opens on gold once its venues have published one price for longer than TRADFI_FROZEN_MS; a moving coin and closes still fill', async () => {
    const held = await open(gold);
    expect(held.status, JSON.stringify(held.body)).to.equal(200);
    // Bybit's weekend: the contract stays listed as trading and its last price keeps coming, unchanged
    await simControl(stack.sim, 'market', { symbol: 'XAUUSDT', frozen: true });
    try {
      await waitFor(async () => (await open({ ...gold, dry_run: true })).status === 409, 20_000, 'the frozen price on the open path');
      const refused = await open(gold);
      expect([refused.status, refused.body.error]).to.deep.equal([409, 'market_closed']);
      expect(refused.body).to.include({ symbol: 'XAU', asset_class: 'metal' });
      expect(refused.body.unchanged_s as number).to.be.at.least(FROZEN_MS / 1000);
      // still published (fresh), not a price that stopped arriving: that would be no_price
      const quote = (await storedQuote('XAUUSDT'))!;
      expect(Date.now() - quote.ts).to.be.below(Number(TRADING_SIM_ENV.PRICE_FRESH_MS));
      expect(unchangedFor(quote)).to.be.above(FROZEN_MS);
      // a coin whose price moves trades on; the gold position still closes
      const btc = await open({ symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10 });
      expect(btc.status, JSON.stringify(btc.body)).to.equal(200);
      expect(unchangedFor((await storedQuote('BTCUSDT'))!)).to.be.below(FROZEN_MS);
      // the keyless price answers as the original's does: 409 market_closed with the last price; the public one marks it
      const price = (symbol: string) => getJson<Body>(`${stack.api.url}/api/bot/v1/price?symbol=${symbol}`);
      await waitFor(async () => (await price('XAU')).status === 409, 5_000, 'the frozen price on /api/bot/v1/price');
      const goldPrice = await price('XAU');
      expect(goldPrice.body).to.include({ error: 'market_closed', symbol: 'XAU', asset_class: 'metal', price: quote.price });
      expect((await price('BTC')).status).to.equal(200);
      const publicGold = await getJson<{ data: Body }>(`${stack.api.url}/api/v1/price?symbol=XAU`);
      expect([publicGold.status, publicGold.body.data.market_closed, publicGold.body.data.price]).to.deep.equal([200, true, quote.price]);
      const publicBtc = await getJson<{ data: Body }>(`${stack.api.url}/api/v1/price?symbol=BTC`);
      expect(publicBtc.body.data.market_closed).to.equal(false);
      // /markets marks the frozen one, not the coin
      const markets = await botCall<{ markets: Record<string, unknown>[] }>(stack.api.url, trader, 'GET', '/markets');
      const closedOf = (symbol: string) => markets.body.markets.find((m) => m.symbol === symbol)?.market_closed;
      expect([closedOf('XAUUSDT'), closedOf('BTCUSDT'), closedOf('XAGUSDT')]).to.deep.equal([true, false, false]);
      const closed = await botCall<Body>(stack.api.url, trader, 'POST', '/close', { id: held.body.position!.id });
      expect(closed.status, JSON.stringify(closed.body)).to.equal(200);
    } finally {
      await simControl(stack.sim, 'market', { symbol: 'XAUUSDT', frozen: false });
    }
    // the first move opens it again
    await waitFor(async () => (await open({ ...gold, dry_run: true })).status === 200, 20_000, 'gold moving again on the open path');
    expect((await open(gold)).status).to.equal(200);
    await waitFor(
      async () => (await getJson(`${stack.api.url}/api/bot/v1/price?symbol=XAU`)).status === 200,
      5_000,
      'gold priced again on /api/bot/v1/price',
    );
  });
});
