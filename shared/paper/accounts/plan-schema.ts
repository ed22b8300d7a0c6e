/** The JSON schema of one plan of the catalogue (the OpenAPI component Plan), held to PlanView by objectSchema. */
import { boolean, integer, number, objectSchema, string } from '../../core/json-schema.js';
import type { PlanFeaturesView, PlanLimitsView, PlanView } from './usage-view.js';

const limitsSchema = objectSchema<PlanLimitsView>(
  "The plan's limits",
  {
    requests_per_minute: integer('Requests per minute per key'),
    max_keys: integer('Keys per account'),
    max_open_positions: integer('Open positions per book'),
    max_books: integer('Books besides the main account'),
    max_resting_orders: integer('Resting limit and stop orders per account'),
    trade_history_days: integer('Days of closed trades kept'),
    report_max_days: integer('Deepest report, days'),
    websocket: integer('Concurrent stream sockets per account'),
    data_api_requests_per_minute: integer('The keyed /api/v1 data budget per key, per minute'),
  },
  {},
);

const featuresSchema = objectSchema<PlanFeaturesView>(
  "The plan's features",
  {
    webhooks: integer('Webhooks allowed (0 on Free)'),
    max_webhooks: integer('The same number'),
    ai: boolean('Whether /ai answers'),
    ai_reads_per_day: integer('/ai reads per account and UTC day'),
    report_breakdowns: boolean(),
    equity: boolean('Whether /equity answers'),
    report: boolean('Whether /report answers'),
    websocket: boolean(),
    books: boolean(),
    replay: boolean(),
    trailing_stops: boolean(),
    modify_order: boolean(),
    dry_run: boolean(),
    fee_venues: integer('How many fee venues POST /fees offers (9)'),
  },
  {},
);

export const planSchema = objectSchema<PlanView>(
  'One API plan: its monthly price, limits and features.',
  {
    plan: string('Plan id: free, pro, max, business'),
    tier: integer('0 for Free'),
    label: string(),
    price_usd: number('Monthly price, US dollars'),
    limits: limitsSchema,
    features: featuresSchema,
  },
  {},
);
