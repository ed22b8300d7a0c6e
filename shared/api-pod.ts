/**
 * The API pod's part of the composition root (shared/domain.ts builds the rest): what api/ needs on the domain's
 * connection beyond the domain's stores and services, built here so api/ never holds the connection itself. The
 * connections of their own (the price subscriber, the queue dashboard's) are opened when asked for, not here.
 */
import type { Logger } from './core/logger.js';
import type { Domain } from './domain.js';
import { subscriberClient } from './core/redis-client.js';
import { LatestTicks } from './market/latest-ticks.js';
import { PLAN_IDS, PLANS } from './paper/plans.js';
import { openAllQueues, type AllQueues } from './queues/all-queues.js';
import { openStreamBackplane, type StreamBackplane } from './push/stream-backplane.js';
import { CoalescingLimiter } from './rate-limit/coalescing-limiter.js';
import { connectionHealth, type ConnectionHealth } from './redis/connection.js';
import { SignInBudgets } from './site/sign-in-budgets.js';
import { createSiteServices, type SiteServices } from './site/site-services.js';

export interface ApiPod {
  /** The connection's state and a PING: the 503 gate and /readyz. */
  health: ConnectionHealth;
  /** The rate limiter of the API's budgets (the site's sign-in budgets too). */
  limiter: CoalescingLimiter;
  /** The site: e-mail sign-in, sessions, key management (over the domain's site store). */
  site: SiteServices;
  /** POST /api/auth/start's budgets: per client, per (mailbox, client), per mailbox and day. */
  signInBudgets: SignInBudgets;
  /** The pod's one subscriber to the feed's ticks (a connection of its own, opened now; LatestTicks.close closes it). */
  openTicks(onError: (error: unknown) => void): LatestTicks;
  /** Every queue of the registry on a connection of its own named `connectionName` (the operator's queue dashboard). */
  openQueues(connectionName: string): AllQueues;
  /**
   * The stream's socket slots (on the domain's connection) and account channels (a subscriber of its own, opened now;
   * closing the events closes it). `onError`: a channel message that is not JSON.
   */
  openStreamBackplane(onError: (error: unknown) => void): StreamBackplane;
}

/** Built with the app, before traffic: the limiters define their scripts on the connection here (coalescing-limiter.ts). */
export function createApiPod(domain: Domain, logger: Logger): ApiPod {
  const { accounts, clock, config, redis } = domain;
  const limiter = new CoalescingLimiter(redis, [
    config.publicRateLimit,
    config.badKeyRateLimit,
    ...PLAN_IDS.map((id) => PLANS[id].requestsPerMinute),
    config.site.signInPerEmail,
    config.site.signInPerIp,
  ]);
  const { signInPerIp, signInPerEmail, signInPerEmailDay } = config.site;
  const signInLimits = { perClient: signInPerIp, perMailboxClient: signInPerEmail, perMailboxDay: signInPerEmailDay };
  return {
    health: connectionHealth(redis),
    limiter,
    site: createSiteServices({ config, store: domain.stores.site, clock, accounts, logger }),
    signInBudgets: new SignInBudgets(limiter, redis, signInLimits, clock),
    openTicks: (onError) =>
      new LatestTicks({ subscriber: subscriberClient(redis), market: domain.marketStore, clock, freshness: domain.freshness, onError }),
    openQueues: (connectionName) => openAllQueues(redis, connectionName),
    openStreamBackplane: (onError) => openStreamBackplane({ redis, slotTtlMs: config.push.streamSlotTtlMs, onError }),
  };
}
