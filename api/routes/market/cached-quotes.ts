import type { MarketService, ServedQuote } from '../../../shared/market/market-service.js';
import { MicroCache } from '../../routing/micro-cache.js';

/** One in-process quote cache per pod, shared by the public and bot price routes. */
export class CachedQuotes {
  private readonly cache: MicroCache<ServedQuote>;

  constructor(
    private readonly market: MarketService,
    ttlMs: number,
  ) {
    this.cache = new MicroCache<ServedQuote>(ttlMs);
  }

  get(symbol: string): Promise<ServedQuote> {
    return this.cache.get(symbol.toUpperCase(), () => this.market.quote(symbol));
  }
}
