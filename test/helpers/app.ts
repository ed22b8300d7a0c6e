import { createDomain } from '../../shared/domain.js';
import type { Redis } from 'ioredis';
import { startApiServer, type ApiServer } from '../../api/server.js';
import type { Clock } from '../../shared/core/clock.js';
import { configWith, type Config } from '../../shared/core/config.js';
import { createLogger, type Logger } from '../../shared/core/logger.js';
import type { ApiKeyResolver } from '../../shared/paper/api-key-resolver.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { freshRedis, testRedisUrl } from './redis.js';

export interface TestApi extends ApiServer {
  config: Config;
}

/** A real API server on a free loopback port, talking to the suite's Redis. */
export async function startTestApi(
  redis: Redis,
  env: Record<string, string> = {},
  extra: { apiKeys?: ApiKeyResolver; clock?: Clock; logger?: Logger } = {},
): Promise<TestApi> {
  const config = configWith({ REDIS_URL: testRedisUrl(), PORT: '0', HOST: '127.0.0.1', ...env });
  const server = await startApiServer({
    domain: createDomain({ config, redis, clock: extra.clock }),
    apiKeys: extra.apiKeys,
    logger: extra.logger ?? createLogger(config),
  });
  return { ...server, config };
}

export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export async function getJson<T = unknown>(url: string, init: RequestInit = {}): Promise<JsonResponse<T>> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as T };
}

export interface ApiFixture {
  readonly redis: Redis;
  readonly api: TestApi;
}

/**
 * Registers before/after hooks for a describe block: a freshly emptied suite Redis and a real API
 * server on it. Read the fields inside tests or later hooks (they are set once `before` ran).
 */
export function useApiFixture(env: Record<string, string> = {}): ApiFixture {
  let redis: Redis | undefined;
  let api: TestApi | undefined;
  before(async () => {
    redis = await freshRedis();
    api = await startTestApi(redis, env);
  });
  after(async () => {
    await api?.close();
    if (redis) await closeRedis(redis);
  });
  return {
    get redis() {
      if (!redis) throw new Error('useApiFixture: read redis inside a test or a later hook');
      return redis;
    },
    get api() {
      if (!api) throw new Error('useApiFixture: read api inside a test or a later hook');
      return api;
    },
  };
}
