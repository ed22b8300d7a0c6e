/** The API plans and every limit of the spec's Limits table. Pure data. */
export type PlanId = 'free' | 'pro' | 'max' | 'business';

export interface PlanLimits {
  id: PlanId;
  /** Numeric tier, 0 for Free (the original's plan ids). */
  tier: number;
  label: string;
  /** Monthly price in US dollars (the original's catalogue: 0, 29, 79, 159). */
  priceUsd: number;
  requestsPerMinute: number;
  maxKeys: number;
  maxOpenPositions: number;
  /** Books besides the main account. */
  maxBooks: number;
  maxWebhooks: number;
  aiReadsPerDay: number;
  tradeHistoryDays: number;
  reportMaxDays: number;
  maxRestingOrders: number;
  websocketSockets: number;
}

const common = { maxRestingOrders: 20, websocketSockets: 3 };

export const PLANS: Record<PlanId, PlanLimits> = {
  free: {
    id: 'free',
    tier: 0,
    label: 'Free',
    priceUsd: 0,
    requestsPerMinute: 120,
    maxKeys: 3,
    maxOpenPositions: 50,
    maxBooks: 1,
    maxWebhooks: 0,
    aiReadsPerDay: 0,
    tradeHistoryDays: 30,
    reportMaxDays: 30,
    ...common,
  },
  pro: {
    id: 'pro',
    tier: 1,
    label: 'Pro',
    priceUsd: 29,
    requestsPerMinute: 600,
    maxKeys: 10,
    maxOpenPositions: 200,
    maxBooks: 5,
    maxWebhooks: 3,
    aiReadsPerDay: 50,
    tradeHistoryDays: 90,
    reportMaxDays: 90,
    ...common,
  },
  max: {
    id: 'max',
    tier: 2,
    label: 'Max',
    priceUsd: 79,
    requestsPerMinute: 2000,
    maxKeys: 30,
    maxOpenPositions: 500,
    maxBooks: 20,
    maxWebhooks: 15,
    aiReadsPerDay: 200,
    tradeHistoryDays: 90,
    reportMaxDays: 90,
    ...common,
  },
  business: {
    id: 'business',
    tier: 3,
    label: 'Business',
    priceUsd: 159,
    requestsPerMinute: 5000,
    maxKeys: 100,
    maxOpenPositions: 1000,
    maxBooks: 50,
    maxWebhooks: 50,
    aiReadsPerDay: 500,
    tradeHistoryDays: 90,
    reportMaxDays: 90,
    ...common,
  },
};

export const PLAN_IDS = Object.keys(PLANS) as PlanId[];

/** The longest window of closed trades or report any plan reads, days: the retention may not be shorter. */
export const LONGEST_HISTORY_DAYS = Math.max(...PLAN_IDS.map((id) => Math.max(PLANS[id].tradeHistoryDays, PLANS[id].reportMaxDays)));

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === 'string' && value in PLANS;
}

/**
 * How a paid term was granted: `paid` (a purchase), `trial` (the free month), `grant` (an operator
 * gift, `keys create --plan`). A stored term keeps the source of the grant that set it last.
 */
export type PlanSource = 'paid' | 'trial' | 'grant';

export const PLAN_SOURCES: readonly PlanSource[] = ['paid', 'trial', 'grant'];

export function isPlanSource(value: unknown): value is PlanSource {
  return typeof value === 'string' && (PLAN_SOURCES as readonly string[]).includes(value);
}

const DAY_MS = 86_400_000;

export interface EffectivePlan {
  limits: PlanLimits;
  /** When the paid plan ends, ms; null for Free. */
  until: number | null;
  /** Whole days left, shown in the last 14 days of a paid plan. */
  daysLeft: number | null;
  /** How the running paid term was granted; null on Free. */
  source: PlanSource | null;
}

/** A paid plan that has ended is Free again; the service keeps answering. */
export function effectivePlan(stored: { plan: PlanId; until: number | null; source?: PlanSource }, now: number): EffectivePlan {
  if (stored.plan === 'free' || stored.until === null || stored.until <= now)
    return { limits: PLANS.free, until: null, daysLeft: null, source: null };
  return {
    limits: PLANS[stored.plan],
    until: stored.until,
    daysLeft: Math.ceil((stored.until - now) / DAY_MS),
    source: stored.source ?? 'paid',
  };
}
