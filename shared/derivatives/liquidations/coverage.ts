/** What each exchange's public stream covers: /api/v1/venues shows it beside the totals. */
import type { LiqExchange } from './liquidation-event.js';

export interface VenueCoverage {
  /** The stream read. */
  stream: string;
  /** How complete the totals are. */
  coverage: string;
}

export const LIQUIDATION_COVERAGE: Record<LiqExchange, VenueCoverage> = {
  binance: {
    stream: 'USDⓈ-M !forceOrder@arr',
    coverage: 'At most the latest liquidation per symbol per second is pushed: totals undercount in busy seconds.',
  },
  bybit: {
    stream: 'v5 linear allLiquidation.<symbol> (the symbol universe)',
    coverage: 'Every liquidation of the followed USDT perpetuals, batched every 500 ms; valued at the bankruptcy price.',
  },
  okx: {
    stream: 'v5 liquidation-orders, SWAP',
    coverage:
      'At most one order per contract per second; OKX states the channel does not represent all liquidations. Sizes converted from ' +
      'contracts with ctVal.',
  },
  bitget: {
    stream: 'v3 public liquidation, usdt-futures and usdc-futures',
    coverage: 'Once a second only the largest long and the largest short liquidation per pair: totals undercount.',
  },
  gate: {
    stream: 'futures.public_liquidates !all, USDT-settled',
    coverage: 'At most one liquidation per contract per second; contracts converted with quanto_multiplier.',
  },
  bitmex: {
    stream: 'realtime liquidation table',
    coverage:
      'Liquidation orders as they are placed (insert), at their order price and size; no exchange timestamp (receipt time); an ' +
      'order cancelled unfilled is still counted.',
  },
  deribit: {
    stream: 'trades.future.{BTC,ETH,USDC}.100ms, trades with a liquidation flag',
    coverage:
      'Every executed liquidation trade on futures and perpetuals; a trade liquidating both sides counts as one long and one short.',
  },
  htx: {
    stream: 'linear-swap public.*.liquidation_orders',
    coverage: 'Every liquidation order of the USDT-margined swaps; valued at the exchange-reported turnover.',
  },
  bitfinex: {
    stream: 'status liq:global',
    coverage: 'Every derivatives position liquidation, each position counted once at its liquidation price; small volumes.',
  },
};
