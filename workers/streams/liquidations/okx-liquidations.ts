/** OKX v5: `liquidation-orders` for SWAP on /ws/v5/public; contract values from the instruments list; text ping. */
import {
  okxSubscribeLiquidations,
  parseOkxContractValues,
  parseOkxLiquidations,
  type OkxContractValue,
} from '../../../shared/derivatives/liquidations/formats/okx.js';
import { getJson, withQuery } from '../../../shared/http/http-json.js';
import { OKX_PUBLIC_PATH } from '../../../shared/market/venues/okx-format.js';
import { globalConnector, RefreshingTable, singleStream } from './liquidation-connector.js';
import type { LiquidationConnector, LiquidationConnectorDeps } from './liquidation-connector.js';

export function createOkxLiquidations(deps: LiquidationConnectorDeps): LiquidationConnector {
  const contracts = new RefreshingTable<Map<string, OkxContractValue>>(
    'okx-instruments',
    async () =>
      parseOkxContractValues(await getJson(withQuery(deps.urls.rest, '/api/v5/public/instruments', { instType: 'SWAP' }), deps.http)),
    new Map(),
    deps.logger,
  );
  let id = 0;
  const stream = singleStream({
    exchange: 'okx',
    url: `${deps.urls.ws}${OKX_PUBLIC_PATH}`,
    deps,
    protocol: {
      subscribe: (instTypes) => [okxSubscribeLiquidations(`liq${++id}`, instTypes)],
      unsubscribe: (instTypes) => [okxSubscribeLiquidations(`liq${++id}`, instTypes).replace('"subscribe"', '"unsubscribe"')],
      ping: { kind: 'text', text: 'ping' },
      isPong: (text) => text === 'pong',
    },
    topics: ['SWAP'],
    pingMs: 25_000,
    parse: (msg) => parseOkxLiquidations(msg, contracts.value),
  });
  return globalConnector('okx', [stream], contracts);
}
