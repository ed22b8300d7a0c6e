/** The body of GET /usage and the plan catalogue, built from plain inputs. Pure. */
import { PLAN_IDS, PLANS, type EffectivePlan, type PlanLimits } from '../plans.js';
import type { DayCount } from './key-store.js';

export interface PlanLimitsView {
  requests_per_minute: number;
  max_keys: number;
  max_open_positions: number;
  max_books: number;
  max_resting_orders: number;
  trade_history_days: number;
  report_max_days: number;
  /** Concurrent WebSocket streams per account (the stream is free on every plan). */
  websocket: number;
}

export interface PlanFeaturesView {
  webhooks: boolean;
  max_webhooks: number;
  ai: boolean;
  ai_reads_per_day: number;
  report_breakdowns: boolean;
  websocket: boolean;
  books: boolean;
  replay: boolean;
}

export interface PlanView {
  plan: string;
  tier: number;
  label: string;
  limits: PlanLimitsView;
  features: PlanFeaturesView;
}

export interface UsageBody {
  key_name: string;
  plan: string;
  /** When the paid plan ends (epoch ms); null on Free. */
  plan_until: number | null;
  limits: PlanLimitsView;
  features: PlanFeaturesView;
  used: { keys: number; books: number; calls_today: number };
  plans: PlanView[];
  free_month: { days_left: number };
  /** This key's successful calls per UTC day, oldest first, today last. */
  usage_30d: DayCount[];
}

export function limitsView(limits: PlanLimits): PlanLimitsView {
  return {
    requests_per_minute: limits.requestsPerMinute,
    max_keys: limits.maxKeys,
    max_open_positions: limits.maxOpenPositions,
    max_books: limits.maxBooks,
    max_resting_orders: limits.maxRestingOrders,
    trade_history_days: limits.tradeHistoryDays,
    report_max_days: limits.reportMaxDays,
    websocket: limits.websocketSockets,
  };
}

export function featuresView(limits: PlanLimits): PlanFeaturesView {
  return {
    webhooks: limits.maxWebhooks > 0,
    max_webhooks: limits.maxWebhooks,
    ai: limits.aiReadsPerDay > 0,
    ai_reads_per_day: limits.aiReadsPerDay,
    report_breakdowns: limits.tier > 0,
    websocket: true,
    books: true,
    replay: true,
  };
}

/** The plan catalogue, Free first. */
export function planCatalogue(): PlanView[] {
  return PLAN_IDS.map((id) => {
    const limits = PLANS[id];
    return { plan: id, tier: limits.tier, label: limits.label, limits: limitsView(limits), features: featuresView(limits) };
  });
}

export interface UsageInput {
  keyName: string;
  plan: EffectivePlan;
  activeKeys: number;
  namedBooks: number;
  days: DayCount[];
}

export function usageBody(input: UsageInput): UsageBody {
  const { limits } = input.plan;
  return {
    key_name: input.keyName,
    plan: limits.id,
    plan_until: input.plan.until,
    limits: limitsView(limits),
    features: featuresView(limits),
    used: { keys: input.activeKeys, books: input.namedBooks, calls_today: input.days.at(-1)?.calls ?? 0 },
    plans: planCatalogue(),
    // The original's grant (accounts building before its 2.8.0 kept Pro for a while) predates this service.
    free_month: { days_left: 0 },
    usage_30d: input.days,
  };
}
