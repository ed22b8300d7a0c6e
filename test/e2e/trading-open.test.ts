// @three-masters: position-open over six keys
import { expect } from 'chai';
import { FEE_VENUES, venueEffectivePct } from '../../shared/engine/fees.js';
import { keys } from '../../shared/redis/keys.js';
import { useHeldGateApi } from '../helpers/held-gate.js';
import { changedKeys, isRequestBookkeeping, snapshotRedis, watchCommands } from '../helpers/redis.js';
import { botCall, createTrader, useTradingFixture, type Trader } from '../helpers/trading.js';

type Body = Record<string, unknown> & { position?: Record<string, unknown>; error?: string };

describe('bot trading: /open, /markets, /fees', function () {
  this.timeout(30_000);
  const stack = useTradingFixture({ BTCUSDT: 65000, ETHUSDT: 3500, XAUUSDT: 4000, EURUSDT: 1.16, TSLAUSDT: 430, SPX500USDT: 6700 });
  let trader: Trader;
  beforeEach(async () => {
    trader = await createTrader(stack.mod);
  });

  const open = (body: unknown, who: Trader | null = trader, version: 'v1' | 'v2' = 'v1') =>
    botCall<Body>(stack.api.url, who, 'POST', '/open', body, version);

  it('opens a market long at the live price: qty = margin x leverage / entry, liq, fees stamped; symbol as the spec ticker (BTC)', async () => {
    const r = await open({ symbol: 'btc', side: 'BUY', margin_usd: 100, leverage: 10, sl: 60000, tp: 70000, client_order_id: 'a-1' });
    expect(r.status).to.equal(200);
    expect(r.body.ok).to.equal(true);
    expect(r.body.idempotent).to.equal(false);
    const p = r.body.position!;
    expect(p).to.include({
      symbol: 'BTC',
      side: 'long',
      status: 'open',
      entry: 65000,
      entry_price: 65000,
      margin: 100,
      margin_usd: 100,
      leverage: 10,
      sl: 60000,
      tp: 70000,
      fee_rate_pct: 0.055,
      fee_venue: null,
      account: 'main',
      asset_class: 'crypto',
    });
    expect(p.qty as number).to.be.closeTo(1000 / 65000, 1e-12);
    expect(p.liq_price).to.equal(58825);
    expect(p.fee_open_usd).to.equal(0.55);
    expect(p.mark_price).to.equal(65000);
    expect(p.unrealized_pnl_usd).to.equal(-1.1);
    expect(p.id).to.match(/^bp[0-9a-z]+$/);
    expect(p.opened_ts).to.be.a('number');
    expect(p).to.not.have.any.keys('v', 'funding_carry_usd', 'funding_from_ts');
  });

  it('accepts every side alias in any case and a symbol as BTC, BTCUSDT or BTC-USDT', async () => {
    for (const [side, want] of [
      ['long', 'long'],
      ['SHORT', 'short'],
      ['Sell', 'short'],
      ['b', 'long'],
      ['ask', 'short'],
      ['bull', 'long'],
      ['Bear', 'short'],
      ['up', 'long'],
      ['down', 'short'],
      [1, 'long'],
      [-1, 'short'],
      ['-1', 'short'],
    ] as const) {
      const r = await open({ symbol: 'BTC-USDT', side, margin_usd: 5, leverage: 2 });
      expect(r.status, String(side)).to.equal(200);
      expect(r.body.position!.side, String(side)).to.equal(want);
      expect(r.body.position!.symbol).to.equal('BTC');
    }
  });

  it('answers v2 in the envelope with the v1 body minus ok', async () => {
    const r = await open({ symbol: 'ETHUSDT', side: 'short', margin_usd: 10, leverage: 5 }, trader, 'v2');
    expect(r.status).to.equal(200);
    expect(r.body.ok).to.equal(true);
    const data = r.body.data as Body;
    expect(data).to.have.keys('position', 'idempotent', 'fill');
    expect(data.fill).to.deep.equal({ requested_margin_usd: 10, filled_margin_usd: 10, fill_pct: 100, partial: false });
    expect(data.position!.side).to.equal('short');
    expect(r.body.ts).to.be.a('number');
  });

  it('refuses every out-of-range input with its named code, never clamping, and writes nothing', async () => {
    await open({ symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2 }); // the book exists
    const before = await snapshotRedis(stack.redis);
    const cases: [Record<string, unknown>, number, string, Record<string, unknown>?][] = [
      [{ side: 'long', margin_usd: 10, leverage: 2 }, 400, 'symbol_required'],
      [{ symbol: '', side: 'long', margin_usd: 10, leverage: 2 }, 400, 'symbol_required'],
      [{ symbol: 'BTC', margin_usd: 10, leverage: 2 }, 400, 'side_required', { accepted: ['long', 'short', 'buy', 'sell'] }],
      [{ symbol: 'BTC', side: 'sideways', margin_usd: 10, leverage: 2 }, 400, 'side_required'],
      [{ symbol: 'BTC', side: 'long', margin_usd: 0.5, leverage: 2 }, 400, 'margin_usd_min_1'],
      [{ symbol: 'BTC', side: 'long', margin_usd: 100_001, leverage: 2 }, 400, 'margin_usd_max_100000'],
      [{ symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 0.5 }, 400, 'leverage_min'],
      [{ symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 1001 }, 400, 'leverage_max', { symbol: 'BTC', max: 1000, requested: 1001 }],
      [{ symbol: 'XAU', side: 'long', margin_usd: 10, leverage: 21 }, 400, 'leverage_max', { symbol: 'XAU', max: 20, requested: 21 }],
      [{ symbol: 'EURUSDT', side: 'long', margin_usd: 10, leverage: 51 }, 400, 'leverage_max', { max: 50 }],
      [{ symbol: 'TSLA', side: 'long', margin_usd: 10, leverage: 50.5 }, 400, 'leverage_max', { max: 50 }],
      [{ symbol: 'SPX500', side: 'short', margin_usd: 10, leverage: 25 }, 400, 'leverage_max', { max: 20 }],
      [{ symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2, sl: 66000 }, 400, 'sl_wrong_side', { live: 65000 }],
      [{ symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2, tp: 64000 }, 400, 'tp_wrong_side', { live: 65000 }],
      [{ symbol: 'BTC', side: 'short', margin_usd: 10, leverage: 2, sl: 64000 }, 400, 'sl_wrong_side'],
      [{ symbol: 'BTC', side: 'short', margin_usd: 10, leverage: 2, tp: 65000 }, 400, 'tp_wrong_side'],
      [{ symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2, trail_pct: 0.01 }, 400, 'trail_pct_invalid'],
      [{ symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2, trail_pct: 51 }, 400, 'trail_pct_invalid'],
      [{ symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2, fee_venue: 'mtgox' }, 400, 'unknown_fee_venue'],
      [
        { symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2, type: 'limit', limit_price: 66000 },
        400,
        'limit_marketable',
        { live: 65000 },
      ],
      [
        { symbol: 'BTC', side: 'short', margin_usd: 10, leverage: 2, type: 'stop', limit_price: 66000 },
        400,
        'stop_wrong_side',
        { live: 65000 },
      ],
      [{ symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2, type: 'limit' }, 400, 'limit_price_required'],
      [{ symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2, limit_price: 60000 }, 400, 'invalid_param', { param: 'type' }],
      [{ symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2, reduce_only: true }, 400, 'reduce_only_unsupported'],
      [{ symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2, post_only: true }, 400, 'post_only_unsupported'],
      [{ symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2, margin_mode: 'cross' }, 400, 'margin_mode_unsupported'],
      [{ symbol: 'NOPECOIN', side: 'long', margin_usd: 10, leverage: 2 }, 404, 'unknown_symbol'],
      [{ symbol: 'BTC', side: 'long', margin_usd: 'ten', leverage: 2 }, 400, 'invalid_param'],
      [{ symbol: 'BTC', side: 'long', leverage: 2 }, 400, 'missing_param'],
    ];
    for (const [body, status, code, extras] of cases) {
      const r = await open(body);
      expect(r.status, `${code} ${JSON.stringify(body)}`).to.equal(status);
      expect(r.body.error, JSON.stringify(body)).to.equal(code);
      expect(r.body.message).to.be.a('string');
      if (extras) expect(r.body).to.deep.include(extras);
      const v2 = await open(body, trader, 'v2');
      expect((v2.body.error as unknown as { code: string }).code).to.equal(code);
    }
    const after = await snapshotRedis(stack.redis);
    expect(changedKeys(before, after, isRequestBookkeeping)).to.deep.equal([]);
  });

  it('says in each refusal which rule failed, in words', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ trail_pct: 0.01 }, 'trail_pct_invalid', 'trail_pct must be 0 (off) or a distance from 0.05 to 50 percent'],
      [{ margin_usd: 0.5 }, 'margin_usd_min_1', 'margin_usd must be at least 1 USD'],
      [{ margin_usd: 100_001 }, 'margin_usd_max_100000', 'margin_usd must be at most 100000 USD'],
      [{ leverage: 0.5 }, 'leverage_min', 'leverage must be at least 1 (1x: no leverage)'],
      [{ client_order_id: 'has space' }, 'invalid_param', 'client_order_id must be printable characters without spaces (1-64)'],
    ];
    for (const [change, code, message] of cases) {
      const r = await open({ symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2, ...change });
      expect(r.status, code).to.equal(400);
      expect(r.body).to.include({ error: code, message, param: Object.keys(change)[0] });
    }
    const pct = await botCall<Body>(stack.api.url, trader, 'POST', '/close', { id: 'bpx', pct: 0 });
    expect(pct.body).to.include({ error: 'invalid_param', message: 'pct is the percent of the position to close: from 1 to 100' });
  });

  it('refuses to fill without a fresh price (400 no_price)', async () => {
    await stack.redis.set(
      keys.marketQuote('ETHUSDT'),
      JSON.stringify({ symbol: 'ETHUSDT', price: 3500, venues: 1, changePct24h: null, ts: Date.now() - 60_000 }),
    );
    const r = await open({ symbol: 'ETH', side: 'long', margin_usd: 10, leverage: 2 });
    expect(r.status).to.equal(400);
    expect(r.body).to.include({ error: 'no_price', symbol: 'ETH' });
  });

  it('prices a dry run with the fields the spec lists and writes nothing', async () => {
    const before = await snapshotRedis(stack.redis);
    const r = await open({ symbol: 'BTC', side: 'short', margin_usd: 200, leverage: 500, dry_run: true, fee_venue: 'binance' });
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ ok: true, dry_run: true });
    const p = r.body.position!;
    expect(p).to.not.have.property('id');
    expect(p).to.include({ entry: 65000, leverage: 500, leverage_max: 1000, fee_venue: 'binance', margin_usd: 200 });
    expect(p.qty as number).to.be.closeTo((200 * 500) / 65000, 1e-9);
    // 500x: the binance rate 0.040% is capped at 10 / 500 = 0.02%
    expect(p.taker_fee_pct).to.equal(0.02);
    expect(p.fee_round_trip_usd as number).to.be.closeTo(0.2 * 200, 1e-9);
    expect(p.liq_price as number).to.be.above(65000);
    expect(p.liq_distance_pct as number).to.be.above(0);
    expect(p).to.include({ fee_vs_marginpad_default_usd: 0, fee_vs_default_usd: 0 }); // both capped at this leverage
    const low = await open({ symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10, dry_run: true, fee_venue: 'binance' });
    expect(low.body.position!.fee_vs_marginpad_default_usd as number).to.be.closeTo((2 * 1000 * (0.04 - 0.055)) / 100, 1e-9);
    const after = await snapshotRedis(stack.redis);
    expect(changedKeys(before, after, isRequestBookkeeping)).to.deep.equal([]);
  });

  it('refuses opens on a TradFi price whose market its venue says is closed (409 market_closed); closes still fill', async () => {
    const held = await open({ symbol: 'XAU', side: 'long', margin_usd: 100, leverage: 20 });
    expect(held.status).to.equal(200);
    await stack.prices.setMarketClosed('XAUUSDT', true);
    try {
      const refused = await open({ symbol: 'XAU', side: 'short', margin_usd: 100, leverage: 20 });
      expect([refused.status, refused.body.error]).to.deep.equal([409, 'market_closed']);
      expect(refused.body).to.include({ symbol: 'XAU', asset_class: 'metal' });
      // /markets says so before an open is tried
      const metals = await botCall<{ markets: Record<string, unknown>[] }>(stack.api.url, trader, 'GET', '/markets?class=metal');
      expect(metals.body.markets.find((m) => m.symbol === 'XAUUSDT')).to.include({ market_closed: true });
      expect((await open({ symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10 })).status).to.equal(200);
      const closed = await botCall<Body>(stack.api.url, trader, 'POST', '/close', { id: held.body.position!.id });
      expect(closed.status).to.equal(200);
    } finally {
      await stack.prices.setMarketClosed('XAUUSDT', false);
    }
    expect((await open({ symbol: 'XAU', side: 'short', margin_usd: 100, leverage: 20 })).status).to.equal(200);
  });

  it('stamps the class rate on other classes, and the account fee venue on crypto only; open positions keep their rate', async () => {
    const xau = await open({ symbol: 'XAU', side: 'long', margin_usd: 100, leverage: 20 });
    expect(xau.body.position).to.include({ symbol: 'XAU', asset_class: 'metal', fee_rate_pct: 0.015 });
    const eur = await open({ symbol: 'EUR', side: 'short', margin_usd: 100, leverage: 50 });
    expect(eur.body.position).to.include({ asset_class: 'forex', fee_rate_pct: 0.008 });
    const set = await botCall<Body>(stack.api.url, trader, 'POST', '/fees', { venue: 'Bitget' });
    expect(set.body).to.deep.equal({ ok: true, fee_venue: 'bitget' });
    const btc = await open({ symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10 });
    expect(btc.body.position).to.include({ fee_venue: 'bitget', fee_rate_pct: 0.048 });
    const gold = await open({ symbol: 'XAU', side: 'long', margin_usd: 100, leverage: 10 });
    expect(gold.body.position).to.include({ fee_venue: null, fee_rate_pct: 0.015 });
    const explicit = await open({ symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10, fee_venue: null });
    expect(explicit.body.position).to.include({ fee_venue: null, fee_rate_pct: 0.055 });
    await botCall(stack.api.url, trader, 'POST', '/fees', { venue: 'mexc' });
    const list = await botCall<{ positions: Record<string, unknown>[] }>(stack.api.url, trader, 'GET', '/positions');
    expect(list.body.positions.find((p) => p.id === btc.body.position!.id)).to.include({ fee_venue: 'bitget', fee_rate_pct: 0.048 });
    // the key gate reads the venue with every request: a change applies to the very next open
    expect((await open({ symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10 })).body.position).to.include({
      fee_venue: 'mexc',
      fee_rate_pct: 0.02,
    });
    await botCall(stack.api.url, trader, 'POST', '/fees', { venue: null });
    expect((await open({ symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10 })).body.position).to.include({
      fee_venue: null,
      fee_rate_pct: 0.055,
    });
    await botCall(stack.api.url, trader, 'POST', '/fees', { venue: 'mexc' });
    const fees = await botCall<Body>(stack.api.url, trader, 'GET', '/fees');
    expect(fees.body.fee_venue).to.equal('mexc');
    const bad = await botCall<Body>(stack.api.url, trader, 'POST', '/fees', { venue: 'ftx' });
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.equal('unknown_fee_venue');
    const cleared = await botCall<Body>(stack.api.url, trader, 'POST', '/fees', { venue: null }, 'v2');
    expect(cleared.body.data).to.deep.equal({ fee_venue: null });
  });

  it("lists the original's nine fee venues (names, rates, discounts, maker rates, code) and stamps their effective rates", async () => {
    // the numbers themselves are checked against the original's table in test/unit/engine.test.ts: here, that /fees serves them
    const fees = await botCall<{ venues: Record<string, unknown>[] }>(stack.api.url, trader, 'GET', '/fees');
    const table = fees.body.venues.map((v) => [v.venue, v.taker_pct, v.referral_discount_pct, v.effective_taker_pct, v.maker_pct, v.code]);
    expect(table).to.deep.equal(
      FEE_VENUES.map((v) => [v.venue, v.takerPct, v.referralDiscountPct, venueEffectivePct(v), v.makerPct, v.code]),
    );
    for (const [venue, rate] of [
      ['hyperliquid', 0.0432],
      ['bybit', 0.044],
      ['gate', 0.04],
      ['kucoin', 0.06],
    ] as const) {
      const r = await open({ symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10, fee_venue: venue });
      expect(r.body.position, venue).to.include({ fee_venue: venue, fee_rate_pct: rate });
    }
  });

  it('answers the venue difference of a dry run under the spec name and the original one; fee_venue null without a venue', async () => {
    const hl = await open({ symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10, dry_run: true, fee_venue: 'hyperliquid' });
    const p = hl.body.position!;
    expect(p).to.include({ fee_venue: 'hyperliquid', taker_fee_pct: 0.0432 });
    expect(p.fee_vs_marginpad_default_usd as number).to.be.closeTo((2 * 1000 * (0.0432 - 0.055)) / 100, 1e-9);
    expect(p.fee_vs_default_usd).to.equal(p.fee_vs_marginpad_default_usd);
    const plain = await open({ symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10, dry_run: true }, trader, 'v2');
    const data = (plain.body.data as Body).position!;
    expect(data).to.have.property('fee_venue', null);
    expect(data).to.not.have.any.keys('fee_vs_marginpad_default_usd', 'fee_vs_default_usd');
  });

  it('goes back to the class rates on POST /fees with an empty venue, as with null', async () => {
    await botCall(stack.api.url, trader, 'POST', '/fees', { venue: 'hyperliquid' });
    for (const venue of ['', '  ']) {
      const r = await botCall<Body>(stack.api.url, trader, 'POST', '/fees', { venue });
      expect(r.status, JSON.stringify(venue)).to.equal(200);
      expect(r.body).to.deep.equal({ ok: true, fee_venue: null });
      expect((await botCall<Body>(stack.api.url, trader, 'GET', '/fees')).body.fee_venue).to.equal(null);
      expect((await open({ symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10 })).body.position).to.include({
        fee_venue: null,
        fee_rate_pct: 0.055,
      });
      await botCall(stack.api.url, trader, 'POST', '/fees', { venue: 'bybit' });
    }
  });

  it('lists markets with class, leverage cap and taker fee; filters by class', async () => {
    const all = await botCall<{ markets: Record<string, unknown>[]; count: number }>(stack.api.url, trader, 'GET', '/markets');
    expect(all.status).to.equal(200);
    expect(all.body.count).to.equal(all.body.markets.length);
    const by = Object.fromEntries(all.body.markets.map((m) => [m.symbol, m]));
    expect(by.BTCUSDT).to.deep.equal({
      symbol: 'BTCUSDT',
      asset_class: 'crypto',
      max_leverage: 1000,
      taker_fee_pct: 0.055,
      market_closed: false,
    });
    expect(by.XAUUSDT).to.deep.equal({
      symbol: 'XAUUSDT',
      asset_class: 'metal',
      max_leverage: 20,
      taker_fee_pct: 0.015,
      market_closed: false,
    });
    expect(by.SPX500USDT).to.include({ asset_class: 'index', max_leverage: 20, taker_fee_pct: 0.015 });
    expect(by.TSLAUSDT).to.include({ asset_class: 'stock', max_leverage: 50, taker_fee_pct: 0.02 });
    expect(by.EURUSDT).to.include({ asset_class: 'forex', max_leverage: 50, taker_fee_pct: 0.008 });
    const metals = await botCall<{ markets: Record<string, unknown>[] }>(stack.api.url, trader, 'GET', '/markets?class=METAL');
    expect(metals.body.markets.map((m) => m.symbol)).to.deep.equal(['XAUUSDT']);
    const bad = await botCall<Body>(stack.api.url, trader, 'GET', '/markets?class=bonds');
    expect(bad.status).to.equal(400);
    const v2 = await botCall<Body>(stack.api.url, trader, 'GET', '/markets?class=forex', undefined, 'v2');
    expect((v2.body.data as { count: number }).count).to.equal(1);
  });

  it('says which classes no connected venue lists now (unlisted_classes)', async () => {
    const markets = (query = '') => botCall<Body>(stack.api.url, trader, 'GET', `/markets${query}`);
    expect((await markets()).body.unlisted_classes).to.deep.equal([]);
    await stack.prices.setVolumes({ SPX500USDT: null });
    try {
      const index = await markets('?class=index');
      expect(index.body).to.deep.include({ markets: [], count: 0, unlisted_classes: ['index'] });
    } finally {
      await stack.prices.setVolumes({ SPX500USDT: 1e9 });
    }
  });

  it('caps smaller alts below 1000x: 999x on ADA, LINK, SUI, ORDI or ARB is refused with the cap /markets lists', async () => {
    const live: Record<string, number> = { ADAUSDT: 0.45, LINKUSDT: 15, SUIUSDT: 1.1, ORDIUSDT: 40, ARBUSDT: 0.9 };
    await stack.prices.set(live);
    const markets = await botCall<{ markets: { symbol: string; max_leverage: number }[] }>(
      stack.api.url,
      trader,
      'GET',
      '/markets?class=crypto',
    );
    const caps = Object.fromEntries(markets.body.markets.map((m) => [m.symbol, m.max_leverage]));
    for (const coin of ['ADA', 'LINK', 'SUI', 'ORDI', 'ARB']) {
      const symbol = `${coin}USDT`;
      expect(caps[symbol], coin).to.be.within(100, 200);
      const r = await open({ symbol: coin, side: 'long', margin_usd: 10, leverage: 999, dry_run: true });
      expect(r.status, coin).to.equal(400);
      expect(r.body, coin).to.include({ error: 'leverage_max', symbol: coin, max: caps[symbol], requested: 999 });
      const limit = await open({
        symbol: coin,
        side: 'long',
        margin_usd: 10,
        leverage: 999,
        type: 'limit',
        limit_price: live[symbol] * 0.99,
        dry_run: true,
      });
      expect(limit.body, coin).to.include({ error: 'leverage_max', max: caps[symbol] });
      const atCap = await open({ symbol: coin, side: 'long', margin_usd: 10, leverage: caps[symbol], dry_run: true });
      expect(atCap.status, coin).to.equal(200);
      expect(atCap.body.position, coin).to.include({ leverage_max: caps[symbol] });
    }
    const placed = await open({ symbol: 'ADA', side: 'long', margin_usd: 10, leverage: 10, type: 'limit', limit_price: 0.44 });
    const order = placed.body.order as { order_id: string };
    const modified = await botCall<Body>(stack.api.url, trader, 'POST', '/modify_order', { order_id: order.order_id, leverage: 999 });
    expect(modified.body).to.include({ error: 'leverage_max', max: caps.ADAUSDT, requested: 999 });
  });

  it('caps crypto by the majors list and 24 h volume tiers; a symbol without volume data gets the most conservative tier', async () => {
    await stack.prices.set({ AVAXUSDT: 35, DOTUSDT: 7.2, NEARUSDT: 5.5, WIFUSDT: 2.5, HYPEUSDT: 40, '1000PEPEUSDT': 0.01, SOLUSDT: 150 });
    await stack.prices.setVolumes({
      AVAXUSDT: 2e9,
      DOTUSDT: 3e8,
      NEARUSDT: 5e7,
      HYPEUSDT: 8e8,
      '1000PEPEUSDT': 6e7,
      WIFUSDT: null,
      SOLUSDT: null,
    });
    const markets = await botCall<{ markets: { symbol: string; max_leverage: number }[] }>(stack.api.url, trader, 'GET', '/markets');
    const caps = Object.fromEntries(markets.body.markets.map((m) => [m.symbol, m.max_leverage]));
    expect(caps).to.include({
      BTCUSDT: 1000,
      HYPEUSDT: 1000,
      '1000PEPEUSDT': 1000,
      AVAXUSDT: 200,
      DOTUSDT: 150,
      NEARUSDT: 100,
      XAUUSDT: 20,
      TSLAUSDT: 50,
    });
    // listed by the feed no longer (no volume data), priced still: tradable at the lowest tier, a major too
    expect(caps).to.not.have.any.keys('WIFUSDT', 'SOLUSDT');
    for (const coin of ['WIF', 'SOL']) {
      const r = await open({ symbol: coin, side: 'short', margin_usd: 10, leverage: 101, dry_run: true });
      expect(r.body, coin).to.include({ error: 'leverage_max', max: 100, requested: 101 });
      expect((await open({ symbol: coin, side: 'short', margin_usd: 10, leverage: 100 })).status, coin).to.equal(200);
    }
    expect((await open({ symbol: 'DOT', side: 'long', margin_usd: 10, leverage: 151, dry_run: true })).body).to.include({
      error: 'leverage_max',
      max: 150,
    });
    expect((await open({ symbol: 'HYPE', side: 'long', margin_usd: 10, leverage: 1000, dry_run: true })).body.position).to.include({
      leverage_max: 1000,
    });
    // an order accepted at 150x keeps it when the cap falls; only a new leverage meets the new cap
    const placed = await open({ symbol: 'DOT', side: 'long', margin_usd: 10, leverage: 150, type: 'limit', limit_price: 7 });
    const orderId = (placed.body.order as { order_id: string }).order_id;
    await stack.prices.setVolumes({ DOTUSDT: 5e7 });
    const moved = await botCall<Body>(stack.api.url, trader, 'POST', '/modify_order', { order_id: orderId, sl: 6 });
    expect(moved.status).to.equal(200);
    expect(moved.body.order).to.include({ leverage: 150, sl: 6 });
    const raised = await botCall<Body>(stack.api.url, trader, 'POST', '/modify_order', { order_id: orderId, leverage: 120 });
    expect(raised.body).to.include({ error: 'leverage_max', max: 100, requested: 120 });
    // the universe moves with the feed's refresh: the next open reads the new volume
    await stack.prices.setVolumes({ DOTUSDT: 1.5e9 });
    expect((await open({ symbol: 'DOT', side: 'long', margin_usd: 10, leverage: 151, dry_run: true })).body.position).to.include({
      leverage_max: 200,
    });
  });

  it('enforces the plan cap of open positions per book with 409 too_many_open', async () => {
    const free = await createTrader(stack.mod, { plan: 'free' });
    const results = await Promise.all(
      Array.from({ length: 55 }, () => open({ symbol: 'ETH', side: 'long', margin_usd: 1, leverage: 1 }, free)),
    );
    expect(results.filter((r) => r.status === 200)).to.have.length(50);
    const refused = results.filter((r) => r.status === 409);
    expect(refused).to.have.length(5);
    expect(refused[0].body).to.include({ error: 'too_many_open', max: 50 });
    expect(await stack.redis.hlen(keys.bookOpen(free.accountId, 'main'))).to.equal(50);
  });

  it('answers a reused client_order_id with the same position and idempotent true, even after the market moved', async () => {
    const first = await open({ symbol: 'BTC', side: 'long', margin_usd: 50, leverage: 3, sl: 64000, client_order_id: 'same' });
    await stack.prices.set({ BTCUSDT: 63000 });
    const again = await open({ symbol: 'BTC', side: 'long', margin_usd: 50, leverage: 3, sl: 64000, client_order_id: 'same' });
    expect(again.status).to.equal(200);
    expect(again.body.idempotent).to.equal(true);
    expect(again.body.position!.id).to.equal(first.body.position!.id);
    expect(again.body.position!.entry).to.equal(65000);
    expect(again.body.position!.mark_price).to.equal(63000);
  });

  it('makes one position of 50 concurrent opens with one client_order_id', async () => {
    const racer = await createTrader(stack.mod);
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        open({ symbol: 'ETH', side: 'short', margin_usd: 20, leverage: 4, client_order_id: 'race-1' }, racer),
      ),
    );
    expect(results.every((r) => r.status === 200)).to.equal(true);
    const ids = new Set(results.map((r) => r.body.position!.id));
    expect(ids.size).to.equal(1);
    expect(results.filter((r) => r.body.idempotent === false)).to.have.length(1);
    expect(await stack.redis.hlen(keys.bookOpen(racer.accountId, 'main'))).to.equal(1);
    expect(await stack.redis.xlen(keys.accountOutbox(racer.accountId))).to.equal(1);
  });

  describe("the fill price read rides the key gate's round trip", () => {
    const held = useHeldGateApi(stack);

    it("sends an open's price read while its key (one seen before) is still being looked up, and fills at that price", async () => {
      // a first call makes the key one this process has found before
      held.gate.releaseNext();
      expect((await botCall<Body>(held.api.url, trader, 'GET', '/usage')).status).to.equal(200);
      const quoteKey = keys.marketQuote('BTCUSDT');
      let sawQuoteRead: () => void = () => undefined;
      const quoteRead = new Promise<void>((resolve) => (sawQuoteRead = resolve));
      const stopWatching = await watchCommands(stack.redis, (args) => {
        if (args[0]?.toLowerCase() === 'get' && args[1] === quoteKey) sawQuoteRead();
      });
      try {
        const called = held.gate.nextCall();
        const response = botCall<Body>(held.api.url, trader, 'POST', '/open', {
          symbol: 'BTC',
          side: 'long',
          margin_usd: 100,
          leverage: 10,
        });
        await called;
        await quoteRead;
        held.gate.release();
        const r = await response;
        expect(r.status).to.equal(200);
        expect(r.body.position).to.include({ symbol: 'BTC', entry: 65000 });
      } finally {
        stopWatching();
      }
    });

    it('keeps the order of answers: a bad key before a bad body, a bad body before the price', async () => {
      held.gate.releaseNext();
      const badKey = await botCall<Body>(
        held.api.url,
        { ...trader, apiKey: `${trader.apiKey.slice(0, -1)}${trader.apiKey.endsWith('a') ? 'b' : 'a'}` },
        'POST',
        '/open',
        '{"symbol":',
      );
      expect(badKey.status).to.equal(401);
      held.gate.releaseNext();
      const badBody = await botCall<Body>(held.api.url, trader, 'POST', '/open', '{"symbol":');
      expect(badBody.status).to.equal(400);
      expect(badBody.body.error).to.equal('invalid_json');
      held.gate.releaseNext();
      const unknown = await botCall<Body>(held.api.url, trader, 'POST', '/open', {
        symbol: 'NOPE',
        side: 'long',
        margin_usd: 10,
        leverage: 2,
      });
      expect(unknown.status).to.equal(404);
      expect(unknown.body.error).to.equal('unknown_symbol');
    });
  });
});
