/**
 * The /sim and /realism resources of a book: the profile, its fields and presets, and changes to
 * it. /realism is a view of three of the profile's fields (slippage, margin_tiers, margin_venue), so
 * both routes always agree. Open positions keep what they were filled with.
 */
import { AppError } from '../../core/errors.js';
import { MARGIN_TIERS, MARGIN_VENUES, maintenanceRate } from '../../engine/margin-model.js';
import {
  applyChange,
  DEFAULT_PROFILE,
  isMarginVenueName,
  isPresetName,
  PRESET_NAMES,
  PRESETS,
  presetProfile,
  profileLabel,
  SIM_FIELDS,
  type FieldKind,
  type PresetName,
  type SimField,
  type SimGroup,
  type SimProfile,
} from '../../engine/sim-profile.js';
import { SLIPPAGE_PCT } from '../../engine/slippage.js';
import type { BookRef } from '../positions/position-types.js';
import { bookSeed, type SimSettings } from './sim-settings.js';

export interface RealismSwitches {
  slippage: boolean;
  margin_tiers: boolean;
  margin_venue: string;
}

export interface SimFieldView {
  group: SimGroup;
  type: 'boolean' | 'number' | 'string' | 'number or "book"';
  min?: number;
  max?: number;
  integer?: boolean;
  nullable?: boolean;
  values?: string[];
  default: SimProfile[SimField];
  meaning: string;
}

export interface SimView {
  sim: SimProfile;
  /** The preset the profile is exactly, 'default' for the engine defaults, else 'custom'. */
  label: string;
  realism: RealismSwitches;
  /** The seed of the book's reject draws (reproducible: the sequence restarts whenever the profile is saved). */
  reject_seed: number;
  fields: Record<SimField, SimFieldView>;
  presets: Record<PresetName, { values: SimProfile; source: string }>;
  note: string;
}

export interface SimChange {
  fields: Partial<SimProfile>;
  preset?: string;
  reset?: boolean;
}

export const switchesOf = (p: SimProfile): RealismSwitches => ({
  slippage: p.slippage,
  margin_tiers: p.margin_tiers,
  margin_venue: p.margin_venue,
});

function fieldView(kind: FieldKind): Omit<SimFieldView, 'group' | 'default' | 'meaning'> {
  switch (kind.type) {
    case 'boolean':
      return { type: 'boolean' };
    case 'venue':
      return { type: 'string', values: ['', ...MARGIN_VENUES.map((v) => v.venue)] };
    case 'impact':
      return { type: 'number or "book"', min: kind.min, max: kind.max };
    case 'number':
      return {
        type: 'number',
        min: kind.min,
        max: kind.max,
        ...(kind.integer ? { integer: true } : {}),
        ...(kind.nullable ? { nullable: true } : {}),
      };
  }
}

const FIELDS_VIEW = Object.fromEntries(
  Object.entries(SIM_FIELDS).map(([name, spec]) => [
    name,
    { group: spec.group, ...fieldView(spec.kind), default: DEFAULT_PROFILE[name as SimField], meaning: spec.meaning },
  ]),
) as Record<SimField, SimFieldView>;

export const REALISM_EXPLAIN = {
  slippage:
    `A buy fills higher and a sell lower: ${SLIPPAGE_PCT.major}% on the majors, ${SLIPPAGE_PCT.crypto}% on thinner crypto, ` +
    `${SLIPPAGE_PCT.forex}% on forex, ${SLIPPAGE_PCT.stock}% on stocks, metals and indices.`,
  margin_tiers:
    'Maintenance margin rises with notional along the tiers: the step of the tier above tier 0 is added to the base rate (never ' +
    'more than half the initial margin).',
  margin_venue: "A venue's published base maintenance rate replaces the flat 0.5%; it moves only the liquidation price.",
  mmr_pct: 'Per open: a base maintenance rate of its own, 0.01 to 10 percent of notional.',
  positions: 'A position keeps what it was filled with: its realism, slippage_bps, slippage_usd and mmr_pct.',
};

export class SimService {
  constructor(private readonly settings: SimSettings) {}

