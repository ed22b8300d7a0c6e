/** How a plan purchase moves an account's plan term, and the plan headers of keyed responses. Pure. */
import type { EffectivePlan, PlanId, PlanSource } from '../plans.js';

export const DAY_MS = 86_400_000;
/** The plan-expiry headers are sent in the last this-many days of a paid plan. */
export const PLAN_NOTICE_DAYS = 14;
/** Longest term one purchase may add. */
export const MAX_PLAN_DAYS = 3660;

/** An account's plan as stored: a paid plan with its end and how it was granted, or Free (until null, no source). */
export interface StoredPlan {
  plan: PlanId;
  until: number | null;
  source?: PlanSource;
}

export const FREE_PLAN: StoredPlan = { plan: 'free', until: null };

/**
 * The term after granting `days` of `plan` at `now` (bought, or given as a trial). Free has no end.
 * A paid plan granted while the same plan is still running is added to its end ("a month bought
 * early is added to the running one"); otherwise the new plan runs from now. The term takes the
 * new grant's source.
 */
export function nextPlanTerm(current: StoredPlan, plan: PlanId, days: number, now: number, source: PlanSource = 'paid'): StoredPlan {
  if (plan === 'free') return FREE_PLAN;
  const running = current.plan === plan && current.until !== null && current.until > now;
  const start = running && current.until !== null ? current.until : now;
  return { plan, until: start + days * DAY_MS, source };
}

/**
 * The term that gives `plan` for at least `days` from now without shortening a running term of the
 * same plan (`keys create --plan`).
 */
export function atLeastPlanTerm(current: StoredPlan, plan: PlanId, days: number, now: number): StoredPlan {
  if (plan === 'free') return FREE_PLAN;
  const wanted = now + days * DAY_MS;
  const running = current.plan === plan && current.until !== null && current.until > wanted;
  return running ? current : { plan, until: wanted, source: 'grant' };
}

/** YYYY-MM-DD of an epoch-ms instant, in UTC. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export const PLAN_HEADER = 'X-PD-Plan';
export const PLAN_EXPIRES_HEADER = 'X-PD-Plan-Expires';
export const PLAN_DAYS_LEFT_HEADER = 'X-PD-Plan-Days-Left';

/**
 * Headers of every keyed response: X-PD-Plan always; in the last 14 days of a paid plan also
 * X-PD-Plan-Expires (the UTC day it ends) and X-PD-Plan-Days-Left (whole days, rounded up).
 */
export function planHeaders(plan: EffectivePlan): Record<string, string> {
  const headers: Record<string, string> = { [PLAN_HEADER]: plan.limits.id };
  if (plan.until !== null && plan.daysLeft !== null && plan.daysLeft <= PLAN_NOTICE_DAYS) {
    headers[PLAN_EXPIRES_HEADER] = utcDay(plan.until);
    headers[PLAN_DAYS_LEFT_HEADER] = String(plan.daysLeft);
  }
  return headers;
}
