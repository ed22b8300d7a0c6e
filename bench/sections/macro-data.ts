/**
 * The 'macro' section needs data in Redis: one refresh of every macro provider, both regional quotes
 * and the screener, run here against the bench's sim (the stack has no worker process, whose
 * schedules would compete for the CPU while other routes are measured).
 */
import { configWith } from '../../shared/config.js';
import { createLogger } from '../../shared/core/logger.js';
import { createDomain } from '../../shared/domain.js';
import { MACRO_JOBS } from '../../shared/macro/macro-resources.js';
import { MacroRefresher } from '../../shared/macro/macro-refresher.js';
import { createMacroProviders } from '../../shared/macro/providers/macro-providers.js';
import { providerHttp } from '../../shared/http/provider-http.js';
import { LatamRefresher } from '../../shared/latam/latam-refresher.js';
import { createLatamProviders } from '../../shared/latam/providers/latam-providers.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { runScreener } from '../../shared/screener/screener-runner.js';
import { systemClock } from '../../shared/core/clock.js';

export async function prepareMacroData(redisUrl: string, simUrl: string): Promise<void> {
  const config = configWith({ REDIS_URL: redisUrl, MARKET_SOURCE: 'sim', SIM_URL: simUrl });
  const logger = createLogger(config);
  const redis = createRedis(redisUrl);
  try {
    const http = providerHttp(config.restTimeoutMs);
    const { market, stores, screener: screenerService } = createDomain({ config, redis });
    const macro = new MacroRefresher({
      store: stores.snapshots,
      providers: createMacroProviders(config.providerUrls, http),
      clock: systemClock,
      logger,
    });
    for (const job of Object.values(MACRO_JOBS)) await macro.run(job);
    const latam = new LatamRefresher({
      store: stores.latam,
      providers: createLatamProviders(config.providerUrls, http),
      btcUsd: async () => (await market.quote('BTCUSDT')).price,
      clock: systemClock,
      logger,
    });
    await latam.refresh();
    const screener = await runScreener(market, {
      size: config.screenerSize,
      intervalMinutes: config.screenerIntervalMinutes,
      now: Date.now(),
    });
    await screenerService.save(screener);
  } finally {
    await closeRedis(redis);
  }
}
