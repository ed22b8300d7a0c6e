import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { createLogger } from '../../shared/core/logger.js';
import { configWith } from '../../shared/config.js';
import { providerUrlsFrom } from '../../shared/http/provider-urls.js';
import { CATEGORY_FRESH_MS, FEAR_GREED_EVERY_MS, MACRO_JOBS } from '../../shared/macro/macro-resources.js';
import { MacroRefresher } from '../../shared/macro/macro-refresher.js';
import { MacroService } from '../../shared/macro/macro-service.js';
import { createMacroProviders } from '../../shared/macro/providers/macro-providers.js';
import { providerHttp } from '../../shared/http/provider-http.js';
import { SnapshotStore } from '../../shared/snapshots/snapshot-store.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { simControl, startScriptedSim, type SimHandle } from '../helpers/market-sim.js';
import { refusal } from '../helpers/errors.js';
import { freshRedis } from '../helpers/redis.js';

/** The macro service and refresher on a controlled clock, against the sim's providers and a real Redis. */
describe('macro service and refresher (sim providers, real Redis, injected clock)', () => {
  let sim: SimHandle;
  let redis: RedisClient;
  let now: number;
  const clock = { now: () => now };
  let service: MacroService;
  let refresher: MacroRefresher;

  before(async () => {
    sim = await startScriptedSim();
    redis = await freshRedis();
    now = Date.now();
    const providers = createMacroProviders(providerUrlsFrom({}, 'sim', sim.url), providerHttp(2_000, 1));
    const store = new SnapshotStore(redis);
    service = new MacroService({ store, clock, coinGecko: providers.coinGecko });
    refresher = new MacroRefresher({ store, providers, clock, logger: createLogger(configWith({})) });
  });
  after(async () => {
    await sim.close();
    await closeRedis(redis);
  });

  it('marks a snapshot stale once nothing has refreshed it for three intervals', async () => {
    await refresher.run(MACRO_JOBS.fearGreed);
    expect((await service.fearGreed()).stale).to.equal(false);
    now += 3 * FEAR_GREED_EVERY_MS + 1;
    expect((await service.fearGreed()).stale).to.equal(true);
    await refresher.run(MACRO_JOBS.fearGreed);
    expect((await service.fearGreed()).stale).to.equal(false);
  });

  it('throws when every resource of a job failed, and keeps the last good answer', async () => {
    await simControl(sim, 'provider', { name: 'alternative-me', down: true });
    try {
      let failed = false;
      await refresher.run(MACRO_JOBS.fearGreed).catch(() => (failed = true));
      expect(failed).to.equal(true);
      const served = await service.fearGreed();
      expect(served.stale).to.equal(true);
      expect(served.history.length).to.equal(31);
    } finally {
      await simControl(sim, 'provider', { name: 'alternative-me', down: false });
    }
  });

  it('fetches a category on demand, serves it fresh for 10 minutes, then stale while CoinGecko is down', async () => {
    const first = await service.coins('layer-1');
    expect(first).to.include({ category: 'layer-1', stale: false });
    now += CATEGORY_FRESH_MS + 1;
    await simControl(sim, 'provider', { name: 'coingecko', down: true });
    try {
      const stale = await service.coins('layer-1');
      expect(stale.stale).to.equal(true);
      expect(stale.coins).to.deep.equal(first.coins);
      expect(stale.updatedAt).to.equal(first.updatedAt);
      const never = await refusal(service.coins('meme-token'));
      expect([never.status, never.code]).to.deep.equal([503, 'upstream_unavailable']);
    } finally {
      await simControl(sim, 'provider', { name: 'coingecko', down: false });
    }
    const unknown = await refusal(service.coins('not-a-category'));
    expect([unknown.status, unknown.code]).to.deep.equal([400, 'unknown_category']);
  });

  it('refreshes the category list at most every six hours', async () => {
    const first = await refresher.run(MACRO_JOBS.coinGecko);
    expect(first.categories).to.equal('ok');
    const second = await refresher.run(MACRO_JOBS.coinGecko);
    expect(second.categories).to.equal('skipped');
  });
});
