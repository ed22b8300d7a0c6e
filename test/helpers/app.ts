import type { Redis } from 'ioredis';
import { startApiServer, type ApiServer } from '../../api/server.js';
import { configWith, type Config } from '../../shared/core/config.js';
import { createLogger } from '../../shared/core/logger.js';
import type { ApiKeyResolver } from '../../shared/paper/api-key-resolver.js';
import { testRedisUrl } from './redis.js';

export interface TestApi extends ApiServer {
  config: Config;
}

/** A real API server on a free loopback port, talking to the suite's Redis. */
export async function startTestApi(
  redis: Redis,
  env: Record<string, string> = {},
  extra: { apiKeys?: ApiKeyResolver } = {},
): Promise<TestApi> {
  const config = configWith({ REDIS_URL: testRedisUrl(), PORT: '0', HOST: '127.0.0.1', ...env });
  const server = await startApiServer({ config, redis, logger: createLogger(config), ...extra });
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
