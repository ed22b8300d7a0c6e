/**
 * Binance USDⓈ-M: the combined-stream endpoint /stream, subscribed with SUBSCRIBE messages:
 * `!ticker@arr` (every symbol's 24h ticker, each second) on the first connection and
 * `<sym>@kline_1m` per symbol. Binance pings with protocol frames; we ping too, so a quiet
 * connection still shows signs of life.
 */
import {
  BINANCE_ALL_TICKERS,
  BINANCE_STREAMS_PER_MESSAGE,
  binanceKlineStream,
  binanceSubscribe,
  parseBinanceMessage,
} from '../../shared/market/venues/binance-format.js';
import { ShardedStream } from './sharded-stream.js';
import { batchedSubscriptions, composeConnector, frameHandler, pingEvery } from './venue-connector.js';
import type { ConnectorDeps, VenueConnector } from './venue-connector.js';

/** 1024 streams per connection at most; 400 klines leave ample room. */
const SYMBOLS_PER_CONNECTION = 400;

export function createBinanceConnector(deps: ConnectorDeps): VenueConnector {
  const stream = new ShardedStream({
    name: 'binance',
    url: `${deps.urls.ws}/stream`,
    logger: deps.logger,
    protocol: {
      ...batchedSubscriptions(BINANCE_STREAMS_PER_MESSAGE, (batch, unsubscribe, seq) => binanceSubscribe(batch, seq, unsubscribe)),
      ping: { kind: 'protocol' },
      isPong: () => false,
    },
    symbolsPerShard: SYMBOLS_PER_CONNECTION,
    topicsFor: (symbol) => [binanceKlineStream(symbol)],
    fixedTopics: [BINANCE_ALL_TICKERS],
    silenceMs: deps.silenceMs,
    pingIntervalMs: pingEvery(60_000, deps.silenceMs),
    reconnectMaxMs: deps.reconnectMaxMs,
    // Binance accepts 10 incoming messages per second per connection
    sendGapMs: 250,
    onText: frameHandler('binance', deps.logger, parseBinanceMessage, deps.sink),
  });
  return composeConnector('binance', [stream]);
}
