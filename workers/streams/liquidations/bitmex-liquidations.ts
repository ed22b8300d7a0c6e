/** BitMEX realtime: the `liquidation` table; instrument sizes over REST; text "ping". */
import {
  BitmexOrderTimes,
  BITMEX_LIQUIDATION_TABLE,
  parseBitmexInstruments,
  parseBitmexLiquidations,
  type BitmexInstruments,
} from '../../../shared/derivatives/liquidations/formats/bitmex.js';
import { getJson } from '../../../shared/http/http-json.js';
import { globalConnector, RefreshingTable, singleStream } from './liquidation-connector.js';
import type { LiquidationConnector, LiquidationConnectorDeps } from './liquidation-connector.js';

export function createBitmexLiquidations(deps: LiquidationConnectorDeps): LiquidationConnector {
  const instruments = new RefreshingTable<BitmexInstruments>(
    'bitmex-instruments',
    async () => parseBitmexInstruments(await getJson(`${deps.urls.rest}/api/v1/instrument/active`, deps.http)),
    { bySymbol: new Map(), xbtUsd: undefined },
    deps.logger,
  );
  // kept across reconnects: a row replayed in the next `partial` keeps its first time and id
  const times = new BitmexOrderTimes();
  const stream = singleStream({
    exchange: 'bitmex',
    url: `${deps.urls.ws}/realtime`,
    deps,
    protocol: {
      subscribe: (tables) => [JSON.stringify({ op: 'subscribe', args: tables })],
      unsubscribe: (tables) => [JSON.stringify({ op: 'unsubscribe', args: tables })],
      ping: { kind: 'text', text: 'ping' },
      isPong: (text) => text === 'pong',
    },
    topics: [BITMEX_LIQUIDATION_TABLE],
    pingMs: 5_000,
    parse: (msg) => parseBitmexLiquidations(msg, instruments.value, times, deps.clock.now()),
  });
  return globalConnector('bitmex', [stream], instruments);
}
