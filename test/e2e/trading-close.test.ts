// @three-masters: position-close and order-close over several keys, the sweep
import { expect } from 'chai';
import { keys } from '../../shared/redis/keys.js';
import { useHeldGateApi } from '../helpers/held-gate.js';
import { watchCommands } from '../helpers/redis.js';
import { botCall, createTrader, useTradingFixture, type Trader } from '../helpers/trading.js';

type Pos = Record<string, unknown> & { id: string };
type Body = Record<string, unknown> & { position?: Pos; closed?: Pos | number; remaining?: Pos; error?: string };

describe('bot trading: /close, /close_all, /sltp, /positions, /trades, /account, /balance', function () {
  this.timeout(30_000);
  const stack = useTradingFixture({ BTCUSDT: 60000, ETHUSDT: 3000, XAUUSDT: 4000 });
  let trader: Trader;
  beforeEach(async () => {
    trader = await createTrader(stack.mod);
  });

  const call = (
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    who: Trader = trader,
    version: 'v1' | 'v2' = 'v1',
    headers: Record<string, string> = {},
  ) => botCall<Body>(stack.api.url, who, method, path, body, version, headers);
  const open = async (body: Record<string, unknown>, who: Trader = trader): Promise<Pos> => {
    const r = await call('POST', '/open', { margin_usd: 100, leverage: 10, ...body }, who);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body.position!;
  };
  const events = async (who: Trader = trader): Promise<{ event: string; position: Pos; remaining?: Pos }[]> => {
    const entries = await stack.redis.xrange(keys.accountOutbox(who.accountId), '-', '+');
    return entries.map(([, fields]) => {
      const map = Object.fromEntries(Array.from({ length: fields.length / 2 }, (_, i) => [fields[2 * i], fields[2 * i + 1]]));
      return {
        event: map.event,
        position: JSON.parse(map.position ?? map.reset) as Pos,
        ...(map.remaining ? { remaining: JSON.parse(map.remaining) as Pos } : {}),
      };
    });
  };

  it('closes a whole position at the live price: pnl = gross - round trip (to the cent); one outbox event per transition', async () => {
    const p = await open({ symbol: 'BTC', side: 'long', client_order_id: 'o1' });
    await stack.prices.set({ BTCUSDT: 61000 });
    const r = await call('POST', '/close', { id: p.id });
    expect(r.status).to.equal(200);
    const closed = r.body.closed as Pos;
    expect(r.body.position).to.deep.equal(closed);
    expect(r.body).to.not.have.property('remaining');
    // qty 1000/60000; gross = qty x 1000 = 16.6667; fees = qty x 121000 x 0.00055 = 1.10917
    const qty = 1000 / 60000;
    expect(closed).to.include({ id: p.id, status: 'closed', exit: 61000, exit_price: 61000, close_reason: 'manual', liquidated: false });
    expect(closed.pnl_usd).to.equal(Math.round((qty * 1000 - qty * 121000 * 0.00055) * 100) / 100);
    expect(closed.closed_ts).to.be.a('number');
    const evs = await events();
    expect(evs.map((e) => e.event)).to.deep.equal(['position.opened', 'position.closed']);
    expect(evs[1].position).to.include({ id: p.id, status: 'closed', pnl_usd: closed.pnl_usd });
    const account = await call('GET', '/account');
    expect(account.body).to.include({
      account: 'main',
      open_positions: 0,
      closed_trades: 1,
      wins: 1,
      losses: 0,
      win_rate_pct: 100,
      margin_enforced: false,
      starting_balance_usd: 10000,
    });
    expect(account.body.balance_usd).to.equal(10000 + (closed.pnl_usd as number));
  });

  it('splits a partial close: the closed part is recorded, the rest keeps the id; both parts sum to one close (to the cent)', async () => {
    const a = await open({ symbol: 'ETH', side: 'short', margin_usd: 333, leverage: 7 });
    const b = await open({ symbol: 'ETH', side: 'short', margin_usd: 333, leverage: 7 });
    await stack.prices.set({ ETHUSDT: 2917.37 });
    const part = await call('POST', '/close', { id: a.id, pct: 37.5, symbol: 'ETH' });
    expect(part.status).to.equal(200);
    const closedPart = part.body.closed as Pos;
    const remaining = part.body.remaining!;
    expect(closedPart).to.include({ id: `${a.id}-1`, parent_id: a.id, partial_pct: 37.5, status: 'closed' });
    expect(remaining).to.include({ id: a.id, status: 'open' });
    expect((closedPart.qty as number) + (remaining.qty as number)).to.be.closeTo(a.qty as number, 1e-12);
    expect(remaining.margin as number).to.be.closeTo(333 * 0.625, 1e-9);
    const rest = await call('POST', '/close', { id: a.id, symbol: 'WRONG' });
    const whole = await call('POST', '/close', { id: b.id });
    const sum = Math.round(((closedPart.pnl_usd as number) + ((rest.body.closed as Pos).pnl_usd as number)) * 100);
    expect(sum).to.equal(Math.round(((whole.body.closed as Pos).pnl_usd as number) * 100));
    const evs = await events();
    expect(evs.map((e) => e.event)).to.deep.equal([
      'position.opened',
      'position.opened',
      'position.closed',
      'position.closed',
      'position.closed',
    ]);
    expect(evs[2].remaining).to.include({ id: a.id, status: 'open' });
    const trades = await call('GET', '/trades');
    expect((trades.body.trades as Pos[]).map((t) => t.id).sort()).to.deep.equal([a.id, `${a.id}-1`, b.id].sort());
  });

  it('refuses a partial close that would leave less than the 1 USD minimum margin open, naming the largest share it may close', async () => {
    const p = await open({ symbol: 'ETH', side: 'long', margin_usd: 1.5, leverage: 10 });
    const dust = await call('POST', '/close', { id: p.id, pct: 99.49 });
    expect(dust.status).to.equal(400);
    expect(dust.body).to.include({ error: 'remaining_margin_min_1', remaining_margin_usd: 0.00765, min_margin_usd: 1, max_pct: 33.33 });
    const v2 = await call('POST', '/close', { id: p.id, pct: 50 }, trader, 'v2');
    expect(v2.status).to.equal(400);
    expect((v2.body.error as unknown as { code: string; message: string }).code).to.equal('remaining_margin_min_1');
    expect((v2.body.error as unknown as { message: string }).message).to.match(/0\.75 USD of margin .* close at most 33\.33% or all of it/);
    expect(await stack.redis.hexists(keys.bookOpen(trader.accountId, 'main'), p.id)).to.equal(1);
    const part = await call('POST', '/close', { id: p.id, pct: 33.33 });
    expect(part.status).to.equal(200);
    expect(part.body.remaining!.margin as number).to.be.at.least(1);
    // 1.0005 USD left: no share of it leaves 1 USD, only a whole close
    expect((await call('POST', '/close', { id: p.id, pct: 1 })).body).to.include({ error: 'remaining_margin_min_1', max_pct: null });
    const rest = await call('POST', '/close', { id: p.id, pct: 100 });
    expect(rest.status).to.equal(200);
    expect(rest.body).to.not.have.property('remaining');
    expect((await events()).map((e) => e.event)).to.deep.equal(['position.opened', 'position.closed', 'position.closed']);
  });

  it('settles a close that comes after the live price crossed a stop, target or liquidation (before any sweep) as that trigger, at its level', async () => {
    const stop = await open({ symbol: 'BTC', side: 'long', sl: 59000, tp: 65000 });
    const target = await open({ symbol: 'XAU', side: 'short', leverage: 5, sl: 4200, tp: 3900 });
    const liquidated = await open({ symbol: 'ETH', side: 'long', leverage: 50, sl: 2000 });
    // 1% past the stop, past the target, past the liquidation price (2948.25)
    const crossedAt = await stack.prices.set({ BTCUSDT: 58410, XAUUSDT: 3850, ETHUSDT: 2900 });
    // after the last open's millisecond: a price stamped in it counts as before the open and triggers nothing
    expect(crossedAt).to.be.above(liquidated.opened_ts as number);
    const closes = {
      stop: await call('POST', '/close', { id: stop.id, client_order_id: 'late-1' }),
      target: await call('POST', '/close', { id: target.id, pct: 50 }),
      liquidated: await call('POST', '/close', { id: liquidated.id, symbol: 'ETH' }),
    };
    for (const r of Object.values(closes)) {
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(r.body).to.not.have.property('remaining');
    }
    expect(closes.stop.body.closed).to.include({ id: stop.id, close_reason: 'stop_loss', exit: 59000, liquidated: false });
    // the whole position, whatever pct asked
    expect(closes.target.body.closed).to.include({ id: target.id, close_reason: 'take_profit', exit: 3900, qty: target.qty });
    expect(closes.liquidated.body.closed).to.include({
      id: liquidated.id,
      close_reason: 'liquidation',
      exit: liquidated.liq_price,
      liquidated: true,
    });
    const evs = await events();
    expect(evs.map((e) => [e.event, e.position.id])).to.deep.equal([
      ...[stop, target, liquidated].map((p) => ['position.opened', p.id]),
      ['position.closed', stop.id],
      ['position.closed', target.id],
      ['position.liquidated', liquidated.id],
    ]);
    expect(evs[3].position).to.include({ status: 'closed', close_reason: 'stop_loss', exit: 59000 });
    // the stop's settlement is this client_order_id's: a retry answers it, nothing settles twice
    const again = await call('POST', '/close', { id: stop.id, client_order_id: 'late-1' });
    expect(again.body).to.include({ idempotent: true });
    expect(again.body.closed).to.deep.equal(closes.stop.body.closed);
    expect((await call('GET', '/account')).body).to.include({ closed_trades: 3, open_positions: 0 });
    expect(await stack.redis.hget(keys.bookStats(trader.accountId, 'main'), 'liquidations')).to.equal('1');
  });

  it('refuses a close of an unknown or closed position and a missing id; answers a reused client_order_id idempotently', async () => {
    const p = await open({ symbol: 'BTC', side: 'long' });
    const first = await call('POST', '/close', { id: p.id, client_order_id: 'c-1' });
    const again = await call('POST', '/close', { id: p.id, client_order_id: 'c-1' });
    expect(again.status).to.equal(200);
    expect(again.body.idempotent).to.equal(true);
    expect(again.body.closed).to.deep.equal(first.body.closed);
    const closedAgain = await call('POST', '/close', { id: p.id });
    expect(closedAgain.status).to.equal(409);
    expect(closedAgain.body.error).to.equal('already_closed');
    expect((await call('POST', '/close', { id: 'bpnope' })).body.error).to.equal('position_not_found');
    expect((await call('POST', '/close', {})).body.error).to.equal('id_required');
    expect((await call('POST', '/close', { id: p.id, pct: 0 })).status).to.equal(400);
    expect((await call('POST', '/close', { id: p.id, pct: 101 })).status).to.equal(400);
    expect((await events()).map((e) => e.event)).to.deep.equal(['position.opened', 'position.closed']);
  });

  it('settles a position once when two closes race: one settles, the other gets 409, the balance moves once', async () => {
    for (let round = 0; round < 10; round++) {
      const p = await open({ symbol: 'ETH', side: 'long' });
      const results = await Promise.all([call('POST', '/close', { id: p.id }), call('POST', '/close', { id: p.id, symbol: 'ETH' })]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).to.deep.equal([200, 409]);
    }
    const account = await call('GET', '/account');
    expect(account.body.closed_trades).to.equal(10);
    const evs = await events();
    expect(evs.filter((e) => e.event === 'position.closed')).to.have.length(10);
    const trades = await call('GET', '/trades');
    const realized = (trades.body.trades as Pos[]).reduce((sum, t) => sum + Math.round((t.pnl_usd as number) * 100), 0);
    expect(Math.round((account.body.realized_pnl_usd as number) * 100)).to.equal(realized);
  });

  it('closes every open position with close_all, each as its own transition', async () => {
    await open({ symbol: 'BTC', side: 'long' });
    await open({ symbol: 'ETH', side: 'short' });
    await open({ symbol: 'XAU', side: 'long', leverage: 5 });
    const r = await call('POST', '/close_all', {});
    expect(r.status).to.equal(200);
    expect(r.body.closed).to.equal(3);
    expect((r.body.positions as Pos[]).every((p) => p.status === 'closed' && p.close_reason === 'close_all')).to.equal(true);
    expect((await events()).filter((e) => e.event === 'position.closed')).to.have.length(3);
    const none = await call('POST', '/close_all', undefined, trader, 'v2');
    expect(none.body.data).to.deep.equal({ closed: 0, positions: [] });
  });

  it('sets, clears and keeps stops and targets with /sltp, on the right side of entry only; one event per change', async () => {
    const p = await open({ symbol: 'BTC', side: 'short', sl: 62000 });
    const set = await call('POST', '/sltp', { id: p.id, tp: 55000, trail_pct: 1.5 });
    expect(set.status).to.equal(200);
    // sl shows the stop in force: the trailing stop (60000 + 1.5%) is tighter than the client's 62000
    expect(set.body.position).to.include({ sl: 60900, tp: 55000, trail_pct: 1.5, trail_hwm: 60000 });
    const cleared = await call('POST', '/sltp', { id: p.id, sl: null });
    expect(cleared.body.position).to.include({ sl: 60900, tp: 55000 });
    expect((await call('POST', '/sltp', { id: p.id, sl: 59000 })).body.error).to.equal('sl_wrong_side');
    expect((await call('POST', '/sltp', { id: p.id, tp: 61000 })).body.error).to.equal('tp_wrong_side');
    expect((await call('POST', '/sltp', { id: p.id })).body.error).to.equal('sl_or_tp_required');
    expect((await call('POST', '/sltp', { tp: 1 })).body.error).to.equal('id_required');
    expect((await call('POST', '/sltp', { id: 'bpnope', tp: 1 })).status).to.equal(404);
    const member = `${trader.accountId}|main|${p.id}`;
    expect(await stack.redis.zscore(keys.triggerIndex('BTCUSDT', 'tp', 'short'), member)).to.equal('55000');
    // the stop-loss is cleared, but the trailing stop (60000 + 1.5%) is the stop in force the sweep looks up
    expect(await stack.redis.zscore(keys.triggerIndex('BTCUSDT', 'sl', 'short'), member)).to.equal('60900');
    expect(Number(await stack.redis.zscore(keys.triggerIndex('BTCUSDT', 'liq', 'short'), member))).to.equal(p.liq_price);
    expect((await events()).map((e) => e.event)).to.deep.equal(['position.opened', 'position.updated', 'position.updated']);
    await call('POST', '/close', { id: p.id });
    expect((await call('POST', '/sltp', { id: p.id, tp: 50000 })).body.error).to.equal('already_closed');
    for (const kind of ['sl', 'tp', 'liq', 'trail'] as const)
      expect(await stack.redis.zscore(keys.triggerIndex('BTCUSDT', kind, 'short'), member)).to.equal(null);
  });

  it("shows a trailing stop's current level as sl (the tighter of it and the client's stop), ratcheted; trail_pct absent when it does not trail", async () => {
    const plain = await open({ symbol: 'ETH', side: 'long' });
    expect(plain).to.include({ sl: null, trail_hwm: null });
    expect(plain).to.not.have.property('trail_pct');
    // set at open from trail_pct and the entry; a dry run shows it the same way
    const dry = await call('POST', '/open', { symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10, trail_pct: 5, dry_run: true });
    expect(dry.body.position).to.include({ sl: 57000, trail_pct: 5 });
    const p = await open({ symbol: 'BTC', side: 'long', trail_pct: 5 });
    expect(p).to.include({ sl: 57000, trail_pct: 5, trail_hwm: 60000 });
    const short = await open({ symbol: 'ETH', side: 'short', trail_pct: 2 });
    expect(short).to.include({ sl: 3060, trail_pct: 2, trail_hwm: 3000 });
    // a read ratchets it (v1 and v2 alike)
    await stack.prices.set({ BTCUSDT: 63000 });
    const read = (await call('GET', '/positions')).body.positions as Pos[];
    expect(read.find((x) => x.id === p.id)).to.include({ sl: 59850, trail_pct: 5, trail_hwm: 63000 });
    const v2 = (await call('GET', '/positions', undefined, trader, 'v2')).body.data as { positions: Pos[] };
    expect(v2.positions.find((x) => x.id === p.id)).to.include({ sl: 59850, trail_pct: 5, trail_hwm: 63000 });
    // the client's stop shows when it is the tighter one; the trailing level when the client's is looser
    expect((await call('POST', '/sltp', { id: p.id, sl: 59900 })).body.position).to.include({ sl: 59900, trail_pct: 5 });
    expect((await call('POST', '/sltp', { id: p.id, sl: 58000 })).body.position).to.include({ sl: 59850, trail_pct: 5 });
    // the client's own stop is what is stored and indexed beside the trailing stop: clearing the trail leaves it
    const cleared = (await call('POST', '/sltp', { id: p.id, trail_pct: null })).body.position!;
    expect(cleared).to.include({ sl: 58000, trail_hwm: null });
    expect(cleared).to.not.have.property('trail_pct');
    const member = `${trader.accountId}|main|${p.id}`;
    expect(await stack.redis.zscore(keys.triggerIndex('BTCUSDT', 'sl', 'long'), member)).to.equal('58000');
    const listed = ((await call('GET', '/positions')).body.positions as Pos[]).find((x) => x.id === p.id)!;
    expect(listed).to.include({ sl: 58000, trail_hwm: null });
    expect(listed).to.not.have.property('trail_pct');
    // a closed position shows the stop as it stood when it closed
    const closed = (await call('POST', '/close', { id: short.id })).body.closed as Pos;
    expect(closed).to.include({ sl: 3060, trail_pct: 2 });
  });

  it('lists positions with marks and unrealized P&L equal to what would settle, and answers 304 while nothing structural changed', async () => {
    const p = await open({ symbol: 'BTC', side: 'long', leverage: 20 });
    await stack.prices.set({ BTCUSDT: 60600 });
    const r = await call('GET', '/positions');
    expect(r.status).to.equal(200);
    const etag = r.headers.get('etag')!;
    expect(etag).to.match(/^W\/"/);
    const row = (r.body.positions as Pos[])[0];
    const qty = 2000 / 60000;
    expect(row).to.include({ id: p.id, mark_price: 60600 });
    expect(row.unrealized_pnl_usd).to.equal(Math.round((qty * 600 - qty * 120600 * 0.00055) * 100) / 100);
    await stack.prices.set({ BTCUSDT: 59000 });
    const same = await call('GET', '/positions', undefined, trader, 'v1', { 'if-none-match': etag });
    expect(same.status).to.equal(304);
    await call('POST', '/sltp', { id: p.id, sl: 50000 });
    const changed = await call('GET', '/positions', undefined, trader, 'v1', { 'if-none-match': etag });
    expect(changed.status).to.equal(200);
    expect(changed.headers.get('etag')).to.not.equal(etag);
    const v2 = await call('GET', '/positions', undefined, trader, 'v2');
    expect((v2.body.data as { positions: Pos[] }).positions[0].sl).to.equal(50000);
    const since = Date.now();
    await call('POST', '/close', { id: p.id });
    const closed = await call('GET', `/positions?status=closed&since=${since}`);
    expect((closed.body.positions as Pos[]).map((x) => x.id)).to.deep.equal([p.id]);
    expect((closed.body.positions as Pos[])[0]).to.include({ status: 'closed', exit: 59000 });
    const open2 = await call('GET', '/positions?status=open');
    expect(open2.body.positions).to.deep.equal([]);
    expect((await call('GET', '/positions?status=maybe')).status).to.equal(400);
  });

  it('caps positions at 100 rows', async () => {
    const many = await Promise.all(
      Array.from({ length: 105 }, () => call('POST', '/open', { symbol: 'ETH', side: 'long', margin_usd: 1, leverage: 1 })),
    );
    expect(many.every((r) => r.status === 200)).to.equal(true);
    const r = await call('GET', '/positions');
    expect(r.body.positions).to.have.length(100);
  });

  it('pages trades newest first with before/next_before, at most limit rows a page, each trade once', async () => {
    await Promise.all(Array.from({ length: 7 }, () => open({ symbol: 'ETH', side: 'long', margin_usd: 1, leverage: 1 })));
    await call('POST', '/close_all', {});
    for (let i = 0; i < 3; i++)
      await call('POST', '/close', { id: (await open({ symbol: 'BTC', side: 'short', margin_usd: 1, leverage: 1 })).id });
    const seen: string[] = [];
    let before: number | string | null | undefined;
    let pages = 0;
    do {
      const r = await call('GET', `/trades?limit=3${before ? `&before=${before}` : ''}`);
      expect(r.status).to.equal(200);
      const rows = r.body.trades as Pos[];
      expect(r.body.count).to.equal(rows.length);
      expect(rows.length).to.be.at.most(3);
      expect(r.body.retention_days).to.equal(90);
      for (let i = 1; i < rows.length; i++) expect(rows[i].closed_ts as number).to.be.at.most(rows[i - 1].closed_ts as number);
      seen.push(...rows.map((t) => t.id));
      before = r.body.next_before as number | string | null;
      pages++;
    } while (before && pages < 20);
    expect(seen).to.have.length(10);
    expect(new Set(seen).size).to.equal(10);
    expect((await call('GET', '/trades?limit=0')).status).to.equal(400);
    expect((await call('GET', '/trades?limit=501')).status).to.equal(400);
    for (const bad of ['-1', 'abc', '1.5', '12:', '12:BP', `1:${'a'.repeat(65)}`])
      expect((await call('GET', `/trades?before=${bad}`)).status, bad).to.equal(400);
  });

  it('sums open positions into account and balance: margin in use, unrealized, equity, free margin', async () => {
    await open({ symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10 });
    await open({ symbol: 'ETH', side: 'short', margin_usd: 50, leverage: 2 });
    const positions = await call('GET', '/positions');
    const unrealized =
      (positions.body.positions as Pos[]).reduce((s, p) => s + Math.round((p.unrealized_pnl_usd as number) * 100), 0) / 100;
    const balance = await call('GET', '/balance');
    expect(balance.body).to.deep.equal({
      account: 'main',
      starting_balance_usd: 10000,
      balance_usd: 10000,
      equity_usd: 10000 + unrealized,
      margin_in_use_usd: 150,
      free_margin_usd: 10000 + unrealized - 150,
      unrealized_pnl_usd: unrealized,
      margin_enforced: false,
    });
    const account = await call('GET', '/account', undefined, trader, 'v2');
    expect(account.body.data).to.include({ open_positions: 2, margin_in_use_usd: 150, closed_trades: 0, win_rate_pct: null });
  });

  describe("a close's reads ride the key gate's round trip", () => {
    const held = useHeldGateApi(stack);

    /** Commands seen by Redis while the next close's key gate is held, then that close's answer. */
    async function closeWhileHeld(
      who: Trader,
      body: Record<string, unknown>,
      meanwhile: () => Promise<void> = async () => undefined,
    ): Promise<{ commands: string[][]; status: number; body: Body }> {
      const commands: string[][] = [];
      const stopWatching = await watchCommands(stack.redis, (args) => commands.push(args));
      try {
        const called = held.gate.nextCall();
        const response = botCall<Body>(held.api.url, who, 'POST', '/close', body);
        await called;
        // the reads are sent once the body is parsed (a close that waited for the gate would never send them here)
        const quote = keys.marketQuote('ETHUSDT');
        while (!commands.some((args) => args[0]?.toLowerCase() === 'get' && args[1] === quote))
          await new Promise((resolve) => setImmediate(resolve));
        const whileHeld = [...commands];
        await meanwhile();
        held.gate.release();
        const r = await response;
        return { commands: whileHeld, status: r.status, body: r.body };
      } finally {
        stopWatching();
      }
    }

    it("reads the position of a key's own book and then its price while the key (one seen before) is being looked up", async () => {
      const bound = await createTrader(stack.mod, { book: 'swing' });
      const p = await open({ symbol: 'ETH', side: 'long' }, bound);
      // a first call through this pod makes the key one it has found before, book included
      held.gate.releaseNext();
      expect((await botCall<Body>(held.api.url, bound, 'GET', '/usage')).status).to.equal(200);
      await stack.prices.set({ ETHUSDT: 3100 });
      const { commands, status, body } = await closeWhileHeld(bound, { id: p.id });
      expect(
        commands.some(
          (args) => args[0]?.toLowerCase() === 'hget' && args[1] === keys.bookOpen(bound.accountId, 'swing') && args[2] === p.id,
        ),
      ).to.equal(true);
      // nothing was written before the key was checked: the close script (it names the closed book) waits for the gate
      expect(commands.some((args) => args.includes(keys.bookClosed(bound.accountId, 'swing')))).to.equal(false);
      expect(status).to.equal(200);
      expect(body.closed).to.include({ id: p.id, exit: 3100, status: 'closed', account: 'swing' });
    });

    it('settles once when the position closes between its early read and the close script: 409, the balance moved once', async () => {
      const p = await open({ symbol: 'ETH', side: 'short' });
      held.gate.releaseNext();
      expect((await botCall<Body>(held.api.url, trader, 'GET', '/usage')).status).to.equal(200);
      const { status, body } = await closeWhileHeld(trader, { id: p.id }, async () => {
        expect((await call('POST', '/close', { id: p.id })).status).to.equal(200);
      });
      expect(status).to.equal(409);
      expect(body.error).to.equal('already_closed');
      const account = await call('GET', '/account');
      expect(account.body.closed_trades).to.equal(1);
      expect((await events()).filter((e) => e.event === 'position.closed')).to.have.length(1);
    });
  });
});
