/** CriptoYa bodies: /api/{coin}/{fiat}/{volume} (venue -> prices) and /api/dolar (reference dollars). Pure. */
import { isRecord, toNumber } from '../../market/parse-utils.js';
import { ProviderFormatError } from '../../http/provider-http.js';

export interface CriptoyaQuote {
  /** CriptoYa's venue slug. */
  id: string;
  /** Fee-inclusive prices for the requested volume (totalAsk, totalBid); 0 when a side has no offer. */
  ask: number;
  bid: number;
  /** Seconds, as sent. */
  time: number | null;
}

/** The five reference dollars by the price a buyer pays (pesos per dollar). */
export interface ReferenceDollars {
  official: number | null;
  blue: number | null;
  mep: number | null;
  ccl: number | null;
  card: number | null;
  /** The buying price, for the dollars the source quotes both ways (the blue); absent in answers stored before it was read. */
  bids?: Partial<Record<DollarName, number>>;
}

export type DollarName = 'official' | 'blue' | 'mep' | 'ccl' | 'card';

/** Every venue entry with totalAsk/totalBid (falling back to ask/bid); throws when there is none. */
export function parseCriptoyaQuotes(body: unknown): CriptoyaQuote[] {
  if (!isRecord(body)) throw new ProviderFormatError('criptoya: the answer is not an object');
  const out: CriptoyaQuote[] = [];
  for (const [id, v] of Object.entries(body)) {
    if (!isRecord(v)) continue;
    const ask = toNumber(v.totalAsk) ?? toNumber(v.ask);
    const bid = toNumber(v.totalBid) ?? toNumber(v.bid);
    if (ask === undefined || bid === undefined) continue;
    out.push({ id, ask, bid, time: toNumber(v.time) ?? null });
  }
  if (out.length === 0) throw new ProviderFormatError('criptoya: no venue quotes in the answer');
  return out;
}

const at = (value: unknown, ...path: string[]): unknown => {
  let cur = value;
  for (const key of path) cur = isRecord(cur) ? cur[key] : undefined;
  return cur;
};

const price = (value: unknown, ...path: string[]): number | null => {
  const n = toNumber(at(value, ...path));
  return n !== undefined && n > 0 ? n : null;
};

/** A bond dollar (MEP, CCL): the AL30 spot (ci) price, else AL30 24hs, else the first bond with a price. */
function bondDollar(body: unknown, kind: 'mep' | 'ccl'): number | null {
  const direct = price(body, kind, 'al30', 'ci', 'price') ?? price(body, kind, 'al30', '24hs', 'price');
  if (direct !== null) return direct;
  const bonds = at(body, kind);
  if (!isRecord(bonds)) return price(body, kind, 'price');
  for (const bond of Object.values(bonds)) {
    const found = price(bond, 'ci', 'price') ?? price(bond, '24hs', 'price') ?? price(bond, 'price');
    if (found !== null) return found;
  }
  return null;
}

/**
 * /api/dolar: official = oficial.price, blue = blue.ask (the selling price, what a buyer pays) with
 * blue.bid as its buying price, MEP and CCL from the AL30 bond, card = tarjeta.price. Throws when no
 * dollar at all can be read.
 */
export function parseDolar(body: unknown): ReferenceDollars {
  if (!isRecord(body)) throw new ProviderFormatError('criptoya /api/dolar: the answer is not an object');
  const asks = {
    official: price(body, 'oficial', 'price') ?? price(body, 'oficial', 'ask'),
    blue: price(body, 'blue', 'ask') ?? price(body, 'blue', 'price'),
    mep: bondDollar(body, 'mep'),
    ccl: bondDollar(body, 'ccl'),
    card: price(body, 'tarjeta', 'price') ?? price(body, 'tarjeta', 'ask'),
  };
  if (Object.values(asks).every((v) => v === null)) throw new ProviderFormatError('criptoya /api/dolar: no reference dollar in the answer');
  const blueBid = price(body, 'blue', 'bid');
  return { ...asks, bids: blueBid === null ? {} : { blue: blueBid } };
}
