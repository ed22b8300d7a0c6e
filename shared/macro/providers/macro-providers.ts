/** The macro data providers' HTTP clients: one method per endpoint used, answers parsed. */
import type { DataProvider } from '../../http/provider-urls.js';
import {
  parseCategoryIds,
  parseGlobal,
  parseMarkets,
  parseTrending,
  type CoinRow,
  type GlobalStats,
  type Trending,
} from './coingecko-format.js';
import { buildDefiOverview, parseChains, parseProtocols, parseStablecoins, type DefiOverview } from './defillama-format.js';
import { parseFearGreed, type FearGreedPoint } from './fear-greed-format.js';
import { providerUrl, type ProviderHttp } from '../../http/provider-http.js';

/** Days of fear-and-greed history asked for (today included). */
export const FEAR_GREED_DAYS = 31;
/** Coins per /coins answer: CoinGecko's largest page. */
export const COINS_PER_PAGE = 250;

export class AlternativeMeClient {
  constructor(
    private readonly base: string,
    private readonly http: ProviderHttp,
  ) {}

  async fearGreed(days = FEAR_GREED_DAYS): Promise<FearGreedPoint[]> {
    return parseFearGreed(await this.http.get(providerUrl(this.base, '/fng/', { limit: days })));
  }
}

export class CoinGeckoClient {
  constructor(
    private readonly base: string,
    private readonly http: ProviderHttp,
  ) {}

  /** The top coins by market cap, optionally of one CoinGecko category id. */
  async markets(category?: string): Promise<CoinRow[]> {
    const url = providerUrl(this.base, '/api/v3/coins/markets', {
      vs_currency: 'usd',
      order: 'market_cap_desc',
      per_page: COINS_PER_PAGE,
      page: 1,
      sparkline: 'true',
      price_change_percentage: '1h,24h,7d',
      category,
    });
    return parseMarkets(await this.http.get(url));
  }

  async global(): Promise<GlobalStats> {
    return parseGlobal(await this.http.get(providerUrl(this.base, '/api/v3/global')));
  }

  async trending(): Promise<Trending> {
    return parseTrending(await this.http.get(providerUrl(this.base, '/api/v3/search/trending')));
  }

  async categoryIds(): Promise<string[]> {
    return parseCategoryIds(await this.http.get(providerUrl(this.base, '/api/v3/coins/categories/list')));
  }
}

export class DefiLlamaClient {
  constructor(
    private readonly base: string,
    private readonly stablecoinsBase: string,
    private readonly http: ProviderHttp,
  ) {}

  /** Chains, protocols and stablecoins in one overview; any of the three failing fails it. */
  async overview(): Promise<DefiOverview> {
    const [chains, protocols, stablecoins] = await Promise.all([
      this.http.get(providerUrl(this.base, '/v2/chains')),
      this.http.get(providerUrl(this.base, '/protocols')),
      this.http.get(providerUrl(this.stablecoinsBase, '/stablecoins', { includePrices: 'true' })),
    ]);
    return buildDefiOverview(parseChains(chains), parseProtocols(protocols), parseStablecoins(stablecoins));
  }
}

export interface MacroProviders {
  alternativeMe: AlternativeMeClient;
  coinGecko: CoinGeckoClient;
  defiLlama: DefiLlamaClient;
}

export function createMacroProviders(urls: Record<DataProvider, string>, http: ProviderHttp): MacroProviders {
  return {
    alternativeMe: new AlternativeMeClient(urls['alternative-me'], http),
    coinGecko: new CoinGeckoClient(urls.coingecko, http),
    defiLlama: new DefiLlamaClient(urls.defillama, urls['defillama-stablecoins'], http),
  };
}
