/**
 * The simulation profile of a book: eighteen fields in four groups (book, fill, cost, liquidation),
 * their ranges and meanings, the engine defaults and the presets. Everything /sim and /realism
 * answer and accept comes from these tables; the realism switches are three of the fields. Pure.
 */
import type { Impact } from './fill-model.js';
import { MARGIN_VENUES, MMR_PCT_RANGE } from './margin-model.js';

export interface SimProfile {
  // book
  start_balance_usd: number;
  margin_enforced: boolean;
  leverage_max: number;
  max_notional_usd: number;
  // fill
  slippage: boolean;
  slippage_bps: number | null;
  impact_bps_per_100k: Impact;
  exit_slippage: boolean;
  latency_ms: number;
  partial_fills: boolean;
  min_fill_pct: number;
  reject_rate_pct: number;
  // cost
  taker_bps: number | null;
  funding: boolean;
  funding_mult: number;
  // liquidation
  margin_venue: string;
  margin_tiers: boolean;
  mmr_pct: number | null;
}

export type SimField = keyof SimProfile;
export type SimGroup = 'book' | 'fill' | 'cost' | 'liquidation';

/** How a field is sent: a boolean, a number in a range (null allowed: "use the tables"), a venue name, or an impact. */
export type FieldKind =
  | { type: 'boolean' }
  | { type: 'number'; min: number; max: number; integer?: boolean; nullable?: boolean }
  | { type: 'venue' }
  | { type: 'impact'; min: number; max: number };

export interface FieldSpec {
  group: SimGroup;
  kind: FieldKind;
  meaning: string;
}

/** The engine defaults, the original's behaviour: a scorecard balance, whole fills at the live price, flat 0.5%, fee tables, funding. */
export const DEFAULT_PROFILE: Readonly<SimProfile> = {
  start_balance_usd: 10_000,
  margin_enforced: false,
  leverage_max: 1000,
  max_notional_usd: 100_000_000,
  slippage: false,
  slippage_bps: null,
  impact_bps_per_100k: 0,
  exit_slippage: false,
  latency_ms: 0,
  partial_fills: false,
  min_fill_pct: 10,
  reject_rate_pct: 0,
  taker_bps: null,
  funding: true,
  funding_mult: 1,
  margin_venue: '',
  margin_tiers: false,
  mmr_pct: null,
};

const num = (min: number, max: number, extra: { integer?: boolean; nullable?: boolean } = {}): FieldKind => ({
  type: 'number',
  min,
  max,
  ...extra,
});
const bool: FieldKind = { type: 'boolean' };

