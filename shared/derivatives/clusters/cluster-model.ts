/**
 * Liquidation clusters: where positions opened over the recent window would be liquidated. A model,
 * not observed events; see MODEL.md for the assumptions. Pure: candles, open-interest snapshots and
 * the parameters go in, price bands come out.
 */

export interface ModelCandle {
  openTime: number;
  high: number;
  low: number;
  close: number;
  /** Base-coin volume. */
  volume: number;
}

export interface OiSnapshot {
  ts: number;
  /** Open interest in USD across the exchanges sampled. */
  oiUsd: number;
}

export interface LeverageShare {
  leverage: number;
  /** Share of new positions opened at this leverage; the shares are normalized to sum to 1. */
  weight: number;
}

export interface ClusterParams {
  leverageMix: readonly LeverageShare[];
  /** Maintenance margin rate (0.005 = 0.5 %). */
  mmr: number;
  /** Share of new open interest that is long. */
  longShare: number;
  /** Width of a price band as a fraction of the current price. */
  bandPct: number;
  /** Without open-interest history: the share of a candle's volume assumed to open positions. */
  volumeOpenShare: number;
  /** Most bands returned (the largest). */
  maxClusters: number;
}

/** The documented default: 5x to 100x, most positions at modest leverage. */
export const DEFAULT_CLUSTER_PARAMS: ClusterParams = {
  leverageMix: [
    { leverage: 5, weight: 0.25 },
    { leverage: 10, weight: 0.3 },
    { leverage: 25, weight: 0.2 },
    { leverage: 50, weight: 0.15 },
    { leverage: 100, weight: 0.1 },
  ],
  mmr: 0.005,
  longShare: 0.5,
  bandPct: 0.0025,
  volumeOpenShare: 0.05,
  maxClusters: 60,
};

export interface Cluster {
  price: number;
  side: 'long' | 'short';
  est_notional: number;
}

interface Opening {
  /** Index of the candle it opened in. */
  index: number;
  price: number;
  usd: number;
}

/** USD opened per candle: open-interest increases spread over the interval's candles by USD volume. */
export function openingsFromOi(candles: readonly ModelCandle[], oi: readonly OiSnapshot[], volumeOpenShare: number): Opening[] {
  const typical = (c: ModelCandle): number => (c.high + c.low + c.close) / 3;
  const usdVolume = candles.map((c) => c.volume * typical(c));
  const openings: Opening[] = candles.map((c, index) => ({ index, price: typical(c), usd: 0 }));
  if (oi.length < 2) {
    usdVolume.forEach((v, i) => (openings[i].usd = v * volumeOpenShare));
    return openings;
  }
  let start = 0;
  for (let k = 1; k < oi.length; k++) {
    const delta = oi[k].oiUsd - oi[k - 1].oiUsd;
    while (start < candles.length && candles[start].openTime < oi[k - 1].ts) start++;
    let end = start;
    while (end < candles.length && candles[end].openTime < oi[k].ts) end++;
    if (delta > 0) {
      let total = 0;
      for (let i = start; i < end; i++) total += usdVolume[i];
      if (total > 0) for (let i = start; i < end; i++) openings[i].usd += (delta * usdVolume[i]) / total;
    }
  }
  return openings;
}

/**
 * Share of the positions opened in each candle still open at the end: an open-interest decrease closes
 * that share of all positions open at its start, evenly (a closed position cannot be liquidated).
 */
export function survivalFactors(candles: readonly ModelCandle[], oi: readonly OiSnapshot[]): number[] {
  const decreases: { ts: number; factor: number }[] = [];
  for (let k = 1; k < oi.length; k++) {
    const delta = oi[k].oiUsd - oi[k - 1].oiUsd;
    if (delta < 0 && oi[k - 1].oiUsd > 0) decreases.push({ ts: oi[k - 1].ts, factor: Math.max(0, 1 + delta / oi[k - 1].oiUsd) });
  }
  const keep = new Array<number>(candles.length).fill(1);
  let product = 1;
  let d = decreases.length - 1;
  for (let i = candles.length - 1; i >= 0; i--) {
    // decreases that start after this candle opened apply to what it opened
    while (d >= 0 && decreases[d].ts > candles[i].openTime) product *= decreases[d--].factor;
    keep[i] = product;
  }
  return keep;
}

export function estimateClusters(
  candles: readonly ModelCandle[],
  oi: readonly OiSnapshot[],
  currentPrice: number,
  params: ClusterParams = DEFAULT_CLUSTER_PARAMS,
): Cluster[] {
  if (candles.length === 0 || !(currentPrice > 0)) return [];
  const weightSum = params.leverageMix.reduce((s, l) => s + l.weight, 0);
  if (!(weightSum > 0)) return [];
  const openings = openingsFromOi(candles, oi, params.volumeOpenShare);
  const keep = survivalFactors(candles, oi);
  // lowest low and highest high strictly after each candle: a level crossed since is already liquidated
  const minLowAfter = new Array<number>(candles.length + 1).fill(Infinity);
  const maxHighAfter = new Array<number>(candles.length + 1).fill(-Infinity);
  for (let i = candles.length - 1; i >= 0; i--) {
    minLowAfter[i] = Math.min(minLowAfter[i + 1], candles[i].low);
    maxHighAfter[i] = Math.max(maxHighAfter[i + 1], candles[i].high);
  }
  const width = currentPrice * params.bandPct;
  const bands = new Map<string, Cluster>();
  const add = (price: number, side: 'long' | 'short', usd: number): void => {
    const band = Math.round(price / width);
    const key = `${side}:${band}`;
    const cluster = bands.get(key) ?? { price: band * width, side, est_notional: 0 };
    cluster.est_notional += usd;
    bands.set(key, cluster);
  };
  for (const o of openings) {
    if (o.usd <= 0) continue;
    const alive = o.usd * keep[o.index];
    for (const { leverage, weight } of params.leverageMix) {
      if (!(leverage > 0)) continue;
      const share = alive * (weight / weightSum);
      const longLiq = o.price * (1 - 1 / leverage + params.mmr);
      const shortLiq = o.price * (1 + 1 / leverage - params.mmr);
      if (longLiq > 0 && minLowAfter[o.index + 1] > longLiq) add(longLiq, 'long', share * params.longShare);
      if (maxHighAfter[o.index + 1] < shortLiq) add(shortLiq, 'short', share * (1 - params.longShare));
    }
  }
  const significant = [...bands.values()].filter((c) => c.est_notional >= 1);
  return significant
    .sort((a, b) => b.est_notional - a.est_notional)
    .slice(0, params.maxClusters)
    .map((c) => ({ price: roundPrice(c.price), side: c.side, est_notional: Math.round(c.est_notional) }))
    .sort((a, b) => a.price - b.price || a.side.localeCompare(b.side));
}

/** Six significant digits: band centres need no more. */
function roundPrice(price: number): number {
  return Number(price.toPrecision(6));
}
