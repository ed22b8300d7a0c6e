/** The two regional quotes built from their sources' data. Pure: numbers in, numbers out. */
import type { BookTop, UsdBrlRate } from './providers/brl-formats.js';
import type { CriptoyaQuote, DollarName, ReferenceDollars } from './providers/criptoya-format.js';
import { agio, bestVenues, brecha, dropOutliers, median, midOf, roundMoney, roundPct, spreadPct, type TwoSided } from './latam-math.js';
import { DIRECT_BRL_VENUES, venueName, withFee } from './venues.js';

export interface VenueRow {
  id: string;
  name: string;
  /** Fee-inclusive price to buy one unit. */
  ask: number;
  /** Fee-inclusive price received for selling one unit. */
  bid: number;
  /** (ask - bid) / mid, percent. */
  spread: number;
}

/** The best venue to buy at; price is ask under the original's name. */
export interface BestBuy {
  id: string;
  name: string;
  ask: number;
  price: number;
}

/** The best venue to sell at; price is bid under the original's name. */
export interface BestSell {
  id: string;
  name: string;
  bid: number;
  price: number;
}

/** The reference dollars by the original's Spanish names, and by this service's earlier English ones (official, card). */
export type DollarKey = 'oficial' | 'blue' | 'mep' | 'ccl' | 'tarjeta' | 'official' | 'card';

/** A reference dollar: what a buyer pays (ask), and what a seller gets (bid) where the source quotes it. */
export interface DollarView {
  ask: number;
  bid?: number;
}

export type DolarView = Record<DollarKey, DollarView | null>;
export type Brecha = Record<DollarKey, number | null>;

const byBothNames = <T>(value: (name: DollarName) => T): Record<DollarKey, T> => ({
  oficial: value('official'),
  blue: value('blue'),
  mep: value('mep'),
  ccl: value('ccl'),
  tarjeta: value('card'),
  official: value('official'),
  card: value('card'),
});

/** The reference dollars as a quote shows them: { ask } or { ask, bid }, under both names of each. */
export function dolarView(dolar: ReferenceDollars): DolarView {
  return byBothNames((name) => {
    const ask = dolar[name];
    const bid = dolar.bids?.[name];
    if (ask === null) return null;
    return bid === undefined ? { ask } : { ask, bid };
  });
}

export interface ArQuote {
  n: number;
  /** Median mid (ARS per USDT) of the venues kept. */
  mid: number | null;
  bestBuy: BestBuy | null;
  bestSell: BestSell | null;
  /** Sorted by ask, cheapest first. */
  rows: VenueRow[];
  /** Venues left out for being more than 20 % away from the median. */
  dropped: string[];
  dolar: DolarView | null;
  brecha: Brecha | null;
}

export interface BrRow extends VenueRow {
  agio: number | null;
}

export interface BrQuote {
  n: number;
  btcMid: number | null;
  usdtMid: number | null;
  btcUsd: number | null;
  usdbrl: number | null;
  usdbrlSource: UsdBrlRate['source'] | null;
  /** BTC/USD x USD/BRL: the BTC price in reais with no premium. */
  fair: number | null;
  /** Median agio of the BTC rows, percent. */
  agioMid: number | null;
  /** Median agio of the USDT rows against the commercial dollar, percent. */
  usdtAgioMid: number | null;
  bestBuy: { btc: BestBuy | null; usdt: BestBuy | null };
  bestSell: { btc: BestSell | null; usdt: BestSell | null };
  btc: BrRow[];
  usdt: BrRow[];
  dropped: { btc: string[]; usdt: string[] };
}

const row = (q: TwoSided): VenueRow => ({
  id: q.id,
  name: venueName(q.id),
  ask: roundMoney(q.ask),
  bid: roundMoney(q.bid),
  spread: Number(spreadPct(q.ask, q.bid).toFixed(2)),
});
const byAsk = (a: TwoSided, b: TwoSided): number => a.ask - b.ask || a.id.localeCompare(b.id);

function best(kept: readonly TwoSided[]): { buy: BestBuy | null; sell: BestSell | null } {
  const { buy, sell } = bestVenues(kept);
  return {
    buy: buy ? { id: buy.id, name: venueName(buy.id), ask: roundMoney(buy.ask), price: roundMoney(buy.ask) } : null,
    sell: sell ? { id: sell.id, name: venueName(sell.id), bid: roundMoney(sell.bid), price: roundMoney(sell.bid) } : null,
  };
}

