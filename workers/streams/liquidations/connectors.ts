/** One liquidation connector factory per exchange. */
import type { LiqExchange } from '../../../shared/derivatives/liquidations/liquidation-event.js';
import { createBinanceLiquidations } from './binance-liquidations.js';
import { createBitfinexLiquidations } from './bitfinex-liquidations.js';
import { createBitgetLiquidations } from './bitget-liquidations.js';
import { createBitmexLiquidations } from './bitmex-liquidations.js';
import { createBybitLiquidations } from './bybit-liquidations.js';
import { createDeribitLiquidations } from './deribit-liquidations.js';
import { createGateLiquidations } from './gate-liquidations.js';
import { createHtxLiquidations } from './htx-liquidations.js';
import type { LiquidationConnector, LiquidationConnectorDeps } from './liquidation-connector.js';
import { createOkxLiquidations } from './okx-liquidations.js';

const FACTORIES: Record<LiqExchange, (deps: LiquidationConnectorDeps) => LiquidationConnector> = {
  binance: createBinanceLiquidations,
  bybit: createBybitLiquidations,
  okx: createOkxLiquidations,
  bitget: createBitgetLiquidations,
  gate: createGateLiquidations,
  bitmex: createBitmexLiquidations,
  deribit: createDeribitLiquidations,
  htx: createHtxLiquidations,
  bitfinex: createBitfinexLiquidations,
};

export function createLiquidationConnector(exchange: LiqExchange, deps: LiquidationConnectorDeps): LiquidationConnector {
  return FACTORIES[exchange](deps);
}
