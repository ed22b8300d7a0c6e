/** Binance USDⓈ-M account reads and settings (SIGNED), over the book of the key. */
import { AppError } from '../../shared/core/errors.js';
import type { Clock } from '../../shared/core/clock.js';
import {
  accountV2,
  accountV3,
  balanceRow,
  leverageBracket,
  netPositions,
  pairOf,
  positionRiskV2,
  positionRiskV3,
  type NetPosition,
} from '../../shared/binance/account-shapes.js';
import type { LeverageStore } from '../../shared/binance/leverage-store.js';
import { decimal } from '../../shared/binance/market-shapes.js';
import { baseTakerPct } from '../../shared/engine/fees.js';
import { MAINTENANCE_MARGIN_PCT } from '../../shared/engine/liquidation.js';
import type { MarketService } from '../../shared/market/market-service.js';
import type { KeyContext } from '../../shared/paper/key-context.js';
import type { BalanceView } from '../../shared/paper/positions/position-reads.js';
import { maxLeverage } from '../../shared/paper/markets/leverage-caps.js';
import type { TradingServices } from '../../shared/paper/trading-services.js';
import { validateInput } from '../routing/validate.js';
import { atPaths, type BinanceRoute, type SignedCall } from './binance-route.js';
import { dualSideBody, leverageBody, marginTypeBody, optionalSymbolQuery, symbolQuery } from './schemas.js';

export interface AccountRouteDeps {
  clock: Clock;
  market: MarketService;
  trading: TradingServices;
  leverage: LeverageStore;
}

/** Binance's answer to a setting it accepted. */
const SUCCESS = { code: 200, msg: 'success' };

export function accountRoutes({ clock, market, trading, leverage }: AccountRouteDeps): BinanceRoute[] {
  const signed = (method: 'get' | 'post', path: string, handle: (call: SignedCall) => unknown): BinanceRoute => ({
    method,
    path,
    signed: true,
    handle,
  });

  /** The book's money and its positions netted per symbol, with the leverage set for each. */
  const book = async (auth: KeyContext, symbol?: string): Promise<{ money: BalanceView; net: NetPosition[] }> => {
    const [money, { positions }] = await Promise.all([trading.reads.balance(auth), trading.reads.snapshot(auth)]);
    const open = positions.filter((p) => p.status === 'open' && (symbol === undefined || pairOf(p) === symbol));
    const settings = await leverage.get(auth.accountId, auth.book, [...new Set(open.map((p) => p.symbol))]);
    return { money, net: netPositions(open, (s) => settings.get(s) ?? 1) };
  };
  const symbolOf = async (params: SignedCall['params']): Promise<string | undefined> => {
    const { symbol } = validateInput<{ symbol?: string }>(optionalSymbolQuery, params);
    return symbol === undefined ? undefined : market.resolveSymbol(symbol);
  };

  return [
    ...atPaths(['/v2/balance', '/v3/balance'], {
      method: 'get',
      signed: true,
      handle: async ({ auth }: SignedCall) => [balanceRow((await book(auth)).money, clock.now())],
    }),
    signed('get', '/v2/account', async ({ auth }) => {
      const { money, net } = await book(auth);
      return accountV2(money, net, clock.now());
    }),
    signed('get', '/v3/account', async ({ auth }) => {
      const { money, net } = await book(auth);
      return accountV3(money, net, clock.now());
    }),
    signed('get', '/v2/positionRisk', async ({ auth, params }) => (await book(auth, await symbolOf(params))).net.map(positionRiskV2)),
    signed('get', '/v3/positionRisk', async ({ auth, params }) => (await book(auth, await symbolOf(params))).net.map(positionRiskV3)),
    signed('post', '/v1/leverage', async ({ auth, params }) => {
      const body = validateInput<{ symbol: string; leverage: number }>(leverageBody, params);
      const symbol = await market.resolveSymbol(body.symbol);
      const entry = (await market.symbols()).find((e) => e.symbol === symbol);
      const cap = maxLeverage(symbol, entry?.assetClass ?? 'crypto', entry?.quoteVolume24h);
      if (body.leverage > cap)
        throw new AppError('leverage_max', `Leverage ${body.leverage} is not valid: ${symbol} allows up to ${cap}`, { max: cap });
      await leverage.set(auth.accountId, auth.book, symbol, body.leverage);
      return { leverage: body.leverage, maxNotionalValue: '0', symbol };
    }),
    signed('post', '/v1/marginType', async ({ params }) => {
      const body = validateInput<{ symbol: string; marginType: 'ISOLATED' | 'CROSSED' }>(marginTypeBody, params);
      await market.resolveSymbol(body.symbol);
      if (body.marginType === 'CROSSED') {
        throw new AppError(
          'margin_mode_unsupported',
          'Margin type cannot be changed: every position here is isolated (CROSSED is not supported).',
        );
      }
      return SUCCESS;
    }),
    signed('get', '/v1/positionSide/dual', () => ({ dualSidePosition: false })),
    signed('post', '/v1/positionSide/dual', ({ params }) => {
      const body = validateInput<{ dualSidePosition: 'true' | 'false' }>(dualSideBody, params);
      if (body.dualSidePosition === 'true') {
        throw new AppError(
          'hedge_mode_unsupported',
          'Position side cannot be changed: this venue trades one-way mode only (no hedge mode).',
        );
      }
      return SUCCESS;
    }),
    signed('get', '/v1/leverageBracket', async ({ params }) => {
      const symbol = await symbolOf(params);
      const entries = (await market.symbols()).filter((e) => symbol === undefined || e.symbol === symbol);
      const shaped = entries.map((e) =>
        leverageBracket(e.symbol, maxLeverage(e.symbol, e.assetClass, e.quoteVolume24h), MAINTENANCE_MARGIN_PCT),
      );
      return symbol === undefined ? shaped : shaped.slice(0, 1);
    }),
    signed('get', '/v1/commissionRate', async ({ auth, params }) => {
      const { symbol } = validateInput<{ symbol: string }>(symbolQuery, params);
      const pair = await market.resolveSymbol(symbol);
      const [entries, venue] = await Promise.all([market.symbols(), trading.fees.venueFor(auth)]);
      const rate = baseTakerPct(entries.find((e) => e.symbol === pair)?.assetClass ?? 'crypto', venue).ratePct / 100;
      // both legs pay the taker rate here, so the maker rate is the same
      return { symbol: pair, makerCommissionRate: decimal(rate, 8), takerCommissionRate: decimal(rate, 8) };
    }),
  ];
}
