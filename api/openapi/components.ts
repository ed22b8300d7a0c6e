/**
 * The named response schemas of the OpenAPI document. Each is declared once, next to the view type
 * it describes (the compiler holds the two together); routes reference them by name in `response`.
 */
import type { JsonSchema } from '../../shared/core/json-schema.js';
import { equitySchema, reportSchema } from '../../shared/paper/analytics/analytics-schema.js';
import { feesSchema, feeVenueSchema } from '../../shared/paper/fees/fee-schema.js';
import { marketSchema } from '../../shared/paper/markets/market-schema.js';
import { planSchema } from '../../shared/paper/accounts/plan-schema.js';
import { orderSchema } from '../../shared/paper/orders/order-schema.js';
import {
  accountSchema,
  balanceSchema,
  bookSchema,
  resetSchema,
  positionSchema,
  tradeSchema,
} from '../../shared/paper/positions/position-schema.js';
import { webhookDeliverySchema, webhookSchema } from '../../shared/push/webhook-schema.js';
import { briefSchema, tradePlanSchema } from '../../shared/ai/ai-schema.js';
import { realismSchema, realismSwitchesSchema, simProfileSchema, simSchema } from '../../shared/paper/sim/sim-schema.js';
import { replayStartSchema, replaySummarySchema, replayViewSchema } from '../../shared/paper/replay/replay-schema.js';

export const RESPONSE_COMPONENTS: Readonly<Record<string, JsonSchema>> = {
  Position: positionSchema,
  Order: orderSchema,
  Trade: tradeSchema,
  Account: accountSchema,
  Balance: balanceSchema,
  Book: bookSchema,
  Reset: resetSchema,
  Market: marketSchema,
  FeeVenue: feeVenueSchema,
  Fees: feesSchema,
  Webhook: webhookSchema,
  WebhookDelivery: webhookDeliverySchema,
  Plan: planSchema,
  Equity: equitySchema,
  Report: reportSchema,
  AiPlan: tradePlanSchema,
  AiBrief: briefSchema,
  SimProfile: simProfileSchema,
  Sim: simSchema,
  Realism: realismSchema,
  RealismSwitches: realismSwitchesSchema,
  Replay: replayViewSchema,
  ReplayStart: replayStartSchema,
  ReplaySummary: replaySummarySchema,
};
