/** Reads the cluster model's inputs (1m candles and open-interest history of the last 24 h) and runs it. */
import type { Clock } from '../../core/clock.js';
import type { MarketStore } from '../../market/market-store.js';
import type { DerivativesStore } from '../derivatives-store.js';
import { DEFAULT_CLUSTER_PARAMS, estimateClusters, type Cluster, type ClusterParams } from './cluster-model.js';

/** Positions opened over this window are modelled. */
export const CLUSTER_WINDOW_MS = 86_400_000;

export interface ClusterAnswer {
  clusters: Cluster[];
  /** Time of the newest input (candle or open-interest sample), ms; null without inputs. */
  updatedAt: number | null;
}

export class ClusterService {
  constructor(
    private readonly market: MarketStore,
    private readonly derivatives: DerivativesStore,
    private readonly clock: Clock,
    private readonly params: ClusterParams = DEFAULT_CLUSTER_PARAMS,
  ) {}

  async clusters(pair: string): Promise<ClusterAnswer> {
    const from = this.clock.now() - CLUSTER_WINDOW_MS;
    const [candles, oi, quote] = await Promise.all([
      this.market.getCandles(pair, { fromMs: from, limit: 1441 }),
      this.derivatives.openInterestHistory(pair, from),
      this.market.getQuote(pair),
    ]);
    const last = candles[candles.length - 1];
    const price = quote?.price ?? last?.close;
    const times = [last?.openTime, oi[oi.length - 1]?.ts, quote?.ts].filter((t): t is number => t !== undefined);
    if (price === undefined || candles.length === 0) return { clusters: [], updatedAt: times.length > 0 ? Math.max(...times) : null };
    return { clusters: estimateClusters(candles, oi, price, this.params), updatedAt: Math.max(...times) };
  }
}
