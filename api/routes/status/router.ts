import { arrayOf, bodySchema, epochMs, integer, nullable, number, okTrue, oneOfValues, string } from '../../../shared/core/json-schema.js';
import type { JsonSchema } from '../../../shared/core/json-schema.js';
import { SCHEDULER_LATE_MS, STATUS_DAYS } from '../../../shared/status/status-rules.js';
import type { StatusService } from '../../../shared/status/status-service.js';
import { JsonTextCache, snapshotRoute } from '../../routing/json-text.js';
import { defineRoutes, type RouteGroup } from '../../routing/route-catalog.js';

export interface StatusRouteOptions {
  status: StatusService;
  /** Every pod shares one read per this long (STATUS_CACHE_MS, 10 s). */
  cacheMs: number;
  /** A feed silent for longer than this is down (STATUS_FEED_STALE_MS, 15 s). */
  feedStaleMs: number;
}

const state = oneOfValues(['up', 'down']);
const overall = oneOfValues(['up', 'degraded', 'down']);
const mapOf = (value: JsonSchema, description: string): JsonSchema => ({ type: 'object', description, additionalProperties: value });
const reason = string('Why it is down');

const STATUS_RESPONSE = bodySchema({
  ok: okTrue,
  now: bodySchema({
    ts: epochMs(),
    state: overall,
    redis: bodySchema({ state, rtt_ms: nullable(number('Round trip of a PING, ms')) }),
    feeds: mapOf(
      bodySchema({ state, holder: nullable(string('The feed process holding its lease')), message_age_ms: nullable(integer()), reason }, [
        'reason',
      ]),
      'Per price venue',
    ),
    liquidations: mapOf(
      bodySchema({ state, holder: nullable(string()), open: nullable(integer('Open sockets, as its holder last reported')), reason }, [
        'reason',
      ]),
      'Per liquidation exchange',
    ),
    queues: bodySchema({ state, failed: mapOf(integer(), 'Failed jobs kept per queue'), failed_total: integer() }),
    scheduler: bodySchema({ state, id: string(), next_ts: nullable(epochMs()), late_ms: nullable(integer()), reason }, ['reason']),
    cron: state,
    collector: overall,
  }),
  days: arrayOf(
    bodySchema({
      day: string('UTC day, YYYY-MM-DD'),
      samples: integer('Samples taken that day'),
      availability: mapOf(number(), 'Per component (redis, feed:<venue>, liq:<exchange>, queues, scheduler): percent of samples up'),
    }),
    `The last ${STATUS_DAYS} UTC days, oldest first`,
  ),
});

export function statusRoutes({ status, cacheMs, feedStaleMs }: StatusRouteOptions): RouteGroup {
  // one answer per cache period and pod, serialized once
  const route = snapshotRoute(new JsonTextCache(cacheMs), {
    path: '/api/status',
    tag: 'meta',
    summary:
      'Public status: every component now (Redis, feed connectors, liquidation streams, queues, scheduler) and 90 days of availability',
    description:
      `Keyless, cached ${cacheMs / 1000} s. A feed connector is up while a feed process holds its lease and its last price is at most ` +
      `${feedStaleMs / 1000} s old; a liquidation stream while its lease is held and its holder reports an open socket; the ` +
      `scheduler while the live sweep's next run is at ` +
      `most ${SCHEDULER_LATE_MS / 1000} s late. days: a sampler job counts every component up or down every STATUS_SAMPLE_MS (15 s).`,
    style: 'bare',
    response: STATUS_RESPONSE,
    read: () => status.view(),
  });
  return defineRoutes([route]);
}
