/**
 * DefiLlama: /v2/chains and /protocols (api.llama.fi) and /stablecoins (stablecoins.llama.fi), both
 * under /defillama. Shapes of fixtures/defillama; the stablecoin shape follows DefiLlama's OpenAPI
 * schema (no recorded sample exists). TVLs drift a little with the day.
 */
import { DAY_MS, json, unit, type ProviderDeps, type SimProvider } from './provider-types.js';

const CHAINS: ReadonlyArray<readonly [string, number, string, string]> = [
  ['Ethereum', 6.1e10, 'ETH', 'ethereum'],
  ['Solana', 9.5e9, 'SOL', 'solana'],
  ['BSC', 6.2e9, 'BNB', 'binancecoin'],
  ['Tron', 5.9e9, 'TRX', 'tron'],
  ['Bitcoin', 5.1e9, 'BTC', 'bitcoin'],
  ['Base', 4.3e9, '', 'base'],
  ['Arbitrum', 2.9e9, 'ARB', 'arbitrum'],
  ['Sui', 1.6e9, 'SUI', 'sui'],
  ['Avalanche', 1.4e9, 'AVAX', 'avalanche-2'],
  ['Polygon', 9.0e8, 'POL', 'matic-network'],
  ['Aptos', 8.5e8, 'APT', 'aptos'],
  ['Optimism', 6.0e8, 'OP', 'optimism'],
  ['Harmony', 4.8e6, 'ONE', 'harmony'],
];

const PROTOCOLS: ReadonlyArray<readonly [string, string, number, string[]]> = [
  ['Binance CEX', 'CEX', 1.15e11, ['Bitcoin', 'Ethereum', 'Binance']],
  ['Lido', 'Liquid Staking', 2.9e10, ['Ethereum', 'Solana']],
  ['Aave V3', 'Lending', 2.6e10, ['Ethereum', 'Arbitrum', 'Base', 'Avalanche', 'Polygon', 'Optimism']],
  ['EigenLayer', 'Restaking', 1.3e10, ['Ethereum']],
  ['ether.fi', 'Liquid Restaking', 8.1e9, ['Ethereum']],
  ['Ethena USDe', 'Basis Trading', 7.2e9, ['Ethereum']],
  ['Uniswap V3', 'Dexs', 4.6e9, ['Ethereum', 'Arbitrum', 'Base', 'Polygon']],
  ['Maker', 'CDP', 4.4e9, ['Ethereum']],
  ['Jito', 'Liquid Staking', 3.2e9, ['Solana']],
  ['Pendle', 'Yield', 3.9e9, ['Ethereum', 'Arbitrum']],
  ['Morpho', 'Lending', 3.6e9, ['Ethereum', 'Base']],
  ['Ethereum (staking)', 'Chain', 9e10, ['Ethereum']],
  ['JustLend', 'Lending', 3.3e9, ['Tron']],
  ['Curve DEX', 'Dexs', 2.1e9, ['Ethereum', 'Arbitrum']],
];

const STABLECOINS: ReadonlyArray<readonly [string, string, string, number, number]> = [
  ['Tether', 'USDT', 'peggedUSD', 1.5e11, 1.0003],
  ['USD Coin', 'USDC', 'peggedUSD', 7.3e10, 0.9999],
  ['Ethena USDe', 'USDe', 'peggedUSD', 1.2e10, 1.0],
  ['Dai', 'DAI', 'peggedUSD', 5.3e9, 1.0001],
  ['USDS', 'USDS', 'peggedUSD', 7.9e9, 1.0],
  ['First Digital USD', 'FDUSD', 'peggedUSD', 1.6e9, 0.998],
  ['PayPal USD', 'PYUSD', 'peggedUSD', 1.0e9, 1.0],
  ['Euro Coin', 'EURC', 'peggedEUR', 2.2e8, 1.16],
];

export function defillama(deps: ProviderDeps): SimProvider {
  const drift = (name: string): number => {
    const day = Math.floor(deps.now() / DAY_MS);
    return 1 + (unit(`${name}:${day}`) - 0.5) * 0.04;
  };
  return {
    name: 'defillama',
    handle: ({ path }) => {
      switch (path) {
        case '/v2/chains':
          return json(
            CHAINS.map(([name, tvl, tokenSymbol, gecko], i) => ({
              gecko_id: gecko,
              tvl: tvl * drift(name),
              tokenSymbol,
              cmcId: String(1000 + i),
              name,
              chainId: i + 1,
            })),
          );
        case '/protocols':
          return json(
            PROTOCOLS.map(([name, category, tvl, chains], i) => {
              const slug = name
                .toLowerCase()
                .replace(/[^a-z0-9]+/g, '-')
                .replace(/^-|-$/g, '');
              const total = tvl * drift(name);
              return {
                id: String(100 + i),
                name,
                address: null,
                symbol: '-',
                url: `https://${slug}.example`,
                description: `${name} (simulated)`,
                chain: chains.length > 1 ? 'Multi-Chain' : chains[0],
                logo: `https://icons.llama.fi/${slug}.jpg`,
                audits: '0',
                audit_note: null,
                gecko_id: null,
                cmcId: null,
                category,
                chains,
                module: `${slug}/index.js`,
                twitter: slug,
                forkedFrom: [],
                oracles: [],
                listedAt: 1668170565,
                methodology: 'Simulated TVL',
                slug,
                tvl: total,
                chainTvls: Object.fromEntries(chains.map((chain) => [chain, total / chains.length])),
                change_1h: 0.05,
                change_1d: (unit(`${name}:1d`) - 0.5) * 4,
                change_7d: (unit(`${name}:7d`) - 0.5) * 10,
                tokenBreakdowns: {},
                mcap: null,
              };
            }),
          );
        case '/stablecoins':
          return json({
            peggedAssets: STABLECOINS.map(([name, symbol, pegType, amount, price], i) => ({
              id: String(i + 1),
              name,
              symbol,
              gecko_id: name.toLowerCase().replace(/\s+/g, '-'),
              pegType,
              priceSource: 'defillama',
              pegMechanism: 'fiat-backed',
              circulating: { [pegType]: amount * drift(symbol) },
              circulatingPrevDay: { [pegType]: amount },
              circulatingPrevWeek: { [pegType]: amount },
              circulatingPrevMonth: { [pegType]: amount },
              chains: ['Ethereum', 'Tron'],
              price,
            })),
          });
        default:
          return undefined;
      }
    },
  };
}
