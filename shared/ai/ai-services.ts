/** Builds the /ai service over the domain's market, screener and derivatives services. */
import type { RedisClient } from '../core/redis-client.js';
import type { AiSettings } from './ai-settings.js';
import { AiQuotaStore } from './ai-quota-store.js';
import { AiService } from './ai-service.js';
import { BriefService, type BriefSources } from './brief-service.js';
import { providerAnalyst } from './provider-analyst.js';

export type { AiService } from './ai-service.js';

export interface AiServiceDeps extends BriefSources {
  redis: RedisClient;
  settings: AiSettings;
  onProviderError?: (error: unknown) => void;
}

export function createAiService({ redis, settings, onProviderError, ...sources }: AiServiceDeps): AiService {
  return new AiService({
    briefs: new BriefService(sources),
    quota: new AiQuotaStore(redis),
    clock: sources.clock,
    onProviderError,
    provider: settings.provider ? providerAnalyst({ ...settings.provider, timeoutMs: settings.timeoutMs }) : undefined,
  });
}
