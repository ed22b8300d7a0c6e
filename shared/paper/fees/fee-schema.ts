/** The JSON schemas of the fee schedules (the OpenAPI components FeeVenue and Fees). */
import { arrayOf, nullable, number, objectSchema, ref, string } from '../../core/json-schema.js';
import type { FeesView } from './fee-settings.js';

type FeeVenueView = FeesView['venues'][number];

export const feeVenueSchema = objectSchema<FeeVenueView>(
  "A venue's published fee schedule at its base tier.",
  {
    venue: string('Venue name, as fee_venue takes it'),
    taker_pct: number('Taker fee, percent per side'),
    maker_pct: number('Maker fee, percent (informational: both legs pay the taker rate)'),
    referral_discount_pct: number('Discount on the taker fee, percent'),
    effective_taker_pct: number('The rate a position is stamped with, percent per side'),
    code: nullable(string('The referral code the discount comes with')),
    signup_url: { type: 'null' },
    source: string('Where the numbers come from'),
  },
  {},
);

export const feesSchema = objectSchema<FeesView>(
  "The account's fee venue and every venue's schedule.",
  {
    fee_venue: nullable(string('The account venue; null for the class rates')),
    venues: arrayOf(ref('FeeVenue')),
    defaults: objectSchema<FeesView['defaults']>(
      'Class taker rates without a venue, percent per side',
      { crypto: number(), stock: number(), forex: number(), metal: number(), index: number() },
      {},
    ),
    applies_to: { const: 'crypto', description: 'Venues apply to crypto perpetuals' },
    note: string(),
  },
  {},
);