export const SIM_FIELDS: Readonly<Record<SimField, FieldSpec>> = {
  start_balance_usd: { group: 'book', kind: num(100, 10_000_000), meaning: 'Starting balance, USD; takes effect at the next reset' },
  margin_enforced: {
    group: 'book',
    kind: bool,
    meaning: 'The balance is a budget: an open past free margin (balance minus margin in use) answers 402 insufficient_margin',
  },
  leverage_max: { group: 'book', kind: num(1, 1000), meaning: "A leverage cap of the book's own, below the symbol caps" },
  max_notional_usd: { group: 'book', kind: num(100, 100_000_000), meaning: 'Largest notional (margin x leverage) one open may take, USD' },
  slippage: { group: 'fill', kind: bool, meaning: 'Fills pay the slippage rate against the trader (a buy higher, a sell lower)' },
  slippage_bps: {
    group: 'fill',
    kind: num(0, 500, { nullable: true }),
    meaning:
      'The slippage rate in bps for every symbol; null: the table (majors 1, thinner crypto 5, forex 0.5, stocks, metals, indices 2)',
  },
  impact_bps_per_100k: {
    group: 'fill',
    kind: { type: 'impact', min: 0, max: 1000 },
    meaning:
      'Market impact: bps the average fill moves per 100k USD of notional (depth: the notional at a 1% move), or "book": walk the ' +
      "venue's order book (majors; others fill without impact)",
  },
  exit_slippage: {
    group: 'fill',
    kind: bool,
    meaning:
      'Exits pay slippage too, and a stop, trailing stop or liquidation whose candle opened beyond it fills at that open (gap-aware)',
  },
  latency_ms: {
    group: 'fill',
    kind: num(0, 5000, { integer: true }),
    meaning: 'A market open fills at the price this many ms after the request',
  },
  partial_fills: { group: 'fill', kind: bool, meaning: 'An open larger than the modelled depth fills only what the depth takes' },
  min_fill_pct: { group: 'fill', kind: num(1, 100), meaning: 'A partial fill below this share of the request is refused (fill_below_min)' },
  reject_rate_pct: {
    group: 'fill',
    kind: num(0, 50),
    meaning: 'Share of market opens refused with 503 order_rejected (retryable), drawn from a seeded per-book sequence',
  },
  taker_bps: {
    group: 'cost',
    kind: num(0, 100, { nullable: true }),
    meaning: 'Taker fee per side in bps for every symbol; null: the class rates or the fee venue',
  },
  funding: { group: 'cost', kind: bool, meaning: 'Positions pay and receive funding at 00, 08 and 16 UTC' },
  funding_mult: { group: 'cost', kind: num(0, 10), meaning: 'Multiplies the funding a position pays or receives' },
  margin_venue: {
    group: 'liquidation',
    kind: { type: 'venue' },
    meaning: 'A venue whose published base maintenance rate replaces the flat 0.5% ("" for none); moves only the liquidation price',
  },
  margin_tiers: { group: 'liquidation', kind: bool, meaning: 'Maintenance margin rises with notional along the tier ladder' },
  mmr_pct: {
    group: 'liquidation',
    kind: num(MMR_PCT_RANGE.min, MMR_PCT_RANGE.max, { nullable: true }),
    meaning: 'Base maintenance margin, percent of notional; null: the venue or the flat 0.5%',
  },
};

export const SIM_FIELD_NAMES = Object.keys(SIM_FIELDS) as SimField[];

export interface Preset {
  values: Partial<SimProfile>;
  source: string;
}

const venuePreset = (venue: string, takerBps: number, source: string): Preset => ({
  values: { slippage: true, exit_slippage: true, taker_bps: takerBps, margin_venue: venue, margin_tiers: true, funding: true },
  source,
});

/**
 * The presets. A preset sets every field but start_balance_usd (which a reset applies) to the
 * engine default or its own value; fields sent beside it win over it.
 */
export const PRESETS = {
  frictionless: {
    values: { taker_bps: 0, funding: false },
    source:
      'No costs at all: whole fills at the live price, no fees, no funding, the flat 0.5% maintenance. For checking signal logic only.',
  },
  realistic: {
    values: {
      slippage: true,
      impact_bps_per_100k: 'book',
      exit_slippage: true,
      partial_fills: true,
      min_fill_pct: 10,
      margin_tiers: true,
    },
    source:
      'What a retail taker on a large venue meets: the spread (the slippage table), impact from the real order book of the majors, ' +
      'exits that slip and stops that gap, fills capped by the depth, maintenance rising with size; the fee tables and funding as ' +
      'they are.',
  },
  binance: venuePreset(
    'binance',
    5,
    'Binance USDⓈ-M base tier: taker 0.050% (binance.com/en/fee/futureFee), BTCUSDT first-bracket maintenance 0.40%',
  ),
  bybit: venuePreset(
    'bybit',
    5.5,
    'Bybit derivatives base tier: taker 0.055% (bybit.com/en/help-center fee rates), BTCUSDT first risk-limit tier 0.50%',
  ),
  okx: venuePreset('okx', 5, 'OKX swaps regular tier: taker 0.050% (okx.com/fees), BTC-USDT-SWAP tier 1 maintenance 0.40%'),
  hyperliquid: venuePreset(
    'hyperliquid',
    4.5,
    'Hyperliquid base tier: taker 0.045% (hyperliquid.gitbook.io fees), BTC maintenance 1.25% (half the initial margin at 40x)',
  ),
  thin_book: {
    values: {
      slippage: true,
      slippage_bps: 10,
      impact_bps_per_100k: 50,
      exit_slippage: true,
      partial_fills: true,
      min_fill_pct: 25,
      margin_tiers: true,
    },
    source:
      'A small-cap perpetual: a 0.10% spread, 0.5% of impact per 100k (so 200k of depth to a 1% move), fills capped by that depth ' +
      'and refused below a quarter.',
  },
  brutal: {
    values: {
      margin_enforced: true,
      slippage: true,
      slippage_bps: 25,
      impact_bps_per_100k: 25,
      exit_slippage: true,
      latency_ms: 250,
      partial_fills: true,
      min_fill_pct: 50,
      reject_rate_pct: 5,
      taker_bps: 10,
      funding_mult: 2,
      margin_venue: 'hyperliquid',
      margin_tiers: true,
    },
    source:
      'A stress test, each cost at the bad end of what traders meet: a 0.25% spread, heavy impact, a quarter second of latency, 5% ' +
      'of orders rejected, twice the fee and the funding, the highest common maintenance rate with tiers, and the balance as a hard ' +
      'budget. A strategy that survives it is not living on friction.',
  },
} as const satisfies Record<string, Preset>;

