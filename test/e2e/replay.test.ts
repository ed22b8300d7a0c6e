// @three-masters: replay-start, replay-advance and replay-stop over several keys
/**
 * Replay of a past UTC day over HTTP, against the simulated exchange's past days and a real worker
 * role (the replay clock in its BullMQ queue, the outbox relay, the webhook worker).
 *
 * The scripted day (2026-03-10, BTC, flat at 50000 except five minutes) and the positions opened at
 * its start (entry 50000, margin 100):
 *   minute 30: high 50600   D (long 10x, trail 1%) ratchets: mark 50600, stop 50600 x 0.99 = 50094
 *   minute 31: low  50000   (flat) D's trailing stop 50094 is crossed: closed at 50094, at the end of minute 31
 *   minute 40: low  48900   A (long 10x, sl 49000) stopped at 49000
 *   minute 50: high 50900   C (short 50x, liq about 50000 x (1 + 1/50 - 0.005) = 50750) liquidated at its liq_price
 *   minute 60: high 51100   B (long 10x, tp 51000) takes its profit at 51000
 * Each is also run through the live candle sweep (the same positions in a book of their own, the
 * same candles minute by minute): the replay must close each at the live sweep's minute and price.
 */
import { expect } from 'chai';
import { configWith } from '../../shared/config.js';
import { createDomain } from '../../shared/domain.js';
import { keys } from '../../shared/redis/keys.js';
import type { BookRef, Position } from '../../shared/paper/positions/position-types.js';
import { waitFor } from '../helpers/market-wait.js';
import { simControl, TRADING_SIM_ENV, useSimStack } from '../helpers/market-sim.js';
import { connectStream, startReceiver, type TestReceiver } from '../helpers/push.js';
import { MINUTE, seedPositions } from '../helpers/sweep.js';
import { accountServices, botCall, createTrader, TestPrices, type Trader } from '../helpers/trading.js';
import { HOSTILE_STRINGS } from '../helpers/hostile.js';

const DAY = '2026-03-10';
const S = Date.UTC(2026, 2, 10);
const BASE = 50_000;
const at = (minute: number): number => S + minute * MINUTE;
const SCRIPT = [
  { minute: at(30), open: BASE, high: 50_600, low: BASE, close: BASE },
  { minute: at(40), open: BASE, high: BASE, low: 48_900, close: BASE },
  { minute: at(50), open: BASE, high: 50_900, low: BASE, close: BASE },
  { minute: at(60), open: BASE, high: 51_100, low: BASE, close: BASE },
];

interface ReplayGet {
  running: boolean;
  symbol: string;
  day: string;
  speed: number;
  cursor_ts: number;
  cursor_iso: string;
  progress_pct: number;
  price: number;
  finished: boolean;
  bars: { time: number; open: number; high: number; low: number; close: number }[];
}
type Row = Position & { src?: string; mark_price?: number };

