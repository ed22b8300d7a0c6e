/**
 * CoinGecko v3: /api/v3/coins/markets (with category, per_page, sparkline), /coins/categories/list,
 * /global and /search/trending, in the shapes of fixtures/coingecko. Coins are the sim's coins at
 * their live prices, then filler coins down to the requested page size.
 */
import { TRADFI } from '../symbols.js';
import { DAY_MS, hashOf, json, unit, type ProviderDeps, type SimProvider } from './provider-types.js';

const IDS: Record<string, [string, string]> = {
  BTC: ['bitcoin', 'Bitcoin'],
  ETH: ['ethereum', 'Ethereum'],
  SOL: ['solana', 'Solana'],
  BNB: ['binancecoin', 'BNB'],
  XRP: ['ripple', 'XRP'],
  DOGE: ['dogecoin', 'Dogecoin'],
  ADA: ['cardano', 'Cardano'],
  AVAX: ['avalanche-2', 'Avalanche'],
  LINK: ['chainlink', 'Chainlink'],
  DOT: ['polkadot', 'Polkadot'],
  LTC: ['litecoin', 'Litecoin'],
  TRX: ['tron', 'TRON'],
  TON: ['the-open-network', 'Toncoin'],
  SUI: ['sui', 'Sui'],
  APT: ['aptos', 'Aptos'],
  ARB: ['arbitrum', 'Arbitrum'],
  OP: ['optimism', 'Optimism'],
  NEAR: ['near', 'NEAR Protocol'],
  ATOM: ['cosmos', 'Cosmos Hub'],
  UNI: ['uniswap', 'Uniswap'],
  AAVE: ['aave', 'Aave'],
  WIF: ['dogwifcoin', 'dogwifhat'],
  LDO: ['lido-dao', 'Lido DAO'],
  CRV: ['curve-dao-token', 'Curve DAO'],
};

/** The categories the sim knows, with the coins in each (others are assigned by hash). */
const CATEGORIES: Record<string, { name: string; members: string[] }> = {
  'layer-1': {
    name: 'Layer 1 (L1)',
    members: ['BTC', 'ETH', 'SOL', 'BNB', 'ADA', 'AVAX', 'DOT', 'TRX', 'TON', 'SUI', 'APT', 'NEAR', 'ATOM', 'ALGO', 'XLM'],
  },
  'layer-2': { name: 'Layer 2 (L2)', members: ['ARB', 'OP', 'STRK', 'IMX', 'STX'] },
  'smart-contract-platform': { name: 'Smart Contract Platform', members: ['ETH', 'SOL', 'BNB', 'ADA', 'AVAX', 'DOT', 'TRX', 'NEAR'] },
  'decentralized-finance-defi': {
    name: 'Decentralized Finance (DeFi)',
    members: ['LINK', 'UNI', 'AAVE', 'LDO', 'CRV', 'INJ', 'DYDX', 'COMP', 'SNX', 'RUNE', 'JUP', 'ENA', 'ONDO', '1INCH'],
  },
  'meme-token': { name: 'Meme', members: ['DOGE', 'WIF'] },
  'artificial-intelligence': { name: 'Artificial Intelligence (AI)', members: ['FET', 'WLD', 'NEAR', 'GRT'] },
  gaming: { name: 'Gaming (GameFi)', members: ['SAND', 'MANA', 'AXS', 'GALA', 'IMX'] },
  'real-world-assets-rwa': { name: 'Real World Assets (RWA)', members: ['ONDO'] },
  stablecoins: { name: 'Stablecoins', members: ['USDT', 'USDC'] },
  'privacy-coins': { name: 'Privacy Coins', members: ['ZEC', 'DASH'] },
  oracle: { name: 'Oracle', members: ['LINK', 'PYTH'] },
  'solana-ecosystem': { name: 'Solana Ecosystem', members: ['SOL', 'JUP', 'WIF', 'PYTH'] },
};

const TRADFI_BASES = new Set(TRADFI.map(([base]) => base));

interface SimCoin {
  id: string;
  symbol: string;
  name: string;
  price: number;
  marketCap: number;
  volume: number;
  change24h: number;
  change1h: number;
}

const round = (x: number, sig = 8): number => Number(x.toPrecision(sig));

/** 168 hourly points over 7 days ending at the price: a deterministic walk per coin and day. */
function sparkline(id: string, price: number, day: number): number[] {
  const points: number[] = [];
  let p = price;
  for (let i = 0; i < 168; i++) {
    points.unshift(round(p));
    p *= 1 + (unit(`${id}:${day}:${i}`) - 0.5) * 0.01;
  }
  return points;
}

