/** HTX USDT-margined swaps: `public.*.liquidation_orders` on the notification endpoint; gzip frames; server pings answered. */
import { gunzipSync } from 'node:zlib';
import {
  htxPong,
  htxSubscribeLiquidations,
  HTX_LIQUIDATION_TOPIC,
  parseHtxLiquidations,
} from '../../../shared/derivatives/liquidations/formats/htx.js';
import { globalConnector, singleStream, type LiquidationConnector, type LiquidationConnectorDeps } from './liquidation-connector.js';

export function createHtxLiquidations(deps: LiquidationConnectorDeps): LiquidationConnector {
  let id = 0;
  const stream = singleStream({
    exchange: 'htx',
    url: `${deps.urls.ws}/linear-swap-notification`,
    deps,
    protocol: {
      subscribe: () => [htxSubscribeLiquidations(`liq${++id}`)],
      unsubscribe: () => [JSON.stringify({ op: 'unsub', cid: `liq${++id}`, topic: HTX_LIQUIDATION_TOPIC })],
      ping: { kind: 'protocol' },
      isPong: () => false,
      answer: htxPong,
    },
    topics: [HTX_LIQUIDATION_TOPIC],
    pingMs: 20_000,
    decodeBinary: (data) => gunzipSync(data).toString('utf8'),
    parse: parseHtxLiquidations,
  });
  return globalConnector('htx', [stream]);
}