describe('replay of a past UTC day', function () {
  this.timeout(120_000);
  const stack = useSimStack({
    env: { ...TRADING_SIM_ENV, WEBHOOK_ALLOW_PRIVATE: '1' },
    prepare: (sim) => simControl(sim, 'day', { symbol: 'BTCUSDT', day: DAY, base: BASE, minutes: SCRIPT }),
    worker: { schedules: [] },
  });
  let receiver: TestReceiver;
  before(async () => {
    receiver = await startReceiver();
    // the symbols the replays name are in the stored universe (the feed would list them)
    await new TestPrices(stack.redis).set({ BTCUSDT: 70_000, ETHUSDT: 3_000 });
  });
  after(() => receiver.close());

  const call = <T = Record<string, unknown>>(
    trader: Trader,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    version: 'v1' | 'v2' = 'v1',
  ) => botCall<T>(stack.api.url, trader, method, path, body, version);
  const trader = () => createTrader(accountServices(stack.redis), { plan: 'business' });
  const cursorAt = (t: Trader, ts: number, what: string) =>
    waitFor(
      async () => {
        const r = await call<ReplayGet>(t, 'GET', '/replay');
        return r.body.cursor_ts >= ts ? r.body : undefined;
      },
      60_000,
      what,
      20,
    );

  it('closes a stop, a target, a liquidation and a trailing stop at the minutes and prices the live sweep does', async () => {
    const t = await trader();
    const started = await call<{ ok: boolean; replay: Record<string, unknown> }>(t, 'POST', '/replay', {
      symbol: 'BTC',
      day: DAY,
      speed: 600,
    });
    expect(started.status, JSON.stringify(started.body)).to.equal(200);
    expect(started.body.replay).to.include({
      symbol: 'BTC',
      day: DAY,
      speed: 600,
      start_ts: S,
      end_ts: S + 86_400_000,
      candles: 1440,
      first_price: BASE,
    });
    expect(String(started.body.replay.id)).to.match(/^rp[0-9a-z]+$/);

    const open = async (body: Record<string, unknown>): Promise<Row> => {
      const r = await call<{ position: Row }>(t, 'POST', '/open', { symbol: 'BTC', margin_usd: 100, ...body });
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      return r.body.position;
    };
    const [a, b, c, d] = await Promise.all([
      open({ side: 'long', leverage: 10, sl: 49_000 }),
      open({ side: 'long', leverage: 10, tp: 51_000 }),
      open({ side: 'short', leverage: 50 }),
      open({ side: 'long', leverage: 10, trail_pct: 1 }),
    ]);
    for (const p of [a, b, c, d]) {
      expect(p.src).to.equal('replay');
      expect(p.entry).to.equal(BASE);
      // opened at the cursor, inside the day and before the first scripted minute (else this run proves nothing)
      expect(p.opened_ts).to.be.within(S, at(30) - 1);
    }

    // the live sweep's verdict on the same positions: a book of their own, the same candles minute by minute
    const book = `~${String(started.body.replay.id)}`;
    const raws = await stack.redis.hvals(keys.bookOpen(t.accountId, book));
    const cmp: BookRef = { accountId: `cmp${Date.now()}`, book: 'main' };
    const copies = raws.map((raw) => {
      const p = JSON.parse(raw) as Row;
      delete p.src;
      return { ...p, account: 'main' } as Position;
    });
    await seedPositions(stack.redis, cmp, copies);
    const sweep = createDomain({ config: configWith({}), redis: stack.redis }).sweep;
    const liveMinute = new Map<string, number>();
    const firstMinute = Math.floor(Math.max(...copies.map((p) => p.opened_ts)) / MINUTE) * MINUTE;
    for (let m = firstMinute; m <= at(60); m += MINUTE) {
      const scripted = SCRIPT.find((s) => s.minute === m) ?? { open: BASE, high: BASE, low: BASE, close: BASE };
      await sweep.candle.sweep([
        { symbol: 'BTCUSDT', minute: m, open: scripted.open, high: scripted.high, low: scripted.low, close: scripted.close },
      ]);
      for (const id of await stack.redis.hkeys(keys.bookClosed(cmp.accountId, cmp.book))) if (!liveMinute.has(id)) liveMinute.set(id, m);
    }
    const live = new Map(
      (await stack.redis.hvals(keys.bookClosed(cmp.accountId, cmp.book))).map((raw) => [
        (JSON.parse(raw) as Position).id,
        JSON.parse(raw) as Position,
      ]),
    );
    expect(live.size).to.equal(4);

    await cursorAt(t, at(61), 'the cursor past minute 60');
    const closed = (await call<{ positions: Row[] }>(t, 'GET', '/positions?status=closed')).body.positions;
    const byId = new Map(closed.map((p) => [p.id, p]));
    const expected: [Row, string, number, number | null][] = [
      [a, 'stop_loss', 40, 49_000],
      [b, 'take_profit', 60, 51_000],
      [c, 'liquidation', 50, c.liq_price],
      [d, 'trailing_stop', 31, 50_094],
    ];
    for (const [p, reason, minute, exit] of expected) {
      const row = byId.get(p.id);
      expect(row, `${reason} closed`).to.not.equal(undefined);
      expect(row).to.include({ close_reason: reason, src: 'replay', status: 'closed' });
      expect(row?.exit).to.be.closeTo(exit ?? 0, 0.01);
      // settled at the end of its replayed minute
      expect(row?.closed_ts).to.equal(at(minute + 1));
      const twin = live.get(p.id);
      expect(liveMinute.get(p.id), `${reason}: the live sweep's minute`).to.equal(at(minute));
      expect(twin).to.include({ exit: row?.exit, close_reason: reason, pnl_usd: row?.pnl_usd });
    }
    expect(byId.get(c.id)?.liquidated).to.equal(true);

    const stop = await call<{ ok: boolean; replay: Record<string, unknown> }>(t, 'POST', '/replay', { act: 'stop' });
    expect(stop.status).to.equal(200);
  });

  it('honours the speed, shows no minute after the cursor, and its bars aggregate the minutes up to it', async () => {
    const t = await trader();
    await call(t, 'POST', '/replay', { symbol: 'BTC', day: DAY, speed: 300 });
    const first = await cursorAt(t, at(1), 'the first minute');
    const t0 = Date.now();
    const second = await cursorAt(t, first.cursor_ts + 40 * MINUTE, 'forty more minutes');
    const elapsed = Date.now() - t0;
    // 40 replayed minutes at 300x take 8 s of real time; the poll adds at most a few of its 20 ms steps
    const speed = (second.cursor_ts - first.cursor_ts) / elapsed;
    expect(speed).to.be.within(300 * 0.85, 300 * 1.1);

    // until minute 30 has ended, its high is nowhere; once it has, it is in the bar that holds it
    for (;;) {
      const r = (await call<ReplayGet>(t, 'GET', '/replay?interval=1&bars=500')).body;
      for (const bar of r.bars) expect(bar.time * 1000 + MINUTE).to.be.at.most(r.cursor_ts);
      const highest = Math.max(...r.bars.map((bar) => bar.high));
      if (r.cursor_ts < at(31)) {
        expect(highest).to.equal(BASE);
        expect(r.price).to.equal(BASE);
      } else {
        expect(highest).to.equal(50_600);
        break;
      }
    }
    const fifteen = (await call<ReplayGet>(t, 'GET', '/replay?interval=15&bars=3')).body;
    expect(fifteen.bars.length).to.be.at.most(3);
    const bucket30 = fifteen.bars.find((bar) => bar.time * 1000 === at(30));
    expect(bucket30?.high).to.equal(50_600);
    expect(fifteen.progress_pct).to.be.closeTo(((fifteen.cursor_ts - S) / 86_400_000) * 100, 0.01);
    expect(fifteen.cursor_iso).to.equal(new Date(fifteen.cursor_ts).toISOString());
    const v2 = await call<{ ok: boolean; data: ReplayGet }>(t, 'GET', '/replay?interval=60&bars=1', undefined, 'v2');
    expect(v2.body.ok).to.equal(true);
    expect(v2.body.data.bars).to.have.length(1);
    await call(t, 'POST', '/replay', { act: 'stop' });
  });

  it('runs two keys on different days at once, each on its own journal', async () => {
    const [one, two] = await Promise.all([trader(), trader()]);
    const other = '2026-02-01';
    const [r1, r2] = await Promise.all([
      call<{ replay: Record<string, unknown> }>(one, 'POST', '/replay', { symbol: 'BTC', day: DAY, speed: 600 }),
      call<{ replay: Record<string, unknown> }>(two, 'POST', '/replay', { symbol: 'ETHUSDT', day: other, speed: 120 }),
    ]);
    expect(r1.status).to.equal(200);
    expect(r2.status).to.equal(200);
    expect(r2.body.replay).to.include({ symbol: 'ETH', day: other, candles: 1440 });
    const [p1, p2] = await Promise.all([
      call<{ position: Row }>(one, 'POST', '/open', { symbol: 'BTC', side: 'long', margin_usd: 50, leverage: 5 }),
      call<{ position: Row }>(two, 'POST', '/open', { symbol: 'ETH', side: 'short', margin_usd: 50, leverage: 5 }),
    ]);
    expect(p1.body.position.entry).to.equal(BASE);
    expect(p2.body.position.entry).to.equal(r2.body.replay.first_price);
    const g1 = (await call<ReplayGet>(one, 'GET', '/replay')).body;
    const g2 = (await call<ReplayGet>(two, 'GET', '/replay')).body;
    expect([g1.symbol, g1.day, g2.symbol, g2.day]).to.deep.equal(['BTC', DAY, 'ETH', other]);
    await cursorAt(two, Date.UTC(2026, 1, 1) + 2 * MINUTE, "the second key's clock");
    const rows1 = (await call<{ positions: Row[] }>(one, 'GET', '/positions')).body.positions;
    const rows2 = (await call<{ positions: Row[] }>(two, 'GET', '/positions')).body.positions;
    expect(rows1.map((p) => p.id)).to.deep.equal([p1.body.position.id]);
    expect(rows2.map((p) => p.id)).to.deep.equal([p2.body.position.id]);
    await Promise.all([call(one, 'POST', '/replay', { act: 'stop' }), call(two, 'POST', '/replay', { act: 'stop' })]);
  });

  it('stops with the summary: everything closed at the cursor, the journal emptied, the key back on its live book', async () => {
    const t = await trader();
    const started = await call<{ replay: { id: string } }>(t, 'POST', '/replay', { symbol: 'BTC', day: DAY, speed: 600 });
    const book = `~${started.body.replay.id}`;
    await Promise.all([
      call(t, 'POST', '/open', { symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10, sl: 49_000 }),
      call(t, 'POST', '/open', { symbol: 'BTC', side: 'short', margin_usd: 100, leverage: 50 }),
      call(t, 'POST', '/open', { symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10 }),
    ]);
    await cursorAt(t, at(51), 'the liquidation minute passed');
    const stop = await call<{ ok: boolean; replay: Record<string, number> & { trades: Record<string, unknown>[] } }>(t, 'POST', '/replay', {
      act: 'stop',
    });
    expect(stop.status, JSON.stringify(stop.body)).to.equal(200);
    const s = stop.body.replay;
    // the stop at 49000 lost: (49000 - 50000) x 0.02 qty - fees; the short was liquidated; the last closed at the cursor's 50000
    expect(s.closes).to.equal(3);
    expect(s.liquidations).to.equal(1);
    expect(s.wins + s.losses).to.equal(3);
    expect(s.trades).to.have.length(3);
    const pnl = s.trades.reduce((sum, row) => sum + Number(row.pnl_usd), 0);
    expect(s.pnl_usd).to.be.closeTo(pnl, 0.011);
    expect(s.return_pct).to.be.closeTo((s.pnl_usd / 10_000) * 100, 0.006);
    expect(s.win_rate_pct).to.be.closeTo((s.wins / 3) * 100, 0.01);
    const left = await stack.redis.exists(
      keys.bookOpen(t.accountId, book),
      keys.bookClosed(t.accountId, book),
      keys.bookClosedByTime(t.accountId, book),
      keys.bookStats(t.accountId, book),
    );
    expect(left).to.equal(0);
    const none = await call(t, 'GET', '/replay');
    expect([none.status, none.body]).to.deep.equal([200, { running: false }]);
    const again = await call<{ error?: string }>(t, 'POST', '/replay', { act: 'stop' });
    expect([again.status, again.body.error]).to.deep.equal([404, 'no_replay']);
    expect((await call<{ positions: Row[] }>(t, 'GET', '/positions?status=closed')).body.positions).to.deep.equal([]);
  });

  it('answers every refusal with its named code', async () => {
    const t = await trader();
    const refuse = async (method: 'GET' | 'POST', path: string, body: unknown, status: number, code: string) => {
      const r = await call<{ error?: string }>(t, method, path, body);
      expect([r.status, r.body.error], `${path} ${JSON.stringify(body)}`).to.deep.equal([status, code]);
      const v2 = await call<{ ok: boolean; error: { code: string } }>(t, method, path, body, 'v2');
      expect([v2.status, v2.body.error.code]).to.deep.equal([status, code]);
    };
    const today = new Date().toISOString().slice(0, 10);
    // no replay running: GET answers { running: false }; only a stop is refused
    expect((await call(t, 'GET', '/replay', undefined, 'v2')).body).to.deep.include({ ok: true, data: { running: false } });
    await refuse('POST', '/replay', { act: 'stop' }, 404, 'no_replay');
    for (const day of ['2026-13-01', '2026-02-30', '10-03-2026', 'yesterday', ''])
      await refuse('POST', '/replay', { symbol: 'BTC', day }, 400, 'day_invalid');
    await refuse('POST', '/replay', { symbol: 'BTC' }, 400, 'day_invalid');
    await refuse('POST', '/replay', { symbol: 'BTC', day: today }, 400, 'day_not_finished');
    await refuse('POST', '/replay', { symbol: 'BTC', day: '2030-01-01' }, 400, 'day_not_finished');
    for (const speed of [0, 0.5, 601, -1, 'fast'])
      await refuse('POST', '/replay', { symbol: 'BTC', day: DAY, speed }, 400, 'speed_invalid');
    await refuse('POST', '/replay', { symbol: 'XAU', day: DAY }, 400, 'replay_crypto_only');
    await refuse('POST', '/replay', { symbol: 'TSLA', day: DAY }, 400, 'replay_crypto_only');
    await refuse('POST', '/replay', { day: DAY }, 400, 'symbol_required');
    await refuse('POST', '/replay', { symbol: 'BTC', day: '2018-06-01' }, 404, 'no_data');

    expect((await call(t, 'POST', '/replay', { symbol: 'BTC', day: DAY })).status).to.equal(200);
    expect((await call<ReplayGet>(t, 'GET', '/replay')).body.speed).to.equal(60);
    await refuse('POST', '/replay', { symbol: 'ETH', day: DAY, speed: 10 }, 409, 'replay_running');
    await refuse(
      'POST',
      '/open',
      { symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2, type: 'limit', limit_price: 40_000 },
      400,
      'replay_market_only',
    );
    await refuse(
      'POST',
      '/open',
      { symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2, type: 'stop', limit_price: 60_000 },
      400,
      'replay_market_only',
    );
    await refuse('POST', '/open', { symbol: 'ETH', side: 'long', margin_usd: 10, leverage: 2 }, 409, 'replay_symbol_only');
    await call(t, 'POST', '/replay', { act: 'stop' });
  });

  it('keeps the live book, other keys, webhooks and the outbox apart from the journal', async () => {
    const mod = accountServices(stack.redis);
    const email = `iso${Date.now()}@example.org`;
    const t = await createTrader(mod, { email, plan: 'business' });
    const sibling = await createTrader(mod, { email, plan: 'business' });
    expect(sibling.accountId).to.equal(t.accountId);
    const prices = new TestPrices(stack.redis);
    await prices.set({ BTCUSDT: 70_000 });
    const hook = await call<{ webhook: { id: string } }>(t, 'POST', '/webhooks', { act: 'add', url: `${receiver.url}/hook` });
    expect(hook.status, JSON.stringify(hook.body)).to.equal(200);
    const liveOpen = await call<{ position: Row }>(t, 'POST', '/open', { symbol: 'BTC', side: 'long', margin_usd: 20, leverage: 2 });
    expect(liveOpen.body.position.entry).to.equal(70_000);
    await waitFor(() => receiver.received.some((d) => d.body.includes(liveOpen.body.position.id)), 15_000, 'the live open delivered');

    // a stream socket of the replaying key: it shows the live book's events only
    const stream = connectStream(stack.api.url, { api_key: t.apiKey });
    await stream.next((m) => m.type === 'snapshot');
    const started = await call<{ replay: { id: string } }>(t, 'POST', '/replay', { symbol: 'BTC', day: DAY, speed: 600 });
    const book = `~${started.body.replay.id}`;
    const inReplay = await call<{ position: Row }>(t, 'POST', '/open', { symbol: 'BTC', side: 'short', margin_usd: 100, leverage: 50 });
    expect(inReplay.body.position.entry).to.equal(BASE);
    // the key sees its journal only, the sibling key the live book only
    expect((await call<{ positions: Row[] }>(t, 'GET', '/positions')).body.positions.map((p) => p.id)).to.deep.equal([
      inReplay.body.position.id,
    ]);
    expect((await call<{ positions: Row[] }>(sibling, 'GET', '/positions')).body.positions.map((p) => p.id)).to.deep.equal([
      liveOpen.body.position.id,
    ]);
    const account = (await call<Record<string, unknown>>(t, 'GET', '/account')).body;
    expect(account.open_positions).to.equal(1);
    await prices.set({ BTCUSDT: 70_000 });
    const siblingOpen = await call<{ position: Row }>(sibling, 'POST', '/open', {
      symbol: 'BTC',
      side: 'long',
      margin_usd: 20,
      leverage: 2,
    });
    expect(siblingOpen.body.position.entry).to.equal(70_000);
    expect(siblingOpen.body.position.src).to.equal(undefined);

    await cursorAt(t, at(51), 'the replayed liquidation');
    await call(t, 'POST', '/replay', { act: 'stop' });
    // the sibling's open after the replay's trades was delivered: every replay event before it would have been too
    await waitFor(() => receiver.received.some((d) => d.body.includes(siblingOpen.body.position.id)), 15_000, 'the sibling open delivered');
    await stream.next((m) => m.type === 'position' && JSON.stringify(m.data).includes(siblingOpen.body.position.id), 15_000);
    expect(JSON.stringify(stream.messages)).to.not.include(inReplay.body.position.id);
    stream.ws.close();
    const delivered = receiver.received.map((d) => d.body).join('\n');
    expect(delivered).to.not.include(inReplay.body.position.id);
    expect(delivered).to.not.include('"src":"replay"');
    const outbox = await stack.redis.xrange(keys.accountOutbox(t.accountId), '-', '+');
    expect(JSON.stringify(outbox)).to.not.include('replay');
    expect(await stack.redis.smembers(keys.paperBooks(t.accountId))).to.not.include(book);
    for (const kind of ['liq', 'sl', 'tp', 'trail']) {
      const members = await stack.redis.zrange(keys.triggerIndex('BTCUSDT', kind as 'liq', 'short'), '0', '-1');
      expect(members.some((m) => m.includes(book))).to.equal(false);
    }
    // the live book is as it was: both live positions open, untouched
    const livePositions = (await call<{ positions: Row[] }>(t, 'GET', '/positions')).body.positions;
    expect(livePositions.map((p) => p.id).sort()).to.deep.equal([liveOpen.body.position.id, siblingOpen.body.position.id].sort());
    expect((await call<Record<string, unknown>>(t, 'GET', '/account')).body.closed_trades).to.equal(0);
  });

  it('refuses hostile bodies and queries with named 4xx codes, never a 500', async () => {
    const t = await trader();
    const values: unknown[] = [...HOSTILE_STRINGS, null, true, [], {}, [1, 2], { $gt: 1 }, 1e308, -0, Number.MAX_SAFE_INTEGER];
    for (const value of values) {
      for (const field of ['symbol', 'day', 'speed', 'act']) {
        const body = { symbol: 'BTC', day: DAY, speed: 600, [field]: value };
        const r = await call<{ error?: string }>(t, 'POST', '/replay', body);
        expect(r.status, `${field}=${JSON.stringify(value)}: ${JSON.stringify(r.body)}`).to.be.within(200, 499);
        if (r.status === 200) await call(t, 'POST', '/replay', { act: 'stop' });
        else expect(r.body.error).to.be.a('string');
      }
      const q = await call<{ error?: string }>(
        t,
        'GET',
        `/replay?interval=${encodeURIComponent(String(value))}&bars=${encodeURIComponent(String(value))}`,
      );
      expect(q.status).to.be.within(400, 499);
    }
    for (const raw of ['[]', '"stop"', '{"act":', 'null', '{"act":"stop","__proto__":{"x":1}}']) {
      const r = await botCall<{ error?: string }>(stack.api.url, t, 'POST', '/replay', raw);
      expect(r.status, raw).to.be.within(400, 499);
    }
  });
});
