import { expect } from 'chai';
import { accountUpdate, namedExecutions, orderTradeUpdate, userDataPlan } from '../../shared/binance/user-data-events.js';
import { isListenKeyShaped, listenKeySocketId, randomListenKey } from '../../shared/binance/listen-key-store.js';
import type { ChannelMessage } from '../../shared/push/push-event.js';
import { userStreamTarget } from '../../api/binance/user-stream.js';

const position = (extra: Record<string, unknown> = {}) => ({
  id: 'bp1',
  symbol: 'BTC',
  side: 'long',
  status: 'open',
  entry: 65000,
  qty: 0.01,
  margin: 65,
  leverage: 10,
  fee_open_usd: 0.3575,
  opened_ts: 1000,
  client_order_id: 'bot-1',
  sl: null,
  tp: null,
  ...extra,
});
const message = (id: string, events: [string, Record<string, unknown>][], orders?: ChannelMessage['orders']): ChannelMessage => ({
  id,
  book: 'main',
  messages: events.map(([event, p]) => ({ type: 'position', data: { event, position: p }, ts: 1 })),
  ...(orders ? { orders } : {}),
});

describe('binance user-data events: the account channel as ORDER_TRADE_UPDATE and ACCOUNT_UPDATE', () => {
  it("a position's open is its MARKET order's fill; its ACCOUNT_UPDATE names the pair", () => {
    const plan = userDataPlan(message('1-0', [['opened', position()]]), new Set());
    expect(plan.symbols).to.deep.equal(['BTCUSDT']);
    expect(plan.closingOrderIds).to.deep.equal([]);
    const event = orderTradeUpdate(plan.executions[0], 2000);
    expect(event).to.deep.include({ e: 'ORDER_TRADE_UPDATE', E: 2000, T: 1000 });
    expect(event.o).to.deep.include({ s: 'BTCUSDT', c: 'bot-1', S: 'BUY', o: 'MARKET', x: 'TRADE', X: 'FILLED', i: 'bp1', ap: '65000' });
    expect(event.o).to.deep.include({ n: '0.3575', rp: '0', t: 'bp1-O', R: false, ps: 'BOTH' });
  });

  it("a stop's close is the -SL STOP_MARKET order's fill with the realized P&L; a liquidation an autoclose LIQUIDATION", () => {
    const stopped = position({
      status: 'closed',
      exit: 64000,
      closed_ts: 3000,
      close_reason: 'stop_loss',
      sl: 64000,
      pnl_usd: -10.71,
      fees_usd: 0.7095,
      funding_usd: 0,
    });
    const plan = userDataPlan(message('2-0', [['closed', stopped]]), new Set());
    expect(plan.closingOrderIds).to.deep.equal(['bp1-SL']);
    const [x] = namedExecutions(plan, new Map([['bp1-SL', 'my-stop']]));
    const o = orderTradeUpdate(x, 3001).o as Record<string, unknown>;
    expect(o).to.deep.include({ i: 'bp1-SL', c: 'my-stop', o: 'STOP_MARKET', S: 'SELL', sp: '64000', X: 'FILLED', R: true, cp: true });
    expect(Number(o.rp)).to.be.closeTo(-10, 1e-9);
    expect(Number(o.n)).to.be.closeTo(0.7095 - 0.3575, 1e-9);
    const liquidated = userDataPlan(message('3-0', [['closed', { ...stopped, close_reason: 'liquidation', liquidated: true }]]), new Set());
    expect(liquidated.closingOrderIds).to.deep.equal([]);
    expect(orderTradeUpdate(liquidated.executions[0], 1).o).to.deep.include({ o: 'LIQUIDATION', c: 'autoclose-bp1', x: 'CALCULATED' });
  });

  it("a resting entry's fill is that order's TRADE, and the position it opened is not a MARKET order of its own", () => {
    const order = { order_id: 'lo1', type: 'limit', symbol: 'BTC', side: 'long', limit_price: 60000, margin_usd: 60, leverage: 10 };
    const filled = { ...order, status: 'filled', placed_ts: 1, done_ts: 5, position_id: 'bp9', client_order_id: 'rest-1' };
    const filledByOrder = new Set<string>();
    const fill = userDataPlan(
      message('4-0', [], [{ event: 'order.filled', order: { ...filled, position: position({ id: 'bp9', entry: 60000 }) } }]),
      filledByOrder,
    );
    expect(orderTradeUpdate(fill.executions[0], 6).o).to.deep.include({
      i: 'lo1',
      c: 'rest-1',
      o: 'LIMIT',
      p: '60000',
      x: 'TRADE',
      z: '0.01',
    });
    const opened = userDataPlan(message('4-1', [['opened', position({ id: 'bp9' })]]), filledByOrder);
    expect([opened.executions, opened.symbols]).to.deep.equal([[], ['BTCUSDT']]);
    const cancelled = userDataPlan(
      message('5-0', [], [{ event: 'order.cancelled', order: { ...filled, status: 'cancelled' } }]),
      new Set(),
    );
    expect(orderTradeUpdate(cancelled.executions[0], 6).o).to.deep.include({ x: 'CANCELED', X: 'CANCELED', l: '0' });
  });

  it('ACCOUNT_UPDATE: the wallet, and each symbol as netted (none left: amount 0)', () => {
    const money = { balance_usd: 10009.28, margin_in_use_usd: 0 } as Parameters<typeof accountUpdate>[0];
    const eth = { symbol: 'ETHUSDT', amount: -0.5, entry: 3500, margin: 175, unrealized: 1.5 };
    const net = [eth] as unknown as Parameters<typeof accountUpdate>[2];
    const event = accountUpdate(money, ['BTCUSDT', 'ETHUSDT'], net, 5, 6) as { a: { B: unknown[]; P: Record<string, unknown>[] } };
    expect(event.a.B).to.deep.equal([{ a: 'USDT', wb: '10009.28', cw: '0', bc: '0' }]);
    expect(event.a.P[0]).to.deep.include({ s: 'BTCUSDT', pa: '0', iw: '0' });
    expect(event.a.P[1]).to.deep.include({ s: 'ETHUSDT', pa: '-0.5', ep: '3500', iw: '175', up: '1.5', mt: 'isolated' });
  });

  it("funding is charged at the close only: no FUNDING_FEE update; the close's ORDER update carries it in bc", () => {
    const closed = position({ status: 'closed', exit: 65000, closed_ts: 9000, close_reason: 'manual', pnl_usd: -2.0, fees_usd: 0.715 });
    const plan = userDataPlan(message('6-0', [['closed', { ...closed, funding_usd: 1.285 }]]), new Set());
    expect(plan.fundingUsd).to.equal(1.285);
    const money = { balance_usd: 9998, margin_in_use_usd: 0 } as Parameters<typeof accountUpdate>[0];
    const event = accountUpdate(money, plan.symbols, [], 9000, 9001, plan.fundingUsd) as { a: { m: string; B: unknown[] } };
    expect([event.a.m, event.a.B]).to.deep.equal(['ORDER', [{ a: 'USDT', wb: '9998', cw: '0', bc: '-1.285' }]]);
    expect(userDataPlan(message('7-0', [['opened', position()]]), new Set()).fundingUsd).to.equal(0);
  });

  it('a resting entry placed is its NEW (order.placed on the channel), with nothing filled', () => {
    const order = { order_id: 'lo2', type: 'stop', symbol: 'BTC', side: 'short', limit_price: 64000, margin_usd: 64, leverage: 10 };
    const placed = { ...order, status: 'open', placed_ts: 7, client_order_id: 'rest-2' };
    const plan = userDataPlan(message('8-0', [], [{ event: 'order.placed', order: placed }]), new Set());
    expect(plan.symbols).to.deep.equal([]);
    expect(orderTradeUpdate(plan.executions[0], 8).o).to.deep.include({
      s: 'BTCUSDT',
      i: 'lo2',
      c: 'rest-2',
      o: 'STOP_MARKET',
      S: 'SELL',
      sp: '64000',
      x: 'NEW',
      X: 'NEW',
      q: '0.01',
      z: '0',
    });
  });

  it("listenKeys: 64 characters of [A-Za-z0-9], a socket id that does not show the key; Binance's paths", () => {
    const key = randomListenKey();
    expect(isListenKeyShaped(key)).to.equal(true);
    expect(listenKeySocketId(key)).to.not.include(key);
    const at = (path: string) => userStreamTarget(new URL(path, 'http://x'));
    expect(at(`/ws/${key}`)).to.deep.equal({ listenKey: key, combined: false });
    expect(at(`/private/ws?listenKey=${key}`)).to.deep.equal({ listenKey: key, combined: false });
    expect(at(`/stream?streams=btcusdt@aggTrade/${key}`)).to.deep.equal({ listenKey: key, combined: true });
    expect(at('/api/bot/v2/stream')).to.equal(null);
  });
});