export function simCoins(deps: ProviderDeps): SimCoin[] {
  const coins: SimCoin[] = [];
  for (const spec of deps.model.symbols) {
    if (TRADFI_BASES.has(spec.base)) continue;
    const q = deps.model.quote(spec.symbol, 'binance');
    const [id, name] = IDS[spec.base] ?? [spec.base.toLowerCase(), spec.base];
    coins.push({
      id,
      symbol: spec.base.toLowerCase(),
      name,
      price: q.last,
      // BTC and ETH dominate market cap far more than they dominate perpetual volume
      marketCap: Math.round(spec.quoteVolume24h * 25 * (spec.index === 0 ? 6 : spec.index === 1 ? 2 : 1)),
      volume: Math.round(spec.quoteVolume24h * 1.6),
      change24h: q.changePct,
      change1h: q.open1h > 0 ? (q.last / q.open1h - 1) * 100 : 0,
    });
  }
  for (const [symbol, name] of [
    ['usdt', 'Tether'],
    ['usdc', 'USDC'],
  ]) {
    coins.push({
      id: name.toLowerCase(),
      symbol,
      name,
      price: 1,
      marketCap: symbol === 'usdt' ? 1.5e11 : 7e10,
      volume: 5e10,
      change24h: 0.01,
      change1h: 0,
    });
  }
  return coins.sort((a, b) => b.marketCap - a.marketCap);
}

function inCategory(coin: SimCoin, category: string): boolean {
  const members = CATEGORIES[category]?.members;
  if (members?.includes(coin.symbol.toUpperCase())) return true;
  return !members && hashOf(`${category}:${coin.id}`) % 5 === 0;
}

const CHANGE_WINDOWS = ['1h', '24h', '7d', '14d', '30d', '200d', '1y'];

function marketRow(c: SimCoin, rank: number, query: URLSearchParams, now: number): Record<string, unknown> {
  const day = Math.floor(now / DAY_MS);
  const supply = Math.round(c.marketCap / c.price);
  const changes: Record<string, number> = { '1h': c.change1h, '24h': c.change24h };
  const asked = (query.get('price_change_percentage') ?? '')
    .split(',')
    .map((w) => w.trim())
    .filter((w) => CHANGE_WINDOWS.includes(w));
  const high = c.price * 1.01;
  const ath = c.price * (1.2 + unit(`${c.id}:ath`));
  const atl = c.price * (0.01 + unit(`${c.id}:atl`) * 0.2);
  const row: Record<string, unknown> = {
    id: c.id,
    symbol: c.symbol,
    name: c.name,
    image: `https://coin-images.coingecko.com/coins/images/${hashOf(c.id) % 40000}/large/${c.id}.png`,
    current_price: round(c.price),
    market_cap: c.marketCap,
    market_cap_rank: rank,
    fully_diluted_valuation: c.marketCap,
    total_volume: c.volume,
    high_24h: round(high),
    low_24h: round(c.price * 0.99),
    price_change_24h: round((c.price * c.change24h) / 100),
    price_change_percentage_24h: round(c.change24h, 6),
    market_cap_change_24h: round((c.marketCap * c.change24h) / 100),
    market_cap_change_percentage_24h: round(c.change24h, 6),
    circulating_supply: supply,
    total_supply: supply,
    max_supply: c.id === 'bitcoin' ? 21_000_000 : supply,
    ath: round(ath),
    ath_change_percentage: round((c.price / ath - 1) * 100, 6),
    ath_date: '2025-10-06T18:57:42.558Z',
    atl: round(atl),
    atl_change_percentage: round((c.price / atl - 1) * 100, 6),
    atl_date: '2013-07-06T00:00:00.000Z',
    roi: null,
    last_updated: new Date(now).toISOString(),
    market_cap_rank_with_rehypothecated: rank,
  };
  if (query.get('sparkline') === 'true') row.sparkline_in_7d = { price: sparkline(c.id, c.price, day) };
  for (const w of asked) row[`price_change_percentage_${w}_in_currency`] = round(changes[w] ?? (unit(`${c.id}:${w}:${day}`) - 0.5) * 20, 6);
  return row;
}

function fillers(count: number, from: number): SimCoin[] {
  return Array.from({ length: count }, (_, i) => {
    const n = from + i + 1;
    return {
      id: `sim-coin-${n}`,
      symbol: `sim${n}`,
      name: `Sim Coin ${n}`,
      price: round(0.01 + unit(`filler:${n}`) * 5, 6),
      marketCap: Math.round(5e8 / n),
      volume: Math.round(2e7 / n),
      change24h: 0,
      change1h: 0,
    };
  });
}

