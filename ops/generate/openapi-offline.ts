/**
 * The service's OpenAPI document built in this process, without a server or a Redis: the app is built over a client
 * that never connects (building routes sends no command), so the document is the one /api/openapi.json serves.
 */
import { Redis } from 'ioredis';
import { createApp } from '../../api/app.js';
import { buildOpenApiDocument } from '../../api/openapi/openapi-document.js';
import { configWith } from '../../shared/config.js';
import { createLogger } from '../../shared/core/logger.js';
import { createDomain } from '../../shared/domain.js';

export async function offlineOpenApiDocument(): Promise<Record<string, unknown>> {
  const config = configWith({});
  // lazyConnect and no offline queue: a command sent by mistake fails at once instead of waiting for a server
  const redis = new Redis({ lazyConnect: true, enableOfflineQueue: false });
  try {
    const app = createApp({ domain: createDomain({ config, redis }), logger: createLogger(config) });
    try {
      return buildOpenApiDocument(app.catalog.routes);
    } finally {
      await app.close();
    }
  } finally {
    redis.disconnect();
  }
}
