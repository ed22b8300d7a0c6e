/** Binance USDⓈ-M: `!forceOrder@arr` (every symbol) on the combined-stream endpoint; protocol pings. */
import { BINANCE_ALL_LIQUIDATIONS, parseBinanceLiquidations } from '../../../shared/derivatives/liquidations/formats/binance.js';
import { binanceSubscribe } from '../../../shared/market/venues/binance-format.js';
import { globalConnector, singleStream, type LiquidationConnector, type LiquidationConnectorDeps } from './liquidation-connector.js';

export function createBinanceLiquidations(deps: LiquidationConnectorDeps): LiquidationConnector {
  let id = 0;
  const stream = singleStream({
    exchange: 'binance',
    url: `${deps.urls.ws}/stream`,
    deps,
    protocol: {
      subscribe: (topics) => [binanceSubscribe(topics, ++id)],
      unsubscribe: (topics) => [binanceSubscribe(topics, ++id, true)],
      ping: { kind: 'protocol' },
      isPong: () => false,
    },
    topics: [BINANCE_ALL_LIQUIDATIONS],
    pingMs: 60_000,
    sendGapMs: 250,
    parse: parseBinanceLiquidations,
  });
  return globalConnector('binance', [stream]);
}
