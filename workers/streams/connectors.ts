/** One factory per venue. */
import type { Venue } from '../../shared/market/types.js';
import { createBinanceConnector } from './binance-connector.js';
import { createBitgetConnector } from './bitget-connector.js';
import { createBybitConnector } from './bybit-connector.js';
import { createOkxConnector } from './okx-connector.js';
import type { ConnectorDeps, VenueConnector } from './venue-connector.js';

const FACTORIES: Record<Venue, (deps: ConnectorDeps) => VenueConnector> = {
  binance: createBinanceConnector,
  bybit: createBybitConnector,
  okx: createOkxConnector,
  bitget: createBitgetConnector,
};

export function createConnector(venue: Venue, deps: ConnectorDeps): VenueConnector {
  return FACTORIES[venue](deps);
}
