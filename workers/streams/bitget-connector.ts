/**
 * Bitget v2 USDT-FUTURES: /v2/ws/public with channels ticker and candle1m. A candle has no closed
 * flag: it is closed when a newer openTime arrives for its symbol (the parser keeps the open one).
 * Keep-alive: the text "ping" every 30 s ("pong" back).
 */
import {
  BITGET_ARGS_PER_MESSAGE,
  bitgetSubscribe,
  bitgetTopic,
  createBitgetCandleState,
  parseBitgetMessage,
} from '../../shared/market/venues/bitget-format.js';
import { ShardedStream } from './sharded-stream.js';
import { batchedSubscriptions, composeConnector, frameHandler, pingEvery } from './venue-connector.js';
import type { ConnectorDeps, VenueConnector } from './venue-connector.js';

/** Bitget asks for modest channel counts per connection: 50 symbols = 100 channels. */
const SYMBOLS_PER_CONNECTION = 50;

export function createBitgetConnector(deps: ConnectorDeps): VenueConnector {
  const state = createBitgetCandleState();
  const stream = new ShardedStream({
    name: 'bitget',
    url: `${deps.urls.ws}/v2/ws/public`,
    logger: deps.logger,
    protocol: {
      ...batchedSubscriptions(BITGET_ARGS_PER_MESSAGE, (batch, unsubscribe) => bitgetSubscribe(batch, unsubscribe)),
      ping: { kind: 'text', text: 'ping' },
      isPong: (t) => t === 'pong',
    },
    symbolsPerShard: SYMBOLS_PER_CONNECTION,
    topicsFor: (symbol) => [bitgetTopic('ticker', symbol), bitgetTopic('candle1m', symbol)],
    silenceMs: deps.silenceMs,
    pingIntervalMs: pingEvery(30_000, deps.silenceMs),
    reconnectMaxMs: deps.reconnectMaxMs,
    // Bitget accepts 10 messages per second per connection
    sendGapMs: 150,
    onText: frameHandler('bitget', deps.logger, (msg) => parseBitgetMessage(msg, state), deps.sink),
  });
  return composeConnector('bitget', [stream]);
}
