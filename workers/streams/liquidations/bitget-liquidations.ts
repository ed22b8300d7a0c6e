/** Bitget public WebSocket v3: topic `liquidation` for USDT and USDC futures; text ping every 30 s. */
import {
  bitgetSubscribeLiquidations,
  BITGET_LIQUIDATION_INST_TYPES,
  parseBitgetLiquidations,
} from '../../../shared/derivatives/liquidations/formats/bitget.js';
import { globalConnector, singleStream, type LiquidationConnector, type LiquidationConnectorDeps } from './liquidation-connector.js';

export function createBitgetLiquidations(deps: LiquidationConnectorDeps): LiquidationConnector {
  const stream = singleStream({
    exchange: 'bitget',
    url: `${deps.urls.ws}/v3/ws/public`,
    deps,
    protocol: {
      subscribe: (instTypes) => [bitgetSubscribeLiquidations(instTypes)],
      unsubscribe: (instTypes) => [bitgetSubscribeLiquidations(instTypes).replace('"subscribe"', '"unsubscribe"')],
      ping: { kind: 'text', text: 'ping' },
      isPong: (text) => text === 'pong',
    },
    topics: [...BITGET_LIQUIDATION_INST_TYPES],
    pingMs: 30_000,
    sendGapMs: 150,
    parse: parseBitgetLiquidations,
  });
  return globalConnector('bitget', [stream]);
}
