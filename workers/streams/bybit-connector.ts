/**
 * Bybit v5 linear: /v5/public/linear with `tickers.<SYM>` (a snapshot, then deltas of the changed
 * fields, merged per symbol) and `kline.1.<SYM>` (confirm = closed); at most 10 args per subscribe
 * message; the keep-alive is {"op":"ping"} every 20 s.
 */
import {
  BYBIT_ARGS_PER_MESSAGE,
  BYBIT_PING,
  bybitSubscribe,
  bybitTopics,
  createBybitTickerState,
  parseBybitMessage,
} from '../../shared/market/venues/bybit-format.js';
import { ShardedStream } from './sharded-stream.js';
import { chunk, composeConnector, frameHandler, pingEvery, type ConnectorDeps, type VenueConnector } from './venue-connector.js';

const SYMBOLS_PER_CONNECTION = 100;

export function createBybitConnector(deps: ConnectorDeps): VenueConnector {
  let id = 0;
  const state = createBybitTickerState();
  const message = (unsubscribe: boolean) => (topics: string[]) =>
    chunk(topics, BYBIT_ARGS_PER_MESSAGE).map((batch) => bybitSubscribe(batch, String(++id), unsubscribe));
  const stream = new ShardedStream({
    name: 'bybit',
    url: `${deps.urls.ws}/v5/public/linear`,
    logger: deps.logger,
    protocol: {
      subscribe: message(false),
      unsubscribe: message(true),
      ping: { kind: 'text', text: BYBIT_PING },
      isPong: (text) => text.includes('"op":"pong"') || text.includes('"ret_msg":"pong"'),
    },
    symbolsPerShard: SYMBOLS_PER_CONNECTION,
    topicsFor: bybitTopics,
    silenceMs: deps.silenceMs,
    pingIntervalMs: pingEvery(20_000, deps.silenceMs),
    reconnectMaxMs: deps.reconnectMaxMs,
    sendGapMs: 50,
    onText: frameHandler('bybit', deps.logger, (msg) => parseBybitMessage(msg, state), deps.sink),
  });
  return composeConnector('bybit', [stream]);
}
