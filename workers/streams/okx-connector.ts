/**
 * OKX v5 SWAP: tickers on /ws/v5/public, candle1m on /ws/v5/business (confirm "1" = closed).
 * OKX drops a connection quiet for 30 s, so the text "ping" goes out every 25 s ("pong" back).
 */
import {
  OKX_ARGS_PER_MESSAGE,
  OKX_BUSINESS_PATH,
  OKX_PUBLIC_PATH,
  okxSubscribe,
  okxTopic,
  parseOkxMessage,
} from '../../shared/market/venues/okx-format.js';
import type { SocketProtocol } from './reconnecting-socket.js';
import { ShardedStream } from './sharded-stream.js';
import { batchedSubscriptions, composeConnector, frameHandler, pingEvery } from './venue-connector.js';
import type { ConnectorDeps, VenueConnector } from './venue-connector.js';

const SYMBOLS_PER_CONNECTION = 250;

export function createOkxConnector(deps: ConnectorDeps): VenueConnector {
  const subscriptions = batchedSubscriptions(OKX_ARGS_PER_MESSAGE, (batch, unsubscribe, seq) =>
    okxSubscribe(batch, String(seq), unsubscribe),
  );
  const protocol: SocketProtocol = {
    ...subscriptions,
    ping: { kind: 'text', text: 'ping' },
    isPong: (text) => text === 'pong',
  };
  const common = {
    logger: deps.logger,
    protocol,
    symbolsPerShard: SYMBOLS_PER_CONNECTION,
    silenceMs: deps.silenceMs,
    pingIntervalMs: pingEvery(25_000, deps.silenceMs),
    reconnectMaxMs: deps.reconnectMaxMs,
    sendGapMs: 100,
  };
  const endpoint = (name: string, path: string, channel: 'tickers' | 'candle1m') =>
    new ShardedStream({
      ...common,
      name,
      url: `${deps.urls.ws}${path}`,
      topicsFor: (symbol) => [okxTopic(channel, symbol)],
      onText: frameHandler(name, deps.logger, parseOkxMessage, deps.sink),
    });
  return composeConnector('okx', [
    endpoint('okx-public', OKX_PUBLIC_PATH, 'tickers'),
    endpoint('okx-business', OKX_BUSINESS_PATH, 'candle1m'),
  ]);
}
