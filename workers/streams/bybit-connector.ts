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
import { ShardedStream, type ShardedStreamOptions } from './sharded-stream.js';
import { batchedSubscriptions, composeConnector, frameHandler, pingEvery } from './venue-connector.js';
import type { ConnectorDeps, VenueConnector } from './venue-connector.js';

const SYMBOLS_PER_CONNECTION = 100;

/**
 * What every Bybit v5 linear stream shares (the price and the liquidation streams): the URL, the
 * subscribe messages (their ids start with `idPrefix`), the ping and the pacing.
 */
export function bybitStreamOptions(
  deps: Pick<ConnectorDeps, 'urls' | 'logger' | 'silenceMs' | 'reconnectMaxMs'>,
  idPrefix: string,
): Pick<ShardedStreamOptions, 'url' | 'logger' | 'protocol' | 'silenceMs' | 'pingIntervalMs' | 'reconnectMaxMs' | 'sendGapMs'> {
  const subscriptions = batchedSubscriptions(BYBIT_ARGS_PER_MESSAGE, (batch, unsubscribe, seq) =>
    bybitSubscribe(batch, `${idPrefix}${seq}`, unsubscribe),
  );
  return {
    url: `${deps.urls.ws}/v5/public/linear`,
    logger: deps.logger,
    protocol: {
      ...subscriptions,
      ping: { kind: 'text', text: BYBIT_PING },
      isPong: (text) => text.includes('"op":"pong"') || text.includes('"ret_msg":"pong"'),
    },
    silenceMs: deps.silenceMs,
    pingIntervalMs: pingEvery(20_000, deps.silenceMs),
    reconnectMaxMs: deps.reconnectMaxMs,
    sendGapMs: 50,
  };
}

export function createBybitConnector(deps: ConnectorDeps): VenueConnector {
  const state = createBybitTickerState();
  const stream = new ShardedStream({
    ...bybitStreamOptions(deps, ''),
    name: 'bybit',
    symbolsPerShard: SYMBOLS_PER_CONNECTION,
    topicsFor: bybitTopics,
    onText: frameHandler('bybit', deps.logger, (msg) => parseBybitMessage(msg, state), deps.sink),
  });
  return composeConnector('bybit', [stream]);
}
