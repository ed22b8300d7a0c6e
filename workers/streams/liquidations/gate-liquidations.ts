/** Gate futures v4, USDT-settled: `futures.public_liquidates` with `!all`; quanto multipliers over REST; protocol pings. */
import {
  gateSubscribeLiquidations,
  parseGateLiquidations,
  parseGateMultipliers,
} from '../../../shared/derivatives/liquidations/formats/gate.js';
import { getJson } from '../../../shared/http/http-json.js';
import { globalConnector, RefreshingTable, singleStream } from './liquidation-connector.js';
import type { LiquidationConnector, LiquidationConnectorDeps } from './liquidation-connector.js';

export function createGateLiquidations(deps: LiquidationConnectorDeps): LiquidationConnector {
  const multipliers = new RefreshingTable<Map<string, number>>(
    'gate-contracts',
    async () => parseGateMultipliers(await getJson(`${deps.urls.rest}/api/v4/futures/usdt/contracts`, deps.http)),
    new Map(),
    deps.logger,
  );
  const seconds = (): number => Math.floor(deps.clock.now() / 1000);
  const stream = singleStream({
    exchange: 'gate',
    url: `${deps.urls.ws}/v4/ws/usdt`,
    deps,
    protocol: {
      subscribe: () => [gateSubscribeLiquidations(seconds())],
      unsubscribe: () => [gateSubscribeLiquidations(seconds()).replace('"subscribe"', '"unsubscribe"')],
      ping: { kind: 'protocol' },
      isPong: (text) => text.includes('"futures.pong"'),
    },
    topics: ['!all'],
    pingMs: 20_000,
    parse: (msg) => parseGateLiquidations(msg, multipliers.value),
  });
  return globalConnector('gate', [stream], multipliers);
}
