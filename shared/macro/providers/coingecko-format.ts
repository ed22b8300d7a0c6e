/** CoinGecko v3 bodies (/coins/markets, /global, /search/trending, /coins/categories/list). Pure. */
import { isRecord, toNumber, toStr } from '../../market/parse-utils.js';
import { ProviderFormatError, providerRows } from '../../http/provider-http.js';

export interface CoinRow {
  id: string;
  symbol: string;
  name: string;
  image: string | null;
  rank: number | null;
  price: number;
  marketCap: number | null;
  volume24h: number | null;
  change1h: number | null;
  change24h: number | null;
  change7d: number | null;
  /** 7-day price line, oldest first, at most SPARKLINE_POINTS points. */
  sparkline: number[];
}

export interface GlobalStats {
  totalMarketCapUsd: number;
  totalVolume24hUsd: number;
  btcDominance: number;
  ethDominance: number | null;
  marketCapChange24hPct: number | null;
  activeCryptocurrencies: number | null;
  markets: number | null;
  /** CoinGecko's own update time, ms. */
  providerUpdatedAt: number | null;
}

export interface TrendingCoin {
  id: string;
  name: string;
  symbol: string;
  rank: number | null;
  priceUsd: number | null;
  change24hPct: number | null;
  marketCapUsd: number | null;
  thumb: string | null;
  score: number | null;
}

export interface TrendingCategory {
  name: string;
  slug: string | null;
  marketCapChange24hPct: number | null;
}

export interface Trending {
  coins: TrendingCoin[];
  categories: TrendingCategory[];
}

/** CoinGecko sends 168 hourly points; every 4th one (42) draws the same week in a quarter of the bytes. */
export const SPARKLINE_POINTS = 42;

const num = (v: unknown): number | null => toNumber(v) ?? null;
const round6 = (x: number): number => Number(x.toPrecision(6));

export function downsample(points: readonly number[], max: number): number[] {
  if (points.length <= max) return points.map(round6);
  const step = points.length / max;
  const out: number[] = [];
  for (let i = 0; i < max; i++) out.push(round6(points[Math.min(points.length - 1, Math.round((i + 1) * step) - 1)]));
  return out;
}

export function parseMarkets(body: unknown): CoinRow[] {
  return providerRows(body, 'coingecko /coins/markets', (c): CoinRow | undefined => {
    const id = toStr(c.id);
    const price = toNumber(c.current_price);
    if (!id || price === undefined) return undefined;
    const spark = isRecord(c.sparkline_in_7d) && Array.isArray(c.sparkline_in_7d.price) ? c.sparkline_in_7d.price : [];
    return {
      id,
      symbol: (toStr(c.symbol) ?? id).toUpperCase(),
      name: toStr(c.name) ?? id,
      image: toStr(c.image) ?? null,
      rank: num(c.market_cap_rank),
      price,
      marketCap: num(c.market_cap),
      volume24h: num(c.total_volume),
      change1h: num(c.price_change_percentage_1h_in_currency),
      change24h: num(c.price_change_percentage_24h_in_currency) ?? num(c.price_change_percentage_24h),
      change7d: num(c.price_change_percentage_7d_in_currency),
      sparkline: downsample(
        spark.map((p) => toNumber(p)).filter((p): p is number => p !== undefined),
        SPARKLINE_POINTS,
      ),
    };
  });
}

export function parseGlobal(body: unknown): GlobalStats {
  const data = isRecord(body) && isRecord(body.data) ? body.data : undefined;
  const cap = data && isRecord(data.total_market_cap) ? toNumber(data.total_market_cap.usd) : undefined;
  const volume = data && isRecord(data.total_volume) ? toNumber(data.total_volume.usd) : undefined;
  const shares = data && isRecord(data.market_cap_percentage) ? data.market_cap_percentage : {};
  const btc = toNumber(shares.btc);
  if (!data || cap === undefined || volume === undefined || btc === undefined) {
    throw new ProviderFormatError('coingecko /global: total_market_cap.usd, total_volume.usd or market_cap_percentage.btc missing');
  }
  const updated = toNumber(data.updated_at);
  return {
    totalMarketCapUsd: cap,
    totalVolume24hUsd: volume,
    btcDominance: btc,
    ethDominance: num(shares.eth),
    marketCapChange24hPct: num(data.market_cap_change_percentage_24h_usd),
    activeCryptocurrencies: num(data.active_cryptocurrencies),
    markets: num(data.markets),
    providerUpdatedAt: updated === undefined ? null : updated * 1000,
  };
}

/** "$521,967,819" -> 521967819 (CoinGecko formats the trending market cap as text). */
export function parseMoneyText(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const cleaned = value.replace(/[$,\s]/g, '');
  return cleaned === '' ? null : (toNumber(cleaned) ?? null);
}

export function parseTrending(body: unknown): Trending {
  if (!isRecord(body) || !Array.isArray(body.coins)) throw new ProviderFormatError('coingecko /search/trending: no coins list');
  const coins: TrendingCoin[] = [];
  for (const entry of body.coins) {
    const item = isRecord(entry) && isRecord(entry.item) ? entry.item : undefined;
    const id = item ? toStr(item.id) : undefined;
    if (!item || !id) continue;
    const data = isRecord(item.data) ? item.data : {};
    const change = isRecord(data.price_change_percentage_24h) ? num(data.price_change_percentage_24h.usd) : null;
    coins.push({
      id,
      name: toStr(item.name) ?? id,
      symbol: (toStr(item.symbol) ?? id).toUpperCase(),
      rank: num(item.market_cap_rank),
      priceUsd: num(data.price),
      change24hPct: change,
      marketCapUsd: parseMoneyText(data.market_cap),
      thumb: toStr(item.thumb) ?? null,
      score: num(item.score),
    });
  }
  const categories: TrendingCategory[] = [];
  for (const c of Array.isArray(body.categories) ? body.categories : []) {
    if (!isRecord(c) || !toStr(c.name)) continue;
    const data = isRecord(c.data) ? c.data : {};
    const change = isRecord(data.market_cap_change_percentage_24h) ? num(data.market_cap_change_percentage_24h.usd) : null;
    categories.push({ name: String(c.name), slug: toStr(c.slug) ?? null, marketCapChange24hPct: change });
  }
  return { coins, categories };
}

/** /coins/categories/list: [{category_id, name}] -> the ids. */
export function parseCategoryIds(body: unknown): string[] {
  const ids = providerRows(body, 'coingecko /coins/categories/list', (c) => toStr(c.category_id));
  if (ids.length === 0) throw new ProviderFormatError('coingecko /coins/categories/list: no category ids');
  return ids;
}
