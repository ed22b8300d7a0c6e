/**
 * The probes an orchestrator polls: /healthz (the process answers) and /readyz (and its Redis connection is up). Served
 * by every API pod and, for worker and feed processes, by their METRICS_PORT listener, without the operator token
 * (a kubelet probe carries none, and neither answer says anything secret).
 */
import { Router } from 'express';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { isRedisDown } from './redis-gate.js';

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';

export function healthRoutes(redis: RedisClient): Router {
  const router = Router();
  router.get(HEALTH_PATH, (_req, res) => {
    res.json({ ok: true, ts: Date.now() });
  });
  router.get(READY_PATH, async (_req, res) => {
    // a connection that is down answers at once rather than after its reconnect attempts
    const up =
      !isRedisDown(redis) &&
      (await redis.ping().then(
        () => true,
        () => false,
      ));
    res.status(up ? 200 : 503).json({ ok: up, redis: up ? 'up' : 'down', ts: Date.now() });
  });
  return router;
}
