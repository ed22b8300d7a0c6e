import type { MarketService, QuoteWithClosure } from '../../../shared/market/market-service.js';
import { MicroCache } from '../../routing/micro-cache.js';

/** One in-process quote cache per pod, shared by the public and bot price routes (the bot's refuses a closed market). */
export class CachedQuotes {
  private readonly cache: MicroCache<QuoteWithClosure>;

  constructor(
    private readonly market: MarketService,
    ttlMs: number,
  ) {
    this.cache = new MicroCache<QuoteWithClosure>(ttlMs);
  }

  get(symbol: string): Promise<QuoteWithClosure> {
    return this.cache.get(symbol.toUpperCase(), () => this.market.quoteWithClosure(symbol));
  }
}
