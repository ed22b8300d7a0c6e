/** Deribit JSON-RPC: futures trades of BTC, ETH and USDC, keeping the liquidation trades; `public/test` keep-alive. */
import {
  DERIBIT_CURRENCIES,
  deribitRequest,
  deribitTradesChannel,
  parseDeribitLiquidations,
} from '../../../shared/derivatives/liquidations/formats/deribit.js';
import { isRecord } from '../../../shared/market/parse-utils.js';
import { globalConnector, singleStream, type LiquidationConnector, type LiquidationConnectorDeps } from './liquidation-connector.js';

/** Answers Deribit's heartbeat test_request (sent when heartbeats are on) with public/test. */
function answerHeartbeat(text: string): string | undefined {
  if (!text.includes('"heartbeat"')) return undefined;
  try {
    const msg: unknown = JSON.parse(text);
    if (isRecord(msg) && msg.method === 'heartbeat' && isRecord(msg.params) && msg.params.type === 'test_request') {
      return deribitRequest(0, 'public/test', {});
    }
  } catch {
    // not JSON: not a heartbeat
  }
  return undefined;
}

export function createDeribitLiquidations(deps: LiquidationConnectorDeps): LiquidationConnector {
  let id = 1;
  const stream = singleStream({
    exchange: 'deribit',
    url: `${deps.urls.ws}/ws/api/v2`,
    deps,
    protocol: {
      subscribe: (channels) => [deribitRequest(++id, 'public/subscribe', { channels })],
      unsubscribe: (channels) => [deribitRequest(++id, 'public/unsubscribe', { channels })],
      ping: { kind: 'text', text: deribitRequest(0, 'public/test', {}) },
      isPong: (text) => text.includes('"id":0,') && text.includes('"version"'),
      answer: answerHeartbeat,
    },
    topics: DERIBIT_CURRENCIES.map(deribitTradesChannel),
    pingMs: 25_000,
    parse: parseDeribitLiquidations,
  });
  return globalConnector('deribit', [stream]);
}
