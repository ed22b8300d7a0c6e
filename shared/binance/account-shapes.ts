/**
 * A book in Binance USDⓈ-M's account shapes: one USDT asset, and positions netted per symbol as one-way mode shows
 * them (positionSide BOTH, positionAmt signed: positive long, negative short), all isolated. Pure.
 */
import { canonicalSymbol } from '../market/canonical-symbol.js';
import type { MoneyFields } from '../paper/positions/position-reads.js';
import type { PositionView } from '../paper/positions/position-view.js';
import { decimal } from './market-shapes.js';

/** The pair a position view names (views show the spec's ticker, BTC, for BTCUSDT). */
export const pairOf = (view: Pick<PositionView, 'symbol'>): string => canonicalSymbol(view.symbol) ?? view.symbol;

/** One symbol's open positions as one net position. */
export interface NetPosition {
  symbol: string;
  /** Signed quantity in the base asset. */
  amount: number;
  /** Quantity-weighted entry. */
  entry: number;
  mark: number;
  unrealized: number;
  /** The isolated margins together. */
  margin: number;
  notional: number;
  leverage: number;
  /** The liquidation nearest the mark (the one that would happen first). */
  liquidation: number;
  /** Maintenance margin of the whole, USDT. */
  maintenance: number;
  updated: number;
}

/**
 * Nets the open positions by symbol. The native API can hold several positions of a symbol (and both sides): they
 * are summed here, signed, as Binance's one-way mode would hold them.
 */
export function netPositions(views: readonly PositionView[], leverageOf: (symbol: string) => number): NetPosition[] {
  const bySymbol = new Map<string, PositionView[]>();
  for (const v of views) bySymbol.set(pairOf(v), [...(bySymbol.get(pairOf(v)) ?? []), v]);
  return [...bySymbol].map(([symbol, list]) => {
    const qty = list.reduce((sum, v) => sum + v.qty, 0);
    const amount = list.reduce((sum, v) => sum + (v.side === 'long' ? v.qty : -v.qty), 0);
    const mark = list.find((v) => typeof v.mark_price === 'number')?.mark_price ?? list[0].entry;
    const nearest = list.reduce((a, b) => (Math.abs(b.liq_price - mark) < Math.abs(a.liq_price - mark) ? b : a));
    return {
      symbol,
      amount,
      entry: qty > 0 ? list.reduce((sum, v) => sum + v.qty * v.entry, 0) / qty : 0,
      mark,
      unrealized: list.reduce((sum, v) => sum + (v.unrealized_pnl_usd ?? 0), 0),
      margin: list.reduce((sum, v) => sum + v.margin, 0),
      notional: amount * mark,
      leverage: list.length === 1 ? list[0].leverage : leverageOf(symbol),
      liquidation: nearest.liq_price,
      maintenance: list.reduce((sum, v) => sum + (v.notional_usd * v.mmr_pct) / 100, 0),
      updated: Math.max(...list.map((v) => v.opened_ts)),
    };
  });
}

const usd = (value: number): string => decimal(value, 8);

/** The USDT asset of a book: wallet is the balance (realized), margin balance adds the unrealized P&L. */
export function usdtAsset(money: MoneyFields, maintenance: number, now: number): Record<string, unknown> {
  return {
    asset: 'USDT',
    walletBalance: usd(money.balance_usd),
    unrealizedProfit: usd(money.unrealized_pnl_usd),
    marginBalance: usd(money.equity_usd),
    maintMargin: usd(maintenance),
    initialMargin: usd(money.margin_in_use_usd),
    positionInitialMargin: usd(money.margin_in_use_usd),
    openOrderInitialMargin: '0',
    ...availability(money, now),
  };
}

/** What the balance row and the account's asset row both say: no cross margin, the free margin available. */
function availability(money: MoneyFields, now: number): Record<string, unknown> {
  return {
    crossWalletBalance: '0',
    crossUnPnl: '0',
    availableBalance: usd(money.free_margin_usd),
    maxWithdrawAmount: usd(money.free_margin_usd),
    marginAvailable: true,
    updateTime: now,
  };
}

/** GET /fapi/v2/balance: one row, USDT. */
export function balanceRow(money: MoneyFields, now: number): Record<string, unknown> {
  return {
    accountAlias: 'perpdesk',
    asset: 'USDT',
    balance: usd(money.balance_usd),
    ...availability(money, now),
  };
}

