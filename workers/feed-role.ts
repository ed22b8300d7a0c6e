/**
 * The feed role: exchange connectors, each behind its own cluster-wide lease, the symbol-universe
 * refresh, and the market writer (venue prices, aggregates, candles, sweep jobs).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { systemClock } from '../shared/core/clock.js';
import { createVenueRests } from '../shared/market/market-store.js';
import { MarketWriter } from '../shared/market/market-writer.js';
import { DepthRefresher } from '../shared/market/depth-refresher.js';
import { feedLastMessage } from '../shared/metrics/metrics.js';
import type { Venue } from '../shared/market/types.js';
import { UniverseRefresher } from '../shared/market/universe-refresher.js';
import { createSweepProducer } from '../shared/queues/sweep-producer.js';
import { createDomain } from '../shared/domain.js';
import { closeRedis, createRedis } from '../shared/redis/connection.js';
import { ConnectionReporter } from '../shared/status/connection-report.js';
import type { RoleContext, RunningRole } from './runtime.js';
import { createConnector } from './streams/connectors.js';
import { LeasedConnectors } from './streams/leased-connectors.js';
import { startLiquidationCollector } from './streams/liquidations/liquidation-collector.js';
import type { ConnectorStatus, StreamSink, VenueConnector } from './streams/venue-connector.js';
import type { CheckResult } from '../api/middleware/health.js';

/** Ready when every connector held here has all its sockets open; else names the ones that do not. */
export function connectionsUp(report: Record<string, ConnectorStatus>): CheckResult {
  const down = Object.entries(report)
    .filter(([, status]) => status.sockets === 0 || status.open < status.sockets)
    .map(([lease, status]) => `${lease} (${status.open}/${status.sockets} open)`);
  return down.length === 0 ? { ok: true } : { ok: false, reason: `not connected: ${down.join(', ')}` };
}

/** Tries the universe REST calls this many times per round before the round counts as failed. */
const UNIVERSE_HTTP_ATTEMPTS = 3;

/** Long-lived exchange connections; one active feed per connector across the cluster. */
export async function startFeedRole(ctx: RoleContext): Promise<RunningRole> {
  const { config, redisUrl } = ctx;
  const logger = ctx.logger.child({ role: 'feed' });
  // its own connection: the feed's steady background writes stay off the API's connection
  const redis = createRedis(redisUrl, { commandTimeout: config.redisCommandTimeoutMs });
  const clock = systemClock;
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  // the composition root on the feed's connection: the liquidation and depth stores it writes
  const { stores } = createDomain({ config, redis, clock });

  const sweep = createSweepProducer(redisUrl);
  const writer = new MarketWriter({
    redis,
    logger,
    clock,
    priceFreshMs: config.priceFreshMs,
    flushIntervalMs: config.aggregateThrottleMs,
    onFirstClose: (c) => sweep.enqueue({ symbol: c.symbol, minute: c.openTime, open: c.open, high: c.high, low: c.low, close: c.close }),
  });
  const sink: StreamSink = {
    onTicks: (ticks) => {
      // a frame's ticks come from one connector: its last message, for the feed lag metric
      const venue = ticks[0]?.venue;
      if (venue) feedLastMessage.set(venue, clock.now());
      writer.recordTicks(ticks);
    },
    onCandles: (candles) => writer.recordCandles(candles),
  };

  // the nine liquidation streams, each behind its own lease, with their batching writer
  const liquidations = startLiquidationCollector({ config, redis, store: stores.liquidations, logger, clock, owner });
  const connectors = new LeasedConnectors<Venue, VenueConnector>({
    names: config.feedVenues,
    leaseName: (venue) => venue,
    create: (venue) => {
      // its age counts from the start: a connector that never hears a message shows as stale
      feedLastMessage.set(venue, clock.now());
      return createConnector(venue, {
        urls: config.venueUrls[venue],
        logger: logger.child({ venue }),
        silenceMs: config.streamSilenceMs,
        reconnectMaxMs: config.streamReconnectMaxMs,
        sink,
      });
    },
    onStopped: (venue) => feedLastMessage.delete(venue),
    redis,
    owner,
    leaseMs: config.feedLeaseMs,
    logger,
    clock,
    label: 'connector',
    field: 'venue',
  });

  const refresher = new UniverseRefresher({
    redis,
    logger,
    clock,
    rests: createVenueRests(config, clock, UNIVERSE_HTTP_ATTEMPTS),
    size: config.universeSize,
    refreshMs: config.universeRefreshMs,
    onUniverse: (list) => {
      writer.setUniverse(list);
      liquidations.setSymbols(list);
      connectors.setSymbols(list);
    },
  });

  // the majors' order books, for fills that walk them (impact_bps_per_100k "book")
  const depth = new DepthRefresher({
    store: stores.depth,
    rests: createVenueRests(config, clock, 1),
    clock,
    logger,
    refreshMs: config.depthRefreshMs,
  });

  // the status page's view of every connector running here: its open sockets
  const reporter = new ConnectionReporter({
    redis,
    clock,
    logger,
    owner,
    read: () => ({ ...connectors.report(), ...liquidations.report() }),
  });

  // the feed's own trouble: a connector it holds whose sockets are not all open (a standby holding none is ready)
  ctx.readiness?.add('exchange connections', () => connectionsUp({ ...connectors.report(), ...liquidations.report() }));

  writer.start();
  refresher.start();
  connectors.start();
  reporter.start();
  depth.start();
  logger.info({ owner, venues: config.feedVenues, source: config.marketSource }, 'feed role started');

  let stopping: Promise<void> | undefined;
  return {
    name: 'feed',
    stop: () =>
      (stopping ??= (async () => {
        // connectors first (each lease stops its connector, then is released for a standby), all at once: each waits
        // on its sockets' closing handshakes
        reporter.stop();
        await Promise.all([depth.stop(), connectors.stop(), liquidations.stop()]);
        await refresher.stop();
        await writer.stop();
        await sweep.close();
        await closeRedis(redis);
        logger.info('feed role stopped');
      })()),
  };
}
