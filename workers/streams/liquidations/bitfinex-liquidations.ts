/** Bitfinex (the ninth exchange): status channel `liq:global`; `{"event":"ping"}` keep-alive. */
import { bitfinexSubscribeLiquidations, parseBitfinexLiquidations } from '../../../shared/derivatives/liquidations/formats/bitfinex.js';
import { globalConnector, singleStream, type LiquidationConnector, type LiquidationConnectorDeps } from './liquidation-connector.js';

export function createBitfinexLiquidations(deps: LiquidationConnectorDeps): LiquidationConnector {
  const stream = singleStream({
    exchange: 'bitfinex',
    url: `${deps.urls.ws}/ws/2`,
    deps,
    protocol: {
      subscribe: () => [bitfinexSubscribeLiquidations()],
      // unsubscribing needs the channel id; the single channel goes away with the socket
      unsubscribe: () => [],
      ping: { kind: 'text', text: JSON.stringify({ event: 'ping', cid: 1 }) },
      isPong: (text) => text.includes('"event":"pong"'),
    },
    topics: ['liq:global'],
    pingMs: 15_000,
    parse: parseBitfinexLiquidations,
  });
  return globalConnector('bitfinex', [stream]);
}