/** A position of GET /fapi/v3/positionRisk (and of the account's positions with `account`). */
export function positionRiskV3(p: NetPosition): Record<string, unknown> {
  return {
    symbol: p.symbol,
    positionSide: 'BOTH',
    positionAmt: decimal(p.amount),
    entryPrice: decimal(p.entry),
    breakEvenPrice: decimal(p.entry),
    markPrice: decimal(p.mark),
    unRealizedProfit: usd(p.unrealized),
    liquidationPrice: decimal(p.liquidation),
    isolatedMargin: usd(p.margin + p.unrealized),
    notional: usd(p.notional),
    marginAsset: 'USDT',
    isolatedWallet: usd(p.margin),
    initialMargin: usd(p.margin),
    maintMargin: usd(p.maintenance),
    positionInitialMargin: usd(p.margin),
    openOrderInitialMargin: '0',
    adl: 0,
    bidNotional: '0',
    askNotional: '0',
    updateTime: p.updated,
  };
}

/** A position of GET /fapi/v2/positionRisk: v3's with the leverage and margin type it names. */
export function positionRiskV2(p: NetPosition): Record<string, unknown> {
  return {
    ...positionRiskV3(p),
    leverage: String(p.leverage),
    marginType: 'isolated',
    isAutoAddMargin: 'false',
    maxNotionalValue: '0',
  };
}

/** GET /fapi/v3/account (v2 adds the account flags and each position's leverage). */
export function accountV3(money: MoneyFields, positions: readonly NetPosition[], now: number): Record<string, unknown> {
  const maintenance = positions.reduce((sum, p) => sum + p.maintenance, 0);
  return {
    totalInitialMargin: usd(money.margin_in_use_usd),
    totalMaintMargin: usd(maintenance),
    totalWalletBalance: usd(money.balance_usd),
    totalUnrealizedProfit: usd(money.unrealized_pnl_usd),
    totalMarginBalance: usd(money.equity_usd),
    totalPositionInitialMargin: usd(money.margin_in_use_usd),
    totalOpenOrderInitialMargin: '0',
    totalCrossWalletBalance: '0',
    totalCrossUnPnl: '0',
    availableBalance: usd(money.free_margin_usd),
    maxWithdrawAmount: usd(money.free_margin_usd),
    assets: [usdtAsset(money, maintenance, now)],
    positions: positions.map((p) => {
      const {
        symbol,
        positionSide,
        positionAmt,
        unRealizedProfit,
        isolatedMargin,
        notional,
        isolatedWallet,
        initialMargin,
        maintMargin,
        updateTime,
      } = positionRiskV3(p);
      return {
        symbol,
        positionSide,
        positionAmt,
        unrealizedProfit: unRealizedProfit,
        isolatedMargin,
        notional,
        isolatedWallet,
        initialMargin,
        maintMargin,
        updateTime,
      };
    }),
  };
}

export function accountV2(money: MoneyFields, positions: readonly NetPosition[], now: number): Record<string, unknown> {
  const v3 = accountV3(money, positions, now);
  return {
    feeTier: 0,
    canTrade: true,
    canDeposit: false,
    canWithdraw: false,
    multiAssetsMargin: false,
    updateTime: now,
    ...v3,
    positions: positions.map((p) => ({ ...positionRiskV2(p), isolated: true, unrealizedProfit: usd(p.unrealized) })),
  };
}

/** A symbol's leverage brackets: one, up to its max leverage, at the engine's flat maintenance rate. */
export function leverageBracket(symbol: string, maxLeverage: number, maintenancePct: number): Record<string, unknown> {
  return {
    symbol,
    notionalCoef: 1,
    brackets: [
      { bracket: 1, initialLeverage: maxLeverage, notionalCap: 1e12, notionalFloor: 0, maintMarginRatio: maintenancePct / 100, cum: 0 },
    ],
  };
}

/** USDT in the spot API's coin list (GET /sapi/v1/capital/config/getall): no networks, nothing held on spot. */
export function usdtCoin(): Record<string, unknown> {
  return {
    coin: 'USDT',
    name: 'TetherUS',
    depositAllEnable: false,
    withdrawAllEnable: false,
    free: '0',
    locked: '0',
    freeze: '0',
    withdrawing: '0',
    ipoing: '0',
    ipoable: '0',
    storage: '0',
    isLegalMoney: false,
    trading: true,
    networkList: [],
  };
}
