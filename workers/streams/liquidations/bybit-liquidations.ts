/**
 * Bybit v5 linear: `allLiquidation.<SYMBOL>` for each symbol of the universe (Bybit has no all-market
 * liquidation topic), 10 args per subscribe message, {"op":"ping"} every 20 s.
 */
import { bybitLiquidationTopic, parseBybitLiquidations } from '../../../shared/derivatives/liquidations/formats/bybit.js';
import { BYBIT_ARGS_PER_MESSAGE, BYBIT_PING, bybitSubscribe } from '../../../shared/market/venues/bybit-format.js';
import { ShardedStream } from '../sharded-stream.js';
import { chunk, pingEvery } from '../venue-connector.js';
import { liquidationFrameHandler, type LiquidationConnector, type LiquidationConnectorDeps } from './liquidation-connector.js';

const SYMBOLS_PER_CONNECTION = 200;

export function createBybitLiquidations(deps: LiquidationConnectorDeps): LiquidationConnector {
  let id = 0;
  const message = (unsubscribe: boolean) => (topics: string[]) =>
    chunk(topics, BYBIT_ARGS_PER_MESSAGE).map((batch) => bybitSubscribe(batch, `liq${++id}`, unsubscribe));
  const stream = new ShardedStream({
    name: 'bybit-liq',
    url: `${deps.urls.ws}/v5/public/linear`,
    logger: deps.logger,
    protocol: {
      subscribe: message(false),
      unsubscribe: message(true),
      ping: { kind: 'text', text: BYBIT_PING },
      isPong: (text) => text.includes('"op":"pong"') || text.includes('"ret_msg":"pong"'),
    },
    symbolsPerShard: SYMBOLS_PER_CONNECTION,
    topicsFor: (symbol) => [bybitLiquidationTopic(symbol)],
    silenceMs: deps.silenceMs,
    pingIntervalMs: pingEvery(20_000, deps.silenceMs),
    reconnectMaxMs: deps.reconnectMaxMs,
    sendGapMs: 50,
    onText: liquidationFrameHandler('bybit-liq', deps.logger, parseBybitLiquidations, deps.sink),
  });
  return {
    exchange: 'bybit',
    start: (symbols) => stream.start(symbols),
    setSymbols: (symbols) => stream.setSymbols(symbols),
    stop: () => stream.stop(),
    status: () => ({ sockets: stream.socketCount, open: stream.openSockets, connects: stream.connects }),
  };
}
