// @three-masters: position scripts over several keys, the arena close
/**
 * Realism and the simulation profile over HTTP: /realism and /sim as the official clients call them
 * (realism() and sim(): GET for the view, POST with the fields to change), the per-call overrides on
 * /open, positions keeping their fill terms, the budget (402), the seeded refusals, partial fills,
 * latency, book impact, and hostile bodies on both routes.
 */
import { expect } from 'chai';
import { systemClock } from '../../shared/core/clock.js';
import { DepthStore } from '../../shared/market/depth-store.js';
import { PRESET_NAMES, SIM_FIELD_NAMES } from '../../shared/engine/sim-profile.js';
import { fillResult } from '../../shared/paper/orders/order-sweep.js';
import type { Order } from '../../shared/paper/orders/order-types.js';
import { botCall, createTrader, useTradingFixture, type Trader } from '../helpers/trading.js';

type Json = Record<string, unknown>;
type Body = Json & { position?: Json; error?: string };

/** The code of a v2 failure (the envelope's error object). */
const v2Code = (r: { body: Body }): unknown => (r.body.error as unknown as Json).code;

describe('bot trading: /realism, /sim and what they do to /open', function () {
  this.timeout(30_000);
  const stack = useTradingFixture({ BTCUSDT: 65000, ETHUSDT: 3500, LINKUSDT: 20, EURUSDT: 1.16 });
  let trader: Trader;
  beforeEach(async () => {
    trader = await createTrader(stack.mod);
  });

  const call = (method: 'GET' | 'POST', path: string, body?: unknown, version: 'v1' | 'v2' = 'v1', who: Trader = trader) =>
    botCall<Body>(stack.api.url, who, method, path, body, version);
  const open = (body: Json, version: 'v1' | 'v2' = 'v1') => call('POST', '/open', { symbol: 'BTC', side: 'long', ...body }, version);
  const sim = (body: Json) => call('POST', '/sim', body);
  const okSim = async (body: Json) => {
    const r = await sim(body);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body;
  };

  describe('the official client: realism() and sim()', () => {
    it('answers realism() with the switches (all off), tiers, venues, explain and applies_to, in v1 and v2', async () => {
      const v1 = await call('GET', '/realism');
      expect(v1.status).to.equal(200);
      expect(v1.body).to.have.keys('realism', 'defaults', 'effective', 'margin_venues', 'tiers', 'explain', 'applies_to');
      expect(v1.body.realism).to.deep.equal({ slippage: false, margin_tiers: false, margin_venue: '' });
      expect(v1.body.tiers as Json[]).to.have.length(5);
      expect((v1.body.tiers as Json[])[0]).to.include({ tier: 0, mmr_pct: 0.5 });
      expect(v1.body.margin_venues as Json[]).to.have.length(11);
      const v2 = await call('GET', '/realism', undefined, 'v2');
      expect(v2.body).to.include({ ok: true });
      expect((v2.body.data as Json).realism).to.deep.equal(v1.body.realism);
    });

    it('keeps omitted fields on POST realism and answers { ok, realism }; /sim shows the same three fields', async () => {
      expect((await call('POST', '/realism', { slippage: true })).body).to.deep.equal({
        ok: true,
        realism: { slippage: true, margin_tiers: false, margin_venue: '' },
      });
      const r = await call('POST', '/realism', { margin_venue: 'Binance' }, 'v2');
      expect(r.body).to.include({ ok: true });
      expect(r.body.data).to.deep.equal({ realism: { slippage: true, margin_tiers: false, margin_venue: 'binance' } });
      const view = (await call('GET', '/sim')).body;
      expect(view.sim).to.include({ slippage: true, margin_tiers: false, margin_venue: 'binance' });
      expect(view.realism).to.deep.equal({ slippage: true, margin_tiers: false, margin_venue: 'binance' });
      // and back the other way: /sim changes what /realism shows
      await okSim({ margin_tiers: true, margin_venue: null });
      expect((await call('GET', '/realism')).body.realism).to.deep.equal({ slippage: true, margin_tiers: true, margin_venue: '' });
    });

    it('answers sim() with the eighteen fields, each with its range and meaning, and the eight presets with sources', async () => {
      const view = (await call('GET', '/sim')).body;
      expect(Object.keys(view.sim as Json)).to.have.members(SIM_FIELD_NAMES);
      expect(SIM_FIELD_NAMES).to.have.length(18);
      expect(view.label).to.equal('default');
      const fields = view.fields as Record<string, Json>;
      expect(fields.slippage_bps).to.include({ group: 'fill', min: 0, max: 500, nullable: true, default: null });
      expect(fields.start_balance_usd).to.include({ group: 'book', default: 10000 });
      const presets = view.presets as Record<string, Json>;
      expect(Object.keys(presets)).to.have.members([
        'frictionless',
        'realistic',
        'binance',
        'bybit',
        'okx',
        'hyperliquid',
        'thin_book',
        'brutal',
      ]);
      for (const p of Object.values(presets)) expect(p.source).to.be.a('string').with.length.above(20);
    });

    it('round-trips every preset: POST preset answers it, GET shows its values and its label', async () => {
      for (const name of PRESET_NAMES) {
        const set = await okSim({ preset: name });
        expect(set.label, name).to.equal(name);
        const view = (await call('GET', '/sim')).body;
        expect(view.sim, name).to.deep.equal((view.presets as Record<string, Json>)[name].values);
      }
      expect((await okSim({ reset: true })).label).to.equal('default');
    });

    it('clears a nullable field back to the tables with "" as the Python client sends it; { reset: true } restores the defaults', async () => {
      await okSim({ slippage: true, slippage_bps: 25, taker_bps: 3, mmr_pct: 2 });
      const set = (await call('GET', '/sim')).body.sim as Json;
      expect(set).to.include({ slippage_bps: 25, taker_bps: 3, mmr_pct: 2 });
      await okSim({ slippage_bps: '', taker_bps: '', mmr_pct: '' });
      expect((await call('GET', '/sim')).body.sim).to.include({ slippage: true, slippage_bps: null, taker_bps: null, mmr_pct: null });
      expect((await sim({ slippage_bps: 'lots' })).body.error).to.equal('sim_out_of_range');
      const reset = await okSim({ reset: true });
      expect(reset.label).to.equal('default');
      expect((await call('GET', '/sim')).body.sim).to.include({ slippage: false, slippage_bps: null });
    });
  });

  describe('fills', () => {
    it('slips a per-call open: BTC 65000 long at 1 bp fills at 65006.5, a short at 64993.5; the default stays at 65000', async () => {
      const long = (await open({ margin_usd: 100, leverage: 10, slippage: true })).body.position!;
      expect(long).to.include({ entry: 65006.5, slippage_bps: 1, quoted_price: 65000 });
      expect(long.realism).to.deep.equal({ slippage: true, margin_tiers: false, margin_venue: '' });
      // 1000 / 65006.5 units, 6.5 USD each
      expect(long.slippage_usd as number).to.be.closeTo((1000 / 65006.5) * 6.5, 1e-9);
      const short = (await open({ side: 'short', margin_usd: 100, leverage: 10, slippage: true })).body.position!;
      expect(short.entry).to.equal(64993.5);
      const plain = (await open({ margin_usd: 100, leverage: 10 })).body.position!;
      expect(plain).to.include({ entry: 65000, slippage_bps: 0 });
      expect(plain.realism).to.deep.equal({ slippage: false, margin_tiers: false, margin_venue: '' });
      // thinner crypto pays 5 bp: 20 x 1.0005
      const link = (await open({ symbol: 'LINK', margin_usd: 100, leverage: 10, slippage: true })).body.position!;
      expect(link.entry).to.be.closeTo(20.01, 1e-9);
    });

    it('keeps a position’s terms after the book switches realism off', async () => {
      await call('POST', '/realism', { slippage: true, margin_tiers: true, margin_venue: 'hyperliquid' });
      const first = (await open({ margin_usd: 100, leverage: 10 })).body.position!;
      await call('POST', '/realism', { slippage: false, margin_tiers: false, margin_venue: '' });
      const second = (await open({ margin_usd: 100, leverage: 10 })).body.position!;
      const rows = (await call('GET', '/positions')).body.positions as Json[];
      const a = rows.find((p) => p.id === first.id)!;
      const b = rows.find((p) => p.id === second.id)!;
      expect(a).to.include({ entry: 65006.5, mmr_pct: 1.25, mmr_tier: 0, liq_price: first.liq_price });
      expect(a.realism).to.deep.equal({ slippage: true, margin_tiers: true, margin_venue: 'hyperliquid' });
      expect(b).to.include({ entry: 65000, mmr_pct: 0.5 });
      expect(b.realism).to.deep.equal({ slippage: false, margin_tiers: false, margin_venue: '' });
      // and its closed record too (the arena counts closes by it)
      const closed = (await call('POST', '/close', { id: first.id })).body.position!;
      expect(closed).to.include({ status: 'closed', mmr_pct: 1.25 });
      expect(closed.realism).to.deep.equal({ slippage: true, margin_tiers: true, margin_venue: 'hyperliquid' });
    });

    it('raises maintenance with the tiers: 10000 x 20 = 200k is tier 1 (1%): a long at 65000 liquidates at 65000 x 0.96 = 62400', async () => {
      const p = (await open({ margin_usd: 10_000, leverage: 20, margin_tiers: true })).body.position!;
      expect(p).to.include({ mmr_pct: 1, mmr_tier: 1, liq_price: 62400 });
      // without: 65000 x (1 - (0.05 - 0.005)) = 62075
      expect((await open({ margin_usd: 10_000, leverage: 20 })).body.position!.liq_price).to.equal(62075);
    });

    it('takes mmr_pct per open (10x at 2%: 65000 x 0.92 = 59800) and refuses it out of range, never clamped', async () => {
      expect((await open({ margin_usd: 100, leverage: 10, mmr_pct: 2 })).body.position!).to.include({ mmr_pct: 2, liq_price: 59800 });
      for (const mmr of [0, 10.5, 1e9]) {
        const r = await open({ margin_usd: 100, leverage: 10, mmr_pct: mmr });
        expect(r.status, String(mmr)).to.equal(400);
        expect(r.body.error).to.equal('sim_out_of_range');
      }
      const v2 = await open({ margin_usd: 100, leverage: 10, mmr_pct: -1 }, 'v2');
      expect(v2Code(v2)).to.equal('sim_out_of_range');
    });

    it('keeps the margin model of a resting entry from its placement: tiers by its notional, the venue rate otherwise', async () => {
      const limit = { type: 'limit', limit_price: 60000 };
      const tiered = await open({ ...limit, margin_usd: 10_000, leverage: 20, margin_tiers: true });
      expect(tiered.status, JSON.stringify(tiered.body)).to.equal(200);
      expect((tiered.body.order as Json).mmr_pct).to.equal(1);
      const order = tiered.body.order as unknown as Order;
      expect(order.realism).to.deep.equal({ slippage: false, margin_tiers: true, margin_venue: '' });
      // its fill (order-sweep.ts) stamps the position with both
      const filled = fillResult({ accountId: trader.accountId, book: 'main' }, { ...order, symbol: 'BTCUSDT' }, 0, 0, 'bpx', 1000).position;
      expect(filled).to.include({ mmr_pct: 1, liq_price: 57600 });
      expect(filled.realism).to.deep.equal(order.realism);
      await call('POST', '/realism', { margin_venue: 'binance' });
      expect(((await open({ ...limit, margin_usd: 100, leverage: 10 })).body.order as Json).mmr_pct).to.equal(0.4);
      // the dry run prices the fill with it: 60000 x (1 - (0.1 - 0.004)) = 54240
      const dry = await open({ ...limit, margin_usd: 100, leverage: 10, dry_run: true });
      expect((dry.body.position_if_filled as Json).liq_price).to.equal(54240);
    });

    it('stamps the cost model: taker_bps 2 is 0.02% per side; funding off is a multiplier of 0', async () => {
      await okSim({ taker_bps: 2, funding: false });
      const p = (await open({ margin_usd: 100, leverage: 10 })).body.position!;
      expect(p).to.include({ fee_rate_pct: 0.02, funding_mult: 0 });
      // a resting entry keeps them from its placement for its fill
      const placed = (await open({ type: 'limit', limit_price: 60000, margin_usd: 100, leverage: 10 })).body.order as unknown as Order;
      expect(placed).to.include({ taker_bps: 2, funding_mult: 0 });
      const filled = fillResult(
        { accountId: trader.accountId, book: 'main' },
        { ...placed, symbol: 'BTCUSDT' },
        0,
        0,
        'bpy',
        1000,
      ).position;
      expect(filled).to.include({ fee_rate_pct: 0.02, funding_mult: 0 });
      // null goes back to the tables
      await okSim({ taker_bps: null });
      expect((await open({ margin_usd: 100, leverage: 10 })).body.position!.fee_rate_pct).to.equal(0.055);
    });

    it("caps leverage and notional by the book's own limits, with max and requested", async () => {
      await okSim({ leverage_max: 10, max_notional_usd: 5000 });
      const lev = await open({ margin_usd: 100, leverage: 20 });
      expect(lev.status).to.equal(400);
      expect(lev.body).to.include({ error: 'leverage_max', max: 10, requested: 20 });
      const big = await open({ margin_usd: 1000, leverage: 10 });
      expect(big.status).to.equal(400);
      expect(big.body).to.include({ error: 'notional_max', max: 5000, requested: 10000 });
    });

    it('fills part of an open past the modelled depth, with fill in the v2 answer; below min_fill_pct refuses it', async () => {
      // 50 bps per 100k: 200k of depth; 4000 x 100 = 400k fills 50%, its average 100 bps over 65000
      await okSim({ impact_bps_per_100k: 50, partial_fills: true, min_fill_pct: 10 });
      const r = await open({ margin_usd: 4000, leverage: 100 }, 'v2');
      const data = r.body.data as Json & { position: Json };
      expect(data.fill).to.deep.equal({ requested_margin_usd: 4000, filled_margin_usd: 2000, fill_pct: 50, partial: true });
      expect(data.position).to.include({ margin: 2000, entry: 65650, fill_pct: 50, requested_margin_usd: 4000 });
      await okSim({ min_fill_pct: 60 });
      const refused = await open({ margin_usd: 4000, leverage: 100 });
      expect(refused.status).to.equal(409);
      expect(refused.body).to.include({ error: 'fill_below_min', fill_pct: 50, min_fill_pct: 60 });
    });

    it('walks a major\'s order book with impact "book": 252 USD over asks 100, 101, 102 averages 80 bps over the touch', async () => {
      // the book is the venue's; its impact in bps of the touch applies to the quote: 65000 x 1.008 = 65520
      await new DepthStore(stack.redis, systemClock).save('BTCUSDT', {
        venue: 'binance',
        ts: Date.now(),
        bids: [[99, 5]],
        asks: [
          [100, 1],
          [101, 1],
          [102, 10],
        ],
      });
      await okSim({ impact_bps_per_100k: 'book' });
      const p = (await open({ margin_usd: 25.2, leverage: 10 })).body.position!;
      expect(p.entry as number).to.be.closeTo(65520, 1e-6);
      expect(p.slippage_bps as number).to.be.closeTo(80, 1e-9);
    });

    it('fills at the price latency_ms after the request, waiting no longer than that', async () => {
      await okSim({ latency_ms: 400 });
      const started = Date.now();
      const pending = open({ margin_usd: 100, leverage: 10 });
      setTimeout(() => void stack.prices.set({ BTCUSDT: 66000 }), 100);
      const r = await pending;
      expect(r.body.position!.entry).to.equal(66000);
      expect(Date.now() - started).to.be.within(390, 2000);
    });
  });

  describe('the book as a budget and the seeded refusals', () => {
    it('answers 402 insufficient_margin with the numbers past free margin, and opens again after a close', async () => {
      await okSim({ margin_enforced: true, start_balance_usd: 1000 });
      expect((await call('POST', '/reset', { confirm: true })).body).to.include({ starting_balance_usd: 1000 });
      const balance = (await call('GET', '/balance')).body;
      expect(balance).to.include({ starting_balance_usd: 1000, margin_enforced: true });
      const first = (await open({ margin_usd: 600, leverage: 2 })).body.position!;
      const refused = await open({ margin_usd: 600, leverage: 2 });
      expect(refused.status).to.equal(402);
      expect(refused.body).to.include({
        error: 'insufficient_margin',
        required_margin_usd: 600,
        free_margin_usd: 400,
        margin_in_use_usd: 600,
        balance_usd: 1000,
      });
      const v2 = await open({ margin_usd: 600, leverage: 2 }, 'v2');
      expect(v2.status).to.equal(402);
      expect(v2Code(v2)).to.equal('insufficient_margin');
      expect((await call('POST', '/close', { id: first.id })).status).to.equal(200);
      expect((await open({ margin_usd: 600, leverage: 2 })).status).to.equal(200);
    });

    it('lets one of twenty racing opens through a budget that holds one (position-open.lua checks it atomically)', async () => {
      await okSim({ margin_enforced: true });
      // 10000 of balance: 8000 fits once
      const results = await Promise.all(Array.from({ length: 20 }, () => open({ margin_usd: 8000, leverage: 2 })));
      expect(results.filter((r) => r.status === 200)).to.have.length(1);
      expect(results.filter((r) => r.status === 402)).to.have.length(19);
      expect((await call('GET', '/balance')).body).to.include({ margin_in_use_usd: 8000 });
    });

    it('rejects the same opens again with the same seed: saving the profile restarts its sequence', async () => {
      await okSim({ reject_rate_pct: 50 });
      const run = async () => {
        const statuses: number[] = [];
        for (let i = 0; i < 16; i++) statuses.push((await open({ margin_usd: 10, leverage: 2 })).status);
        return statuses;
      };
      const first = await run();
      expect(first).to.include(503).and.to.include(200);
      const refused = await open({ margin_usd: 10, leverage: 2 }, 'v2');
      if (refused.status === 503) expect(v2Code(refused)).to.equal('order_rejected');
      await okSim({ reject_rate_pct: 50 });
      expect(await run()).to.deep.equal(first);
      expect((await call('GET', '/sim')).body.reject_seed).to.be.a('number');
    });
  });

  describe('hostile bodies', () => {
    const unchanged = async () => expect((await call('GET', '/sim')).body.label).to.equal('default');

    it('refuses out-of-range and ill-typed /sim fields with a named code and changes nothing', async () => {
      const cases: [Json, string, string][] = [
        [{ slippage_bps: 501 }, 'sim_out_of_range', 'slippage_bps'],
        [{ slippage_bps: -1 }, 'sim_out_of_range', 'slippage_bps'],
        [{ latency_ms: 1.5 }, 'sim_out_of_range', 'latency_ms'],
        [{ latency_ms: 1e12 }, 'sim_out_of_range', 'latency_ms'],
        [{ impact_bps_per_100k: 'deep' }, 'sim_out_of_range', 'impact_bps_per_100k'],
        [{ impact_bps_per_100k: 5000 }, 'sim_out_of_range', 'impact_bps_per_100k'],
        [{ start_balance_usd: 0 }, 'sim_out_of_range', 'start_balance_usd'],
        [{ reject_rate_pct: 51 }, 'sim_out_of_range', 'reject_rate_pct'],
        [{ min_fill_pct: 0 }, 'sim_out_of_range', 'min_fill_pct'],
        [{ funding_mult: 11 }, 'sim_out_of_range', 'funding_mult'],
        [{ mmr_pct: 0 }, 'sim_out_of_range', 'mmr_pct'],
        [{ margin_tiers: 'maybe' }, 'invalid_param', 'margin_tiers'],
        [{ slippage: { $ne: 1 } }, 'invalid_param', 'slippage'],
        [{ leverage_max: [5] }, 'invalid_param', 'leverage_max'],
        [{ margin_venue: 'nowhere' }, 'unknown_margin_venue', ''],
        [{ margin_venue: 'x'.repeat(5000) }, 'invalid_param', 'margin_venue'],
        [{ preset: 'easy' }, 'unknown_preset', ''],
      ];
      for (const [body, code, param] of cases) {
        const r = await sim(body);
        expect(r.status, JSON.stringify(body).slice(0, 80)).to.equal(400);
        expect(r.body.error, JSON.stringify(body).slice(0, 80)).to.equal(code);
        if (param) expect(r.body.param).to.equal(param);
      }
      for (const raw of ['[]', '"x"', '{"slippage":', 'null']) {
        const r = await botCall<Body>(stack.api.url, trader, 'POST', '/sim', raw);
        expect(r.status, raw).to.be.within(400, 499);
      }
      // a prototype key is data, not a switch
      expect((await sim(JSON.parse('{"__proto__": {"margin_enforced": true}}') as Json)).status).to.equal(200);
      await unchanged();
    });

    it('refuses hostile /realism bodies the same way', async () => {
      const cases: [Json, string][] = [
        [{ margin_venue: 'binance ' + 'x' }, 'unknown_margin_venue'],
        [{ margin_venue: 7 }, 'invalid_param'],
        [{ slippage: 'yes please' }, 'invalid_param'],
        [{ margin_tiers: [] }, 'invalid_param'],
      ];
      for (const [body, code] of cases) {
        const r = await call('POST', '/realism', body);
        expect(r.status, JSON.stringify(body)).to.equal(400);
        expect(r.body.error).to.equal(code);
        const v2 = await call('POST', '/realism', body, 'v2');
        expect(v2Code(v2)).to.equal(code);
      }
      expect((await call('GET', '/realism')).body.realism).to.deep.equal({ slippage: false, margin_tiers: false, margin_venue: '' });
      await unchanged();
    });
  });
});
