/**
 * Bybit v5 linear: `allLiquidation.<SYMBOL>` for each symbol of the universe (Bybit has no all-market
 * liquidation topic), 10 args per subscribe message, {"op":"ping"} every 20 s.
 */
import { bybitLiquidationTopic, parseBybitLiquidations } from '../../../shared/derivatives/liquidations/formats/bybit.js';
import { bybitStreamOptions } from '../bybit-connector.js';
import { ShardedStream } from '../sharded-stream.js';
import { streamsStatus } from '../venue-connector.js';
import { liquidationFrameHandler, type LiquidationConnector, type LiquidationConnectorDeps } from './liquidation-connector.js';

const SYMBOLS_PER_CONNECTION = 200;

export function createBybitLiquidations(deps: LiquidationConnectorDeps): LiquidationConnector {
  const stream = new ShardedStream({
    ...bybitStreamOptions(deps, 'liq'),
    name: 'bybit-liq',
    symbolsPerShard: SYMBOLS_PER_CONNECTION,
    topicsFor: (symbol) => [bybitLiquidationTopic(symbol)],
    onText: liquidationFrameHandler('bybit-liq', deps, parseBybitLiquidations),
  });
  return {
    exchange: 'bybit',
    start: (symbols) => stream.start(symbols),
    setSymbols: (symbols) => stream.setSymbols(symbols),
    stop: () => stream.stop(),
    status: () => streamsStatus([stream]),
  };
}
