// @three-masters: book-reset over seventeen keys
import { expect } from 'chai';
import { keys } from '../../shared/redis/keys.js';
import { botCall, createTrader, useTradingFixture, type Trader } from '../helpers/trading.js';

type Pos = Record<string, unknown> & { id: string };
type Body = Record<string, unknown> & { position?: Pos; error?: string };
interface BookRow {
  account: string;
  open_positions: number;
  closed_trades: number;
  realized_pnl_usd: number;
  reset_ts: number | null;
  lifetime: { closed_trades: number; realized_pnl_usd: number };
  keys: { id: string; name: string; bound: boolean }[];
}

describe('bot trading: books, /accounts, /reset and isolation', function () {
  this.timeout(30_000);
  const stack = useTradingFixture({ BTCUSDT: 60000, ETHUSDT: 3000 });

  const call = (who: Trader, method: 'GET' | 'POST', path: string, body?: unknown, version: 'v1' | 'v2' = 'v1') =>
    botCall<Body>(stack.api.url, who, method, path, body, version);
  const open = async (who: Trader, body: Record<string, unknown> = {}): Promise<Pos> => {
    const r = await call(who, 'POST', '/open', { symbol: 'ETH', side: 'long', margin_usd: 10, leverage: 2, ...body });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body.position!;
  };

  it('keeps accounts apart: a key of account A never sees or touches account B', async () => {
    const a = await createTrader(stack.mod);
    const b = await createTrader(stack.mod);
    const pa = await open(a, { client_order_id: 'shared-coid' });
    const pb = await open(b, { client_order_id: 'shared-coid' });
    expect(pb.id).to.not.equal(pa.id);
    expect(((await call(b, 'GET', '/positions')).body.positions as Pos[]).map((p) => p.id)).to.deep.equal([pb.id]);
    expect((await call(b, 'POST', '/close', { id: pa.id })).body.error).to.equal('position_not_found');
    expect((await call(b, 'POST', '/sltp', { id: pa.id, tp: 99999 })).body.error).to.equal('position_not_found');
    await call(b, 'POST', '/close_all', {});
    expect(((await call(a, 'GET', '/positions')).body.positions as Pos[]).map((p) => p.id)).to.deep.equal([pa.id]);
    await call(b, 'POST', '/fees', { venue: 'kraken' });
    expect((await call(a, 'GET', '/fees')).body.fee_venue).to.equal(null);
    expect((await call(b, 'POST', '/reset', { confirm: true })).status).to.equal(200);
    expect((await call(a, 'GET', '/account')).body.open_positions).to.equal(1);
    const accountsA = (await call(a, 'GET', '/accounts')).body.accounts as BookRow[];
    expect(accountsA.map((r) => r.account)).to.deep.equal(['main']);
    expect(accountsA[0].open_positions).to.equal(1);
    expect(await stack.redis.xlen(keys.accountOutbox(a.accountId))).to.equal(1);
  });

  it('binds a book key to its book: it trades, reads and resets that book only; the main key lists every book with its keys', async () => {
    const main = await createTrader(stack.mod, { plan: 'pro' });
    const email = (await stack.mod.accounts.get(main.accountId))!.email;
    const bot = await createTrader(stack.mod, { email, book: 'scalper' });
    expect(bot.accountId).to.equal(main.accountId);
    const inMain = await open(main);
    const inBook = await open(bot);
    expect(inBook.account).to.equal('scalper');
    expect(inMain.account).to.equal('main');
    expect(((await call(bot, 'GET', '/positions')).body.positions as Pos[]).map((p) => p.id)).to.deep.equal([inBook.id]);
    expect((await call(bot, 'POST', '/close', { id: inMain.id })).body.error).to.equal('position_not_found');
    expect((await call(main, 'POST', '/close', { id: inBook.id })).body.error).to.equal('position_not_found');
    const closed = await call(bot, 'POST', '/close', { id: inBook.id });
    expect(closed.status).to.equal(200);
    expect((await call(bot, 'GET', '/account')).body).to.include({ account: 'scalper', closed_trades: 1 });
    expect((await call(main, 'GET', '/account')).body).to.include({ account: 'main', closed_trades: 0, open_positions: 1 });

    const all = await call(main, 'GET', '/accounts');
    expect(all.body.this_key_account).to.equal('main');
    const rows = all.body.accounts as BookRow[];
    expect(rows.map((r) => r.account)).to.deep.equal(['main', 'scalper']);
    expect(rows[0]).to.include({ open_positions: 1, closed_trades: 0 });
    expect(rows[1]).to.include({ open_positions: 0, closed_trades: 1 });
    expect(rows[0].keys.map((k) => k.bound)).to.deep.equal([false]);
    expect(rows[1].keys).to.have.length(1);
    expect(rows[1].keys[0]).to.include({ bound: true });
    expect(JSON.stringify(rows)).to.not.contain(bot.apiKey);
    const own = await call(bot, 'GET', '/accounts', undefined, 'v2');
    const data = own.body.data as { accounts: BookRow[]; this_key_account: string };
    expect(data.this_key_account).to.equal('scalper');
    expect(data.accounts.map((r) => r.account)).to.deep.equal(['scalper']);

    // resetting the book leaves main untouched
    const reset = await call(bot, 'POST', '/reset', { confirm: true });
    expect(reset.status).to.equal(200);
    expect(reset.body).to.include({ ok: true, archived_trades: 1, cancelled_orders: 0, starting_balance_usd: 10000 });
    expect((await call(main, 'GET', '/account')).body.open_positions).to.equal(1);
  });

  it("a book key's fee venue is its book's only: main keeps the account's, a book without its own follows it", async () => {
    const main = await createTrader(stack.mod, { plan: 'pro' });
    const email = (await stack.mod.accounts.get(main.accountId))!.email;
    const bot = await createTrader(stack.mod, { email, book: 'scalper' });
    const other = await createTrader(stack.mod, { email, book: 'swing' });
    const venueOf = async (who: Trader) => (await call(who, 'GET', '/fees')).body.fee_venue;
    expect((await call(main, 'POST', '/fees', { venue: 'binance' })).body.fee_venue).to.equal('binance');
    expect((await call(bot, 'POST', '/fees', { venue: 'kraken' })).body).to.include({ ok: true, fee_venue: 'kraken' });
    expect(await venueOf(main)).to.equal('binance');
    expect(await venueOf(bot)).to.equal('kraken');
    expect(await venueOf(other)).to.equal('binance');
    expect((await open(main, { symbol: 'BTC' })).fee_venue).to.equal('binance');
    expect((await open(bot, { symbol: 'BTC' })).fee_venue).to.equal('kraken');
    expect((await open(other, { symbol: 'BTC' })).fee_venue).to.equal('binance');
    // cleared by the book key: that book pays the class rate, the account keeps its venue
    expect((await call(bot, 'POST', '/fees', { venue: null })).body.fee_venue).to.equal(null);
    expect(await venueOf(bot)).to.equal(null);
    expect((await open(bot, { symbol: 'BTC' })).fee_venue).to.equal(null);
    expect(await venueOf(main)).to.equal('binance');
    // the main key's change reaches the books that chose nothing of their own
    await call(main, 'POST', '/fees', { venue: 'okx' });
    expect([await venueOf(other), await venueOf(bot)]).to.deep.equal(['okx', null]);
  });

  it('resets only with confirm true and no open position; archives closed trades and restarts at 10000, lifetime numbers kept', async () => {
    const t = await createTrader(stack.mod);
    const p = await open(t);
    for (const body of [{}, { confirm: false }, { confirm: 'yes' }, { confirm: 1 }]) {
      const r = await call(t, 'POST', '/reset', body);
      expect(r.status, JSON.stringify(body)).to.equal(400);
      expect(r.body.error).to.equal('confirm_required');
    }
    const blocked = await call(t, 'POST', '/reset', { confirm: true });
    expect(blocked.status).to.equal(409);
    expect(blocked.body).to.include({ error: 'open_positions_exist', open_positions: 1 });
    await stack.prices.set({ ETHUSDT: 3300 });
    await call(t, 'POST', '/close', { id: p.id });
    const before = await call(t, 'GET', '/account');
    expect(before.body.balance_usd as number).to.be.above(10000);
    const eventsBefore = await stack.redis.xlen(keys.accountOutbox(t.accountId));
    const reset = await call(t, 'POST', '/reset', { confirm: true }, 'v2');
    expect(reset.status).to.equal(200);
    const data = reset.body.data as Record<string, unknown>;
    expect(data).to.include({ archived_trades: 1, cancelled_orders: 0, starting_balance_usd: 10000 });
    expect(data).to.not.have.property('ok');
    expect(await stack.redis.xlen(keys.accountOutbox(t.accountId))).to.equal(eventsBefore + 1);
    const after = await call(t, 'GET', '/account');
    expect(after.body).to.include({
      balance_usd: 10000,
      equity_usd: 10000,
      closed_trades: 0,
      wins: 0,
      realized_pnl_usd: 0,
      reset_ts: data.reset_ts,
    });
    expect((await call(t, 'GET', '/trades')).body.trades).to.deep.equal([]);
    expect((await call(t, 'GET', '/positions?status=closed')).body.positions).to.deep.equal([]);
    const row = ((await call(t, 'GET', '/accounts')).body.accounts as BookRow[])[0];
    expect(row).to.include({ closed_trades: 0, reset_ts: data.reset_ts });
    expect(row.lifetime.closed_trades).to.equal(1);
    expect(row.lifetime.realized_pnl_usd).to.equal(before.body.realized_pnl_usd);
    // the archive holds the closed trade
    expect(await stack.redis.hlen(keys.bookArchiveClosed(t.accountId, 'main', data.reset_ts as number))).to.equal(1);
    // a reset right after (nothing to archive) works too
    expect((await call(t, 'POST', '/reset', { confirm: true })).body.archived_trades).to.equal(0);
  });
});
