/**
 * The probes an orchestrator polls, served by every API pod and, for worker and feed processes, by their METRICS_PORT
 * listener, without a token (a kubelet probe carries none, and neither answer says anything secret).
 *
 * - /healthz, liveness: the process answers. Nothing else: a restart cures no outside trouble.
 * - /readyz, readiness: the pod's own trouble only, the checks its roles registered (an API pod: not draining; a feed:
 *   every exchange connection it holds is open; a worker: its Redis connection). A Redis blip is not an API pod's own
 *   trouble: every pod would go unready at once and clients would get the load balancer's bare 502, where a ready pod
 *   answers 503 `unavailable` with Retry-After and keeps /api/status reachable. The answer says whether Redis is up
 *   all the same (`redis`), for a person reading it.
 * - The status page (/api/status) shows Redis, the feeds, the queues and the workers, and keeps their outages in its days.
 */
import { Router } from 'express';
import type { ApiPod } from '../../shared/api-pod.js';

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';

export interface CheckResult {
  ok: boolean;
  /** What is wrong, for the person reading the answer. */
  reason?: string;
}
export type ReadinessCheck = () => CheckResult | Promise<CheckResult>;

/** The readiness checks of one process: each role adds its own; the pod is ready when every one is ok. */
export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();

  /** Adds (or replaces) a check; answers its removal. */
  add(name: string, check: ReadinessCheck): () => void {
    this.checks.set(name, check);
    return () => {
      if (this.checks.get(name) === check) this.checks.delete(name);
    };
  }

  async report(): Promise<{ ok: boolean; checks: Record<string, CheckResult> }> {
    const entries = await Promise.all(
      [...this.checks].map(
        async ([name, check]) => [name, await Promise.resolve(check()).catch((e: Error) => ({ ok: false, reason: e.message }))] as const,
      ),
    );
    return { ok: entries.every(([, result]) => result.ok), checks: Object.fromEntries(entries) };
  }
}

/** The process's Redis connection as the probes see it (shared/redis/connection.ts: connectionHealth). */
type ConnectionHealth = ApiPod['health'];

/** A readiness check on the process's Redis connection: for roles that can do nothing without it (the workers). */
export const redisCheck =
  (redis: ConnectionHealth): ReadinessCheck =>
  async () =>
    (await redis.up()) ? { ok: true } : { ok: false, reason: 'Redis unreachable' };

export function healthRoutes(redis: ConnectionHealth, readiness: Readiness): Router {
  const router = Router();
  router.get(HEALTH_PATH, (_req, res) => {
    res.json({ ok: true, ts: Date.now() });
  });
  router.get(READY_PATH, async (_req, res) => {
    const [report, up] = await Promise.all([readiness.report(), redis.up()]);
    res.status(report.ok ? 200 : 503).json({ ok: report.ok, redis: up ? 'up' : 'down', checks: report.checks, ts: Date.now() });
  });
  return router;
}