  profile(ref: BookRef): Promise<SimProfile> {
    return this.settings.profile(ref);
  }

  async view(ref: BookRef): Promise<SimView> {
    const profile = await this.settings.profile(ref);
    return {
      sim: profile,
      label: profileLabel(profile),
      realism: switchesOf(profile),
      reject_seed: bookSeed(ref),
      fields: FIELDS_VIEW,
      presets: Object.fromEntries(
        PRESET_NAMES.map((name) => [name, { values: presetProfile(name, profile.start_balance_usd), source: PRESETS[name].source }]),
      ) as SimView['presets'],
      note:
        'null (or "") on slippage_bps, taker_bps and mmr_pct means "use the tables". Out-of-range values are refused, never ' +
        'clamped. start_balance_usd takes effect at the next reset; open positions keep the terms they were filled with.',
    };
  }

  /** What a change answers beside ok. */
  describe(profile: SimProfile): { sim: SimProfile; label: string; realism: RealismSwitches } {
    return { sim: profile, label: profileLabel(profile), realism: switchesOf(profile) };
  }

  /** Applies a change (reset, then a preset, then the fields sent) and stores the profile. */
  async change(ref: BookRef, change: SimChange): Promise<SimProfile> {
    if (change.preset !== undefined && !isPresetName(change.preset)) {
      throw new AppError('unknown_preset', `unknown preset: ${change.preset.slice(0, 40)}`, { presets: PRESET_NAMES });
    }
    const venue = change.fields.margin_venue;
    if (venue !== undefined && !isMarginVenueName(venue)) throw unknownMarginVenue(venue);
    const current = await this.settings.profile(ref);
    const next = applyChange(current, { reset: change.reset, preset: change.preset as PresetName | undefined, fields: change.fields });
    // an empty change writes nothing; any other is saved, same values included (a save restarts the reject draws)
    const empty = !change.reset && change.preset === undefined && Object.keys(change.fields).length === 0;
    if (!empty) await this.settings.save(ref, next);
    return next;
  }

  async realism(ref: BookRef) {
    const profile = await this.settings.profile(ref);
    const rate = maintenanceRate({ notional: 0, leverage: 1, venue: profile.margin_venue, tiers: false, overridePct: profile.mmr_pct });
    return {
      realism: switchesOf(profile),
      defaults: switchesOf(DEFAULT_PROFILE),
      effective: {
        slippage_pct: profile.slippage ? (profile.slippage_bps === null ? { ...SLIPPAGE_PCT } : { all: profile.slippage_bps / 100 }) : null,
        maintenance_base_pct: rate.basePct,
        maintenance_base: rate.base,
        margin_tiers: profile.margin_tiers,
      },
      margin_venues: MARGIN_VENUES.map((v) => ({ venue: v.venue, mmr_pct: v.mmrPct, source: v.source })),
      tiers: MARGIN_TIERS.map((t) => ({ tier: t.tier, from_usd: t.fromUsd, to_usd: t.toUsd, mmr_pct: t.mmrPct })),
      explain: REALISM_EXPLAIN,
      applies_to: {
        slippage: 'market opens (and exits with the sim field exit_slippage)',
        margin_tiers: 'positions opened from now on',
        margin_venue: 'the liquidation price of positions opened from now on',
        open_positions: 'keep the terms they were filled with',
      },
    };
  }

  /** POST /realism: the switches sent, the others kept. */
  async setRealism(ref: BookRef, sent: Partial<RealismSwitches>): Promise<{ ok: true; realism: RealismSwitches }> {
    const fields: Partial<SimProfile> = {};
    if (sent.slippage !== undefined) fields.slippage = sent.slippage;
    if (sent.margin_tiers !== undefined) fields.margin_tiers = sent.margin_tiers;
    if (sent.margin_venue !== undefined) fields.margin_venue = sent.margin_venue;
    return { ok: true, realism: switchesOf(await this.change(ref, { fields })) };
  }
}

export function unknownMarginVenue(name: string): AppError {
  return new AppError('unknown_margin_venue', `unknown margin venue: ${name.slice(0, 40)}`, {
    venues: MARGIN_VENUES.map((v) => v.venue),
  });
}
