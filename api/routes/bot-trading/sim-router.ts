/** The book's simulation profile (/sim) and its three realism switches (/realism): one profile, two views. */
import type { SimProfile } from '../../../shared/engine/sim-profile.js';
import type { KeyContext } from '../../../shared/paper/key-context.js';
import { refOf } from '../../../shared/paper/positions/position-service.js';
import type { RealismSwitches } from '../../../shared/paper/sim/sim-service.js';
import { SIM_RESPONSES } from '../../../shared/paper/sim/sim-schema.js';
import { bookView, keyedBotRoutes } from '../../routing/bot-route.js';
import type { RouteDefinition } from '../../routing/route-catalog.js';
import type { BotTradingRouteOptions } from './router.js';
import { realismBody, simBody } from './sim-schemas.js';

type SimBody = Partial<Omit<SimProfile, 'margin_venue'>> & { margin_venue?: string | null; preset?: string; reset?: boolean };
type RealismBody = Partial<Omit<RealismSwitches, 'margin_venue'>> & { margin_venue?: string | null };

/** null clears a margin venue as "" does. */
const venueOf = (venue: string | null | undefined): string | undefined => (venue === null ? '' : venue);

export function simRoutes({ trading }: BotTradingRouteOptions): RouteDefinition[] {
  return keyedBotRoutes('bot sim', [
    bookView(
      '/realism',
      SIM_RESPONSES.realism,
      "This book's realism switches (slippage, margin_tiers, margin_venue: three fields of /sim), the margin venues and tiers",
      (auth) => trading.sim.realism(refOf(auth)),
    ),
    {
      path: '/realism',
      method: 'post',
      response: SIM_RESPONSES.realismSet,
      summary: 'Set realism switches; omitted fields keep their value; open positions keep what they were filled with',
      body: realismBody,
      errors: ['unknown_margin_venue'],
      example: {
        body: { slippage: true, margin_venue: 'binance' },
        response: { ok: true, realism: { slippage: true, margin_tiers: false, margin_venue: 'binance' } },
      },
      handle: ({ body, auth }: { body: RealismBody; auth: KeyContext }) =>
        trading.sim.setRealism(refOf(auth), { ...body, margin_venue: venueOf(body.margin_venue) }),
    },
    bookView(
      '/sim',
      SIM_RESPONSES.sim,
      "This book's simulation profile, every field with its range, meaning and default, and each preset's values with its source",
      (auth) => trading.sim.view(refOf(auth)),
    ),
    {
      path: '/sim',
      method: 'post',
      response: SIM_RESPONSES.simSet,
      summary:
        'Change the simulation profile: reset (to the defaults), then a preset, then the fields sent; omitted fields keep their value',
      description:
        'Out-of-range values are refused (sim_out_of_range), never clamped; null (or "") on slippage_bps, taker_bps and mmr_pct ' +
        'means "use the tables". ' +
        'start_balance_usd takes effect at the next reset. Open positions keep the terms they were filled with.',
      body: simBody,
      errors: ['sim_out_of_range', 'unknown_preset', 'unknown_margin_venue'],
      example: {
        body: { preset: 'binance', latency_ms: 100 },
        response: { ok: true, label: 'custom', realism: { slippage: true, margin_tiers: true, margin_venue: 'binance' } },
      },
      handle: async ({ body, auth }: { body: SimBody; auth: KeyContext }) => {
        const { preset, reset, margin_venue: venue, ...fields } = body;
        const venueField = venueOf(venue);
        const sim = await trading.sim.change(refOf(auth), {
          preset,
          reset,
          fields: venueField === undefined ? fields : { ...fields, margin_venue: venueField },
        });
        return { ok: true, ...trading.sim.describe(sim) };
      },
    },
  ]);
}
