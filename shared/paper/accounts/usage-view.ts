/** The body of GET /usage and the plan catalogue, built from plain inputs. Pure. */
import { FEE_VENUES } from '../../engine/fees.js';
import { PLAN_IDS, PLANS, type EffectivePlan, type PlanLimits, type PlanSource } from '../plans.js';
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
  /** The keyed /api/v1 data budget: the key's own per-minute budget. */
  data_api_requests_per_minute: number;
}

export interface PlanFeaturesView {
  /** How many webhooks the plan allows (0 on Free), as the original reports it; max_webhooks is the same number. */
  webhooks: number;
  max_webhooks: number;
  ai: boolean;
  ai_reads_per_day: number;
  report_breakdowns: boolean;
  /** GET /equity and GET /report (totals and skill on every plan). */
  equity: boolean;
  report: boolean;
  websocket: boolean;
  books: boolean;
  replay: boolean;
  trailing_stops: boolean;
  modify_order: boolean;
  dry_run: boolean;
  /** How many fee venues POST /fees offers (the spec's nine). */
  fee_venues: number;
}

export interface PlanView {
  plan: string;
  tier: number;
  label: string;
  price_usd: number;
  limits: PlanLimitsView;
  features: PlanFeaturesView;
}

/** The free month: a trial term (plan_source trial) and the whole days it has left. */
export interface FreeMonthView {
  days_left: number;
  /** When it ends, epoch ms. */
  until: number;
}

export interface UsageBody {
  key_name: string;
  /** The book this key trades ('main' or its book). */
  account: string;
  plan: string;
  /** How the running paid term was granted (paid, trial, grant); null on Free. */
  plan_source: PlanSource | null;
  /** When the paid plan ends (epoch ms); null on Free. */
  plan_until: number | null;
  /** Whole days left of the paid plan, rounded up; null on Free. */
  plan_days_left: number | null;
  /** The monthly price of the plan the key is on (0 on Free). */
  plan_price_usd: number;
  limits: PlanLimitsView;
  features: PlanFeaturesView;
  used: { keys: number; books: number; calls_today: number };
  plans: PlanView[];
  /** null unless the running term is a trial. */
  free_month: FreeMonthView | null;
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
    data_api_requests_per_minute: limits.requestsPerMinute,
  };
}

export function featuresView(limits: PlanLimits): PlanFeaturesView {
  return {
    webhooks: limits.maxWebhooks,
    max_webhooks: limits.maxWebhooks,
    ai: limits.aiReadsPerDay > 0,
    ai_reads_per_day: limits.aiReadsPerDay,
    report_breakdowns: limits.tier > 0,
    equity: true,
    report: true,
    websocket: true,
    books: true,
    replay: true,
    trailing_stops: true,
    modify_order: true,
    dry_run: true,
    fee_venues: FEE_VENUES.length,
  };
}

/** The plan catalogue, Free first. */
export function planCatalogue(): PlanView[] {
  return PLAN_IDS.map((id) => {
    const limits = PLANS[id];
    return {
      plan: id,
      tier: limits.tier,
      label: limits.label,
      price_usd: limits.priceUsd,
      limits: limitsView(limits),
      features: featuresView(limits),
    };
  });
}

export interface UsageInput {
  keyName: string;
  /** The key's book. */
  account: string;
  plan: EffectivePlan;
  activeKeys: number;
  namedBooks: number;
  days: DayCount[];
}

export function usageBody(input: UsageInput): UsageBody {
  const { limits, until, daysLeft, source } = input.plan;
  return {
    key_name: input.keyName,
    account: input.account,
    plan: limits.id,
    plan_source: source,
    plan_until: until,
    plan_days_left: daysLeft,
    plan_price_usd: limits.priceUsd,
    limits: limitsView(limits),
    features: featuresView(limits),
    used: { keys: input.activeKeys, books: input.namedBooks, calls_today: input.days.at(-1)?.calls ?? 0 },
    plans: planCatalogue(),
    free_month: source === 'trial' && until !== null && daysLeft !== null ? { days_left: daysLeft, until } : null,
    usage_30d: input.days,
  };
}
