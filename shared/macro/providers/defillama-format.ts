/** DefiLlama bodies (/v2/chains, /protocols, stablecoins /stablecoins) and the overview built from them. Pure. */
import { isRecord, toNumber, toStr } from '../../market/parse-utils.js';
import { ProviderFormatError, providerRows } from '../../http/provider-http.js';

export interface ChainTvl {
  name: string;
  tvl: number;
}

export interface ProtocolTvl {
  name: string;
  slug: string | null;
  category: string | null;
  tvl: number;
  change1d: number | null;
  change7d: number | null;
  chains: number;
}

export interface Stablecoin {
  name: string;
  symbol: string;
  pegType: string | null;
  circulatingUsd: number;
  price: number | null;
}

export interface DefiOverview {
  /** Sum of every chain's TVL, USD. */
  totalTvl: number;
  chains: (ChainTvl & { sharePct: number })[];
  protocols: ProtocolTvl[];
  stablecoins: Stablecoin[];
  stablecoinsTotalUsd: number;
}

/** Entries per list in the overview. */
export const DEFI_TOP = 10;
/** Categories DefiLlama itself leaves out of DeFi TVL rankings: exchange reserves and chains. */
const NOT_DEFI = new Set(['CEX', 'Chain']);

const num = (v: unknown): number | null => toNumber(v) ?? null;

export function parseChains(body: unknown): ChainTvl[] {
  const chains = providerRows(body, 'defillama /v2/chains', (c) => {
    const name = toStr(c.name);
    const tvl = toNumber(c.tvl);
    return name && tvl !== undefined && tvl >= 0 ? { name, tvl } : undefined;
  });
  if (chains.length === 0) throw new ProviderFormatError('defillama /v2/chains: no chain with a TVL');
  return chains;
}

export function parseProtocols(body: unknown): ProtocolTvl[] {
  return providerRows(body, 'defillama /protocols', (p) => {
    const name = toStr(p.name);
    const tvl = toNumber(p.tvl);
    if (!name || tvl === undefined) return undefined;
    return {
      name,
      slug: toStr(p.slug) ?? null,
      category: toStr(p.category) ?? null,
      tvl,
      change1d: num(p.change_1d),
      change7d: num(p.change_7d),
      chains: Array.isArray(p.chains) ? p.chains.length : 0,
    };
  });
}

/** Circulating supply in USD: the pegged amount times its price (1 for a USD peg without a price). */
export function parseStablecoins(body: unknown): Stablecoin[] {
  const assets = isRecord(body) && Array.isArray(body.peggedAssets) ? body.peggedAssets : undefined;
  if (!assets) throw new ProviderFormatError('defillama /stablecoins: no peggedAssets list');
  const out: Stablecoin[] = [];
  for (const a of assets) {
    if (!isRecord(a) || !isRecord(a.circulating)) continue;
    const name = toStr(a.name);
    const pegType = toStr(a.pegType) ?? null;
    const amount = toNumber(a.circulating[pegType ?? 'peggedUSD']) ?? toNumber(a.circulating.peggedUSD);
    const price = num(a.price);
    if (!name || amount === undefined) continue;
    const usdPrice = price ?? (pegType === 'peggedUSD' || pegType === null ? 1 : null);
    if (usdPrice === null) continue;
    out.push({ name, symbol: toStr(a.symbol) ?? name, pegType, circulatingUsd: amount * usdPrice, price });
  }
  return out;
}

const byDesc =
  <T>(value: (x: T) => number) =>
  (a: T, b: T): number =>
    value(b) - value(a);

export function buildDefiOverview(
  chains: readonly ChainTvl[],
  protocols: readonly ProtocolTvl[],
  stablecoins: readonly Stablecoin[],
): DefiOverview {
  const totalTvl = chains.reduce((sum, c) => sum + c.tvl, 0);
  return {
    totalTvl,
    chains: [...chains]
      .sort(byDesc((c) => c.tvl))
      .slice(0, DEFI_TOP)
      .map((c) => ({ ...c, sharePct: totalTvl > 0 ? Number(((c.tvl / totalTvl) * 100).toFixed(2)) : 0 })),
    protocols: protocols
      .filter((p) => p.tvl > 0 && !NOT_DEFI.has(p.category ?? ''))
      .sort(byDesc((p) => p.tvl))
      .slice(0, DEFI_TOP),
    stablecoins: [...stablecoins].sort(byDesc((s) => s.circulatingUsd)).slice(0, DEFI_TOP),
    stablecoinsTotalUsd: stablecoins.reduce((sum, s) => sum + s.circulatingUsd, 0),
  };
}