const maybeRound = (x: number | null): number | null => (x === null ? null : roundMoney(x));

export function buildArQuote(quotes: readonly CriptoyaQuote[] | null, dolar: ReferenceDollars | null): ArQuote {
  const { kept, dropped } = dropOutliers(quotes ?? []);
  const mid = median(kept.map(midOf));
  const { buy, sell } = best(kept);
  return {
    n: kept.length,
    mid: maybeRound(mid),
    bestBuy: buy,
    bestSell: sell,
    rows: [...kept].sort(byAsk).map(row),
    dropped: dropped.map((q) => q.id),
    dolar: dolar ? dolarView(dolar) : null,
    brecha: dolar ? byBothNames((name) => roundPct(brecha(mid, dolar[name]))) : null,
  };
}

export interface BrVenueInput {
  id: string;
  /** Fee-inclusive. */
  btc?: BookTop;
  usdt?: BookTop;
}

/** Direct venues get their taker fee added; CriptoYa's prices already include fees and its copies of direct venues are skipped. */
export function brVenueInputs(
  direct: Record<string, { btc?: BookTop; usdt?: BookTop } | null>,
  criptoya: { btc: readonly CriptoyaQuote[]; usdt: readonly CriptoyaQuote[] } | null,
): BrVenueInput[] {
  const venues = new Map<string, BrVenueInput>();
  for (const [id, pair] of Object.entries(direct)) {
    if (!pair) continue;
    venues.set(id, {
      id,
      btc: pair.btc ? withFee(id, pair.btc.ask, pair.btc.bid) : undefined,
      usdt: pair.usdt ? withFee(id, pair.usdt.ask, pair.usdt.bid) : undefined,
    });
  }
  for (const asset of ['btc', 'usdt'] as const) {
    for (const q of criptoya?.[asset] ?? []) {
      if (DIRECT_BRL_VENUES.has(q.id)) continue;
      const venue = venues.get(q.id) ?? { id: q.id };
      venue[asset] = { ask: q.ask, bid: q.bid };
      venues.set(q.id, venue);
    }
  }
  return [...venues.values()];
}

export function buildBrQuote(venues: readonly BrVenueInput[], btcUsd: number | null, usd: UsdBrlRate | null): BrQuote {
  const usdbrl = usd?.rate ?? null;
  const side = (asset: 'btc' | 'usdt'): TwoSided[] =>
    venues.flatMap((v) => {
      const top = v[asset];
      return top ? [{ id: v.id, ask: top.ask, bid: top.bid }] : [];
    });
  const btc = dropOutliers(side('btc'));
  const usdt = dropOutliers(side('usdt'));
  const btcRows: BrRow[] = [...btc.kept].sort(byAsk).map((q) => ({ ...row(q), agio: roundPct(agio(q.ask, btcUsd, usdbrl)) }));
  const usdtRows: BrRow[] = [...usdt.kept].sort(byAsk).map((q) => ({ ...row(q), agio: roundPct(agio(q.ask, 1, usdbrl)) }));
  const btcAgios = btc.kept.map((q) => agio(q.ask, btcUsd, usdbrl)).filter((a): a is number => a !== null);
  const usdtAgios = usdt.kept.map((q) => agio(q.ask, 1, usdbrl)).filter((a): a is number => a !== null);
  const bestBtc = best(btc.kept);
  const bestUsdt = best(usdt.kept);
  return {
    n: new Set([...btc.kept, ...usdt.kept].map((q) => q.id)).size,
    btcMid: maybeRound(median(btc.kept.map(midOf))),
    usdtMid: maybeRound(median(usdt.kept.map(midOf))),
    btcUsd,
    usdbrl: usdbrl === null ? null : Number(usdbrl.toFixed(4)),
    usdbrlSource: usd?.source ?? null,
    fair: btcUsd !== null && usdbrl !== null ? roundMoney(btcUsd * usdbrl) : null,
    agioMid: roundPct(median(btcAgios)),
    usdtAgioMid: roundPct(median(usdtAgios)),
    bestBuy: { btc: bestBtc.buy, usdt: bestUsdt.buy },
    bestSell: { btc: bestBtc.sell, usdt: bestUsdt.sell },
    btc: btcRows,
    usdt: usdtRows,
    dropped: { btc: btc.dropped.map((q) => q.id), usdt: usdt.dropped.map((q) => q.id) },
  };
}
