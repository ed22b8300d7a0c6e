import type { AccountService } from '../../../shared/paper/accounts/account-service.js';
import { featuresView, limitsView, planCatalogue } from '../../../shared/paper/accounts/usage-view.js';
import type { KeyContext } from '../../../shared/paper/key-context.js';
import type { Authenticate } from '../../middleware/authenticate.js';
import { PLANS } from '../../../shared/paper/plans.js';
import { botRoute } from '../../routing/bot-route.js';
import { defineRoutes, type RouteGroup } from '../../routing/route-catalog.js';

export interface BotAccountRouteOptions {
  accounts: AccountService;
  authenticate: Authenticate;
}

const exampleUsage = {
  key_name: 'my-bot',
  account: 'main',
  plan: 'pro',
  plan_source: 'trial',
  plan_until: 1767830400000,
  plan_days_left: 7,
  plan_price_usd: 29,
  limits: limitsView(PLANS.pro),
  features: featuresView(PLANS.pro),
  used: { keys: 2, books: 1, calls_today: 42 },
  plans: planCatalogue().slice(0, 1),
  free_month: { days_left: 7, until: 1767830400000 },
  usage_30d: [{ day: '2026-01-01', calls: 42 }],
};

/** The keyed account routes of the bot API (v1 bare, v2 envelope). */
export function botAccountRoutes({ accounts, authenticate }: BotAccountRouteOptions): RouteGroup {
  return defineRoutes(
    [
      ...botRoute('/usage', {
        keyed: true,
        method: 'get',
        tag: 'bot account',
        summary: `The key's plan, limits and features, what the account uses, the plan catalogue, and this key's calls per day (30 days)`,
        description:
          'Keyed (X-API-Key or ?api_key=). used.keys counts active keys and used.books the books besides main; calls_today and ' +
          "usage_30d count this key's successful calls per UTC day, oldest first. account is the book the key trades. " +
          'plan_until is epoch ms; plan_days_left whole days, rounded up; plan_source how the term was granted (paid, trial, ' +
          'grant); all three null on Free. ' +
          "free_month is the trial's countdown ({ days_left, until }) while plan_source is trial, else null. features.webhooks is " +
          'the number of webhooks the plan allows. ' +
          `Monthly prices: ${Object.values(PLANS)
            .map((plan) => `${plan.label} $${plan.priceUsd}`)
            .join(', ')}. ` +
          `Requests per minute per key: ${Object.values(PLANS)
            .map((plan) => `${plan.label} ${plan.requestsPerMinute}`)
            .join(', ')}.`,
        example: { response: exampleUsage },
        handle: ({ auth }: { auth: KeyContext }) => accounts.usage(auth),
      }),
    ],
    { authenticate },
  );
}