export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

export function isPresetName(name: string): name is PresetName {
  return Object.prototype.hasOwnProperty.call(PRESETS, name);
}

export function isMarginVenueName(name: string): boolean {
  return name === '' || MARGIN_VENUES.some((v) => v.venue === name);
}

/** The full profile of a preset, keeping `startBalance`. */
export function presetProfile(name: PresetName, startBalance: number): SimProfile {
  return { ...DEFAULT_PROFILE, ...(PRESETS[name].values as Partial<SimProfile>), start_balance_usd: startBalance };
}

/** The profile a change makes: the base (current, a preset's, or the defaults on reset) with the sent fields over it. */
export function applyChange(
  current: SimProfile,
  change: { reset?: boolean; preset?: PresetName; fields: Partial<SimProfile> },
): SimProfile {
  const base = change.reset ? { ...DEFAULT_PROFILE } : change.preset ? presetProfile(change.preset, current.start_balance_usd) : current;
  return { ...base, ...change.fields };
}

/** A stored profile read back: unknown or missing fields take the defaults (a profile stored before a field existed). */
export function parseProfile(json: string | null | undefined): SimProfile {
  if (!json) return { ...DEFAULT_PROFILE };
  const stored = JSON.parse(json) as Partial<SimProfile>;
  const profile: SimProfile = { ...DEFAULT_PROFILE };
  for (const name of SIM_FIELD_NAMES) if (stored[name] !== undefined) (profile as unknown as Record<string, unknown>)[name] = stored[name];
  return profile;
}

/** Which preset, if any, a profile is exactly (start_balance_usd aside); 'default' for the engine defaults. */
export function profileLabel(profile: SimProfile): PresetName | 'default' | 'custom' {
  const same = (other: SimProfile) => SIM_FIELD_NAMES.every((f) => f === 'start_balance_usd' || other[f] === profile[f]);
  if (same(DEFAULT_PROFILE)) return 'default';
  return PRESET_NAMES.find((name) => same(presetProfile(name, profile.start_balance_usd))) ?? 'custom';
}

/**
 * The n-th draw (n from 0) of a book's seeded sequence, in [0, 1): a 32-bit mix of seed and n
 * (the murmur3 finalizer), so the same seed gives the same refusals in the same order.
 */
export function seededDraw(seed: number, n: number): number {
  let h = (seed ^ Math.imul(n + 1, 0x9e3779b1)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return (h >>> 0) / 0x1_0000_0000;
}

/** A 32-bit seed from a text (FNV-1a): a book's seed from its account and name. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** Whether the n-th open of a book with this seed is rejected at `ratePct`. */
export function rejected(seed: number, n: number, ratePct: number): boolean {
  return ratePct > 0 && seededDraw(seed, n) * 100 < ratePct;
}
