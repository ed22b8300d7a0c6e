import { createDomain } from '../../shared/domain.js';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { startApiServer, type ApiServer } from '../../api/server.js';
import type { Clock } from '../../shared/core/clock.js';
import { configWith, type Config } from '../../shared/config.js';
import { createLogger, type Logger } from '../../shared/core/logger.js';
import type { ApiKeyResolver } from '../../shared/paper/api-key-resolver.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { freshRedis, testRedisUrl } from './redis.js';

export interface TestApi extends ApiServer {
  config: Config;
}

/** A real API server on a free loopback port, talking to the suite's Redis. */
export async function startTestApi(
  redis: RedisClient,
  env: Record<string, string> = {},
  extra: { apiKeys?: ApiKeyResolver; clock?: Clock; logger?: Logger } = {},
): Promise<TestApi> {
  // the tests read sign-in links from the development outbox: they ask for it
  const config = configWith({ REDIS_URL: testRedisUrl(), PORT: '0', HOST: '127.0.0.1', MAIL_OUTBOX: 'true', ...env });
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
  readonly redis: RedisClient;
  readonly api: TestApi;
}

/**
 * Registers before/after hooks for a describe block: a freshly emptied suite Redis and a real API
 * server on it. Read the fields inside tests or later hooks (they are set once `before` ran).
 */
export function useApiFixture(env: Record<string, string> = {}, extra: Parameters<typeof startTestApi>[2] = {}): ApiFixture {
  const fixture: SetByHooks<ApiFixture> = {};
  before(async () => {
    fixture.redis = await freshRedis();
    fixture.api = await startTestApi(fixture.redis, env, extra);
  });
  after(async () => {
    await fixture.api?.close();
    if (fixture.redis) await closeRedis(fixture.redis);
  });
  return readAfterHooks('useApiFixture', fixture);
}

/** A fixture's fields while its hooks fill them in. */
export type SetByHooks<T> = { -readonly [K in keyof T]?: T[K] };

/**
 * The fixture whose fields hooks set: a field read before its hook ran (say while describe blocks are built) throws,
 * naming the fixture and the field, instead of handing out undefined.
 */
export function readAfterHooks<T extends object>(owner: string, fixture: SetByHooks<T>): T {
  return new Proxy(fixture, {
    get(target, field) {
      const value: unknown = Reflect.get(target, field);
      if (value === undefined && typeof field === 'string') throw new Error(`${owner}: read ${field} inside a test or a later hook`);
      return value;
    },
  }) as T;
}
