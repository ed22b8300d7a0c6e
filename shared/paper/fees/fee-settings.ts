/** The account's fee venue: which exchange schedule its crypto opens are stamped with. */
import type { RedisClient } from '../../core/redis-client.js';
import { AppError } from '../../core/errors.js';
import { CLASS_TAKER_PCT, FEE_VENUES, findFeeVenue, venueEffectivePct, type FeeVenue } from '../../engine/fees.js';
import { keys } from '../../redis/keys.js';
import type { KeyContext } from '../key-context.js';

/** The venue named by a request, or 400 unknown_fee_venue (matching is case-insensitive). */
export function parseFeeVenue(name: string): FeeVenue {
  const venue = findFeeVenue(name.trim().toLowerCase());
  if (!venue) {
    throw new AppError('unknown_fee_venue', `unknown fee venue: ${name.slice(0, 40)}`, { venues: FEE_VENUES.map((v) => v.venue) });
  }
  return venue;
}

export interface FeesView {
  fee_venue: string | null;
  venues: {
    venue: string;
    taker_pct: number;
    maker_pct: number;
    referral_discount_pct: number;
    effective_taker_pct: number;
    code: string | null;
    signup_url: null;
    source: string;
  }[];
  defaults: typeof CLASS_TAKER_PCT;
  applies_to: 'crypto';
  note: string;
}

export class FeeSettings {
  constructor(private readonly redis: RedisClient) {}

  async venue(accountId: string): Promise<FeeVenue | undefined> {
    const name = await this.redis.hget(keys.paperSettings(accountId), 'fee_venue');
    return name ? findFeeVenue(name) : undefined;
  }

  /** The venue of a keyed request's account: as its key gate read it, else from the settings. */
  async venueFor(ctx: Pick<KeyContext, 'accountId' | 'feeVenue'>): Promise<FeeVenue | undefined> {
    if (ctx.feeVenue === undefined) return this.venue(ctx.accountId);
    return ctx.feeVenue === null ? undefined : findFeeVenue(ctx.feeVenue);
  }

  /**
   * Sets (or with null or an empty name, as the original's clients send to reset, clears) the
   * account's venue; open positions keep the rate they were stamped with.
   */
  async setVenue(accountId: string, name: string | null): Promise<string | null> {
    if (name === null || name.trim() === '') {
      await this.redis.hdel(keys.paperSettings(accountId), 'fee_venue');
      return null;
    }
    const venue = parseFeeVenue(name);
    await this.redis.hset(keys.paperSettings(accountId), 'fee_venue', venue.venue);
    return venue.venue;
  }

  async view(accountId: string): Promise<FeesView> {
    const current = await this.venue(accountId);
    return {
      fee_venue: current?.venue ?? null,
      venues: FEE_VENUES.map((v) => ({
        venue: v.venue,
        taker_pct: v.takerPct,
        maker_pct: v.makerPct,
        referral_discount_pct: v.referralDiscountPct,
        effective_taker_pct: venueEffectivePct(v),
        code: v.code,
        signup_url: null,
        source: "the exchange's published base tier",
      })),
      defaults: CLASS_TAKER_PCT,
      applies_to: 'crypto',
      note: 'A venue applies to crypto perpetuals only; other classes keep their class rate. Above about 180x the rate is lowered so a round trip stays at or below 20% of the margin. Open positions keep the rate they were filled with.',
    };
  }
}
