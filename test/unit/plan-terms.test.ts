import { expect } from 'chai';
import fc from 'fast-check';
import { atLeastPlanTerm, DAY_MS, nextPlanTerm, planHeaders, utcDay, type StoredPlan } from '../../shared/paper/accounts/plan-terms.js';
import { planCatalogue, usageBody } from '../../shared/paper/accounts/usage-view.js';
import { effectivePlan, PLAN_IDS, PLAN_SOURCES, PLANS, type PlanId } from '../../shared/paper/plans.js';

const NOW_RANGE = { min: Date.UTC(2020, 0, 1), max: Date.UTC(2040, 0, 1) };
const paidPlan = fc.constantFrom<PlanId>('pro', 'max', 'business');
const anyPlan = fc.constantFrom<PlanId>(...PLAN_IDS);
const storedPlan: fc.Arbitrary<StoredPlan> = fc.oneof(
  fc.constant<StoredPlan>({ plan: 'free', until: null }),
  fc.record({ plan: paidPlan, until: fc.integer(NOW_RANGE), source: fc.constantFrom(...PLAN_SOURCES) }),
);

describe('plans: effective plan and the plan headers', () => {
  it('property: a paid plan that has ended is Free (limits and headers), one that runs is itself', () => {
    fc.assert(
      fc.property(paidPlan, fc.integer(NOW_RANGE), fc.integer({ min: -400 * DAY_MS, max: 400 * DAY_MS }), (plan, now, offset) => {
        const effective = effectivePlan({ plan, until: now + offset }, now);
        if (offset <= 0) {
          expect(effective.limits).to.equal(PLANS.free);
          expect(effective.until).to.equal(null);
          expect(planHeaders(effective)).to.deep.equal({ 'X-PD-Plan': 'free' });
        } else {
          expect(effective.limits).to.equal(PLANS[plan]);
          expect(planHeaders(effective)['X-PD-Plan']).to.equal(plan);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('property: the expiry headers appear exactly in the last 14 days of a paid plan, with its end day and the days left', () => {
    fc.assert(
      fc.property(paidPlan, fc.integer(NOW_RANGE), fc.integer({ min: 1, max: 60 * DAY_MS }), (plan, now, offset) => {
        const until = now + offset;
        const headers = planHeaders(effectivePlan({ plan, until }, now));
        const inLastDays = offset <= 14 * DAY_MS;
        expect('X-PD-Plan-Expires' in headers, `offset ${offset}`).to.equal(inLastDays);
        expect('X-PD-Plan-Days-Left' in headers).to.equal(inLastDays);
        if (inLastDays) {
          expect(headers['X-PD-Plan-Expires']).to.equal(new Date(until).toISOString().slice(0, 10));
          const daysLeft = Number(headers['X-PD-Plan-Days-Left']);
          expect(daysLeft).to.be.within(1, 14);
          expect((daysLeft - 1) * DAY_MS).to.be.lessThan(offset);
          expect(daysLeft * DAY_MS).to.be.at.least(offset);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('at the boundary: exactly 14 days left shows the headers, a millisecond more does not', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(planHeaders(effectivePlan({ plan: 'pro', until: now + 14 * DAY_MS }, now))).to.deep.equal({
      'X-PD-Plan': 'pro',
      'X-PD-Plan-Expires': '2026-01-15',
      'X-PD-Plan-Days-Left': '14',
    });
    expect(planHeaders(effectivePlan({ plan: 'pro', until: now + 14 * DAY_MS + 1 }, now))).to.deep.equal({ 'X-PD-Plan': 'pro' });
    expect(planHeaders(effectivePlan({ plan: 'max', until: now + 1 }, now))['X-PD-Plan-Days-Left']).to.equal('1');
  });
});

describe('plans: buying days', () => {
  it('property: the same paid plan still running is extended from its end; otherwise the term starts now; the term takes the new source', () => {
    fc.assert(
      fc.property(
        storedPlan,
        anyPlan,
        fc.integer({ min: 1, max: 3660 }),
        fc.integer(NOW_RANGE),
        fc.constantFrom(...PLAN_SOURCES),
        (current, plan, days, now, source) => {
          const next = nextPlanTerm(current, plan, days, now, source);
          if (plan === 'free') {
            expect(next).to.deep.equal({ plan: 'free', until: null });
            return;
          }
          const running = current.plan === plan && current.until !== null && current.until > now;
          expect(next.plan).to.equal(plan);
          expect(next.source).to.equal(source);
          expect(effectivePlan(next, now).source).to.equal(source);
          expect(next.until).to.equal((running ? (current.until as number) : now) + days * DAY_MS);
          // buying never leaves the buyer with fewer days of that plan than bought
          expect(effectivePlan(next, now).daysLeft).to.be.at.least(days);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a month bought early is added to the running one', () => {
    const now = Date.UTC(2026, 0, 1);
    const first = nextPlanTerm({ plan: 'free', until: null }, 'pro', 30, now);
    const second = nextPlanTerm(first, 'pro', 30, now + 10 * DAY_MS);
    expect(second.until).to.equal(now + 60 * DAY_MS);
    const switched = nextPlanTerm(second, 'max', 30, now + 10 * DAY_MS);
    expect(switched).to.deep.equal({ plan: 'max', until: now + 40 * DAY_MS, source: 'paid' });
    const afterEnd = nextPlanTerm(first, 'pro', 30, now + 31 * DAY_MS);
    expect(afterEnd.until).to.equal(now + 61 * DAY_MS);
  });

  it('keys create --plan gives at least 30 days without shortening a longer running term', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(atLeastPlanTerm({ plan: 'free', until: null }, 'pro', 30, now)).to.deep.equal({
      plan: 'pro',
      until: now + 30 * DAY_MS,
      source: 'grant',
    });
    const long = { plan: 'pro' as const, until: now + 90 * DAY_MS, source: 'trial' as const };
    expect(atLeastPlanTerm(long, 'pro', 30, now)).to.equal(long);
    expect(atLeastPlanTerm({ plan: 'pro', until: now + DAY_MS }, 'pro', 30, now).until).to.equal(now + 30 * DAY_MS);
    expect(atLeastPlanTerm(long, 'free', 30, now)).to.deep.equal({ plan: 'free', until: null });
  });

  it('names UTC days', () => {
    expect(utcDay(Date.UTC(2026, 8, 15, 23, 59, 59))).to.equal('2026-09-15');
  });
});

describe('usage body', () => {
  it('reports the effective plan, its limits, what is used, the catalogue and the days', () => {
    const now = Date.UTC(2026, 0, 1);
    const plan = effectivePlan({ plan: 'pro', until: now + 3 * DAY_MS }, now);
    const body = usageBody({
      keyName: 'bot',
      account: 'main',
      plan,
      activeKeys: 2,
      namedBooks: 1,
      days: [
        { day: '2025-12-31', calls: 3 },
        { day: '2026-01-01', calls: 7 },
      ],
    });
    expect(body).to.include({
      key_name: 'bot',
      account: 'main',
      plan: 'pro',
      plan_source: 'paid',
      plan_until: now + 3 * DAY_MS,
      plan_days_left: 3,
      plan_price_usd: 29,
    });
    const rateAndHistory = { requests_per_minute: 600, data_api_requests_per_minute: 600, trade_history_days: 90, report_max_days: 90 };
    const counts = { max_keys: 10, max_open_positions: 200, max_books: 5, max_resting_orders: 20, websocket: 3 };
    expect(body.limits).to.deep.equal({ ...rateAndHistory, ...counts });
    expect(body.features).to.include({
      webhooks: 3,
      max_webhooks: 3,
      trailing_stops: true,
      modify_order: true,
      dry_run: true,
      fee_venues: 9,
    });
    expect(body.used).to.deep.equal({ keys: 2, books: 1, calls_today: 7 });
    expect(body.plans.map((p) => p.plan)).to.deep.equal(['free', 'pro', 'max', 'business']);
    expect(body.free_month).to.equal(null);
    expect(planCatalogue()[0].limits.requests_per_minute).to.equal(120);
  });

  it("names each plan's webhooks as a number and its price, as the original's catalogue does", () => {
    expect(planCatalogue().map((p) => [p.plan, p.features.webhooks, p.price_usd, p.limits.data_api_requests_per_minute])).to.deep.equal([
      ['free', 0, 0, 120],
      ['pro', 3, 29, 600],
      ['max', 15, 79, 2000],
      ['business', 50, 159, 5000],
    ]);
  });

  it('property: free_month is null except on a running trial, whose days_left counts down to its end', () => {
    fc.assert(
      fc.property(storedPlan, fc.integer(NOW_RANGE), (stored, now) => {
        const body = usageBody({ keyName: 'k', account: 'main', plan: effectivePlan(stored, now), activeKeys: 1, namedBooks: 0, days: [] });
        const trialRunning = stored.source === 'trial' && stored.until !== null && stored.until > now;
        if (!trialRunning) {
          expect(body.free_month).to.equal(null);
          return;
        }
        const daysLeft = Math.ceil(((stored.until as number) - now) / DAY_MS);
        expect(body.free_month).to.deep.equal({ days_left: daysLeft, until: stored.until });
        expect(body).to.include({ plan_source: 'trial', plan_days_left: daysLeft });
      }),
      { numRuns: 300 },
    );
    const now = Date.UTC(2026, 0, 1);
    const trial = nextPlanTerm({ plan: 'free', until: null }, 'pro', 7, now, 'trial');
    const daysLeftAt = (at: number): number | undefined =>
      usageBody({ keyName: 'k', account: 'main', plan: effectivePlan(trial, at), activeKeys: 1, namedBooks: 0, days: [] }).free_month
        ?.days_left;
    expect([0, 1, 6].map((day) => daysLeftAt(now + day * DAY_MS))).to.deep.equal([7, 6, 1]);
    expect(daysLeftAt(now + 7 * DAY_MS)).to.equal(undefined);
  });
});