export function coingecko(deps: ProviderDeps): SimProvider {
  const markets = (query: URLSearchParams): Record<string, unknown>[] | undefined => {
    const category = query.get('category');
    if (category !== null && !CATEGORIES[category]) return undefined;
    const perPage = Math.max(1, Math.min(250, Number(query.get('per_page') ?? '100') || 100));
    const now = deps.now();
    let coins = simCoins(deps);
    if (category) coins = coins.filter((c) => inCategory(c, category));
    else if (coins.length < perPage) coins = [...coins, ...fillers(perPage - coins.length, coins.length)];
    return coins.slice(0, perPage).map((c, i) => marketRow(c, i + 1, query, now));
  };

  const global = (): Record<string, unknown> => {
    const coins = simCoins(deps);
    const total = coins.reduce((sum, c) => sum + c.marketCap, 0) / 0.9;
    const volume = coins.reduce((sum, c) => sum + c.volume, 0);
    const share = (id: string): number => ((coins.find((c) => c.id === id)?.marketCap ?? 0) / total) * 100;
    const btcPrice = coins.find((c) => c.id === 'bitcoin')?.price || 1;
    const ethPrice = coins.find((c) => c.id === 'ethereum')?.price || 1;
    return {
      data: {
        active_cryptocurrencies: 17397,
        upcoming_icos: 0,
        ongoing_icos: 49,
        ended_icos: 3376,
        markets: 1476,
        total_market_cap: { btc: total / btcPrice, eth: total / ethPrice, usd: total },
        total_volume: { btc: volume / btcPrice, eth: volume / ethPrice, usd: volume },
        market_cap_percentage: { btc: share('bitcoin'), eth: share('ethereum'), usdt: share('tether') },
        market_cap_change_percentage_24h_usd: coins[0]?.change24h ?? 0,
        volume_change_percentage_24h_usd: 3.1,
        updated_at: Math.floor(deps.now() / 1000),
      },
    };
  };

  const trending = (): Record<string, unknown> => {
    const coins = simCoins(deps).filter((c) => c.price !== 1);
    const day = Math.floor(deps.now() / DAY_MS);
    const picked = [...coins].sort((a, b) => hashOf(`${day}:${a.id}`) - hashOf(`${day}:${b.id}`)).slice(0, 7);
    return {
      coins: picked.map((c, i) => ({
        item: {
          id: c.id,
          coin_id: hashOf(c.id) % 40000,
          name: c.name,
          symbol: c.symbol.toUpperCase(),
          market_cap_rank: coins.indexOf(c) + 1,
          thumb: `https://coin-images.coingecko.com/coins/images/1/standard/${c.id}.png`,
          small: `https://coin-images.coingecko.com/coins/images/1/small/${c.id}.png`,
          large: `https://coin-images.coingecko.com/coins/images/1/large/${c.id}.png`,
          slug: c.id,
          price_btc: c.price / (coins[0]?.price || 1),
          score: i,
          data: {
            price: c.price,
            price_btc: String(c.price / (coins[0]?.price || 1)),
            price_change_percentage_24h: { usd: c.change24h, btc: c.change24h - (coins[0]?.change24h ?? 0) },
            market_cap: `$${Math.round(c.marketCap).toLocaleString('en-US')}`,
            market_cap_btc: String(c.marketCap / (coins[0]?.price || 1)),
            total_volume: `$${Math.round(c.volume).toLocaleString('en-US')}`,
            total_volume_btc: String(c.volume / (coins[0]?.price || 1)),
            sparkline: `https://www.coingecko.com/coins/${hashOf(c.id) % 40000}/sparkline.svg`,
            content: null,
          },
        },
      })),
      nfts: [],
      categories: Object.entries(CATEGORIES)
        .slice(0, 3)
        .map(([slug, c], i) => ({
          id: 100 + i,
          name: c.name,
          top_3_coins_images: c.members.slice(0, 3).map((m) => `https://assets.coingecko.com/coins/images/1/small/${m.toLowerCase()}.png`),
          market_cap_1h_change: 0.1 * (i + 1),
          slug,
          coins_count: String(c.members.length),
          data: {
            market_cap: 1e11 / (i + 1),
            market_cap_btc: 1e11 / (i + 1) / (coins[0]?.price || 1),
            total_volume: 1e10 / (i + 1),
            total_volume_btc: 1e10 / (i + 1) / (coins[0]?.price || 1),
            market_cap_change_percentage_24h: { usd: 1.5 - i, btc: 0.5 - i },
            sparkline: `https://www.coingecko.com/categories/${100 + i}/sparkline.svg`,
          },
        })),
    };
  };

  return {
    name: 'coingecko',
    handle: ({ path, query }) => {
      switch (path) {
        case '/api/v3/coins/markets': {
          const rows = markets(query);
          return rows ? json(rows) : json({ error: 'category not found' }, 404);
        }
        case '/api/v3/coins/categories/list':
          return json(Object.entries(CATEGORIES).map(([id, c]) => ({ category_id: id, name: c.name })));
        case '/api/v3/global':
          return json(global());
        case '/api/v3/search/trending':
          return json(trending());
        default:
          return undefined;
      }
    },
  };
}
