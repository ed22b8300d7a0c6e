/** The derivatives services of an API process, over the domain's derivatives and liquidation stores. */
import type { Clock } from '../core/clock.js';
import type { MarketService } from '../market/market-service.js';
import type { MarketStore } from '../market/market-store.js';
import { ClusterService } from './clusters/cluster-service.js';
import { DerivativesService } from './derivatives-service.js';
import type { DerivativesStore } from './derivatives-store.js';
import { LiquidationService } from './liquidations/liquidation-service.js';
import type { LiquidationStore } from './liquidations/liquidation-store.js';

export interface DerivativesServices {
  /** Funding, open interest, long/short snapshots. */
  derivatives: DerivativesService;
  /** The liquidation collector's data. */
  liquidations: LiquidationService;
  /** The modelled liquidation clusters. */
  clusters: ClusterService;
}

export function createDerivativesServices(deps: {
  store: DerivativesStore;
  liquidationStore: LiquidationStore;
  clock: Clock;
  marketStore: MarketStore;
  market: MarketService;
}): DerivativesServices {
  const { store, liquidationStore, clock, marketStore, market } = deps;
  const followed = (pair: string): Promise<boolean> =>
    market.resolveSymbol(pair).then(
      () => true,
      () => false,
    );
  return {
    derivatives: new DerivativesService(store),
    liquidations: new LiquidationService(liquidationStore, followed, clock),
    clusters: new ClusterService(marketStore, store, clock),
  };
}
