/**
 * The liquidation collector of the feed role: one connector per exchange, each behind its own
 * cluster-wide lease (`liq-<exchange>`), all writing through one batching writer.
 */
import type { RedisClient } from '../../../shared/core/redis-client.js';
import type { Clock } from '../../../shared/core/clock.js';
import type { VenueUrls } from '../../../shared/core/base-urls.js';
import type { Config } from '../../../shared/config.js';
import type { Logger } from '../../../shared/core/logger.js';
import type { LiqExchange } from '../../../shared/derivatives/liquidations/liquidation-event.js';
import type { LiquidationStore } from '../../../shared/derivatives/liquidations/liquidation-store.js';
import { LiquidationWriter } from '../../../shared/derivatives/liquidations/liquidation-writer.js';
import { liquidationLastEvent } from '../../../shared/metrics/metrics.js';
import { LeasedConnectors } from '../leased-connectors.js';
import { createLiquidationConnector } from './connectors.js';
import type { ConnectorStatus } from '../venue-connector.js';
import type { LiquidationConnector } from './liquidation-connector.js';

export interface LiquidationCollectorOptions {
  config: Config;
  /** For the connectors' leases. */
  redis: RedisClient;
  /** The domain's liquidation store on the feed's connection: the writer's batches go there. */
  store: LiquidationStore;
  logger: Logger;
  clock: Clock;
  /** This process's id (the lease value). */
  owner: string;
}

export interface LiquidationCollector {
  /** The symbol universe: Bybit subscribes per symbol, and only these get per-symbol storage. */
  setSymbols(symbols: readonly string[]): void;
  readonly writer: LiquidationWriter;
  /** Exchanges whose connector runs in this process now. */
  active(): LiqExchange[];
  /** The sockets of each connector running here, by lease name (liq-<exchange>). */
  report(): Record<string, ConnectorStatus>;
  stop(): Promise<void>;
}

/** Base URLs of an exchange's liquidation stream: the market venues' for the four, the liquidation-only ones else. */
export function liquidationUrls(config: Config, exchange: LiqExchange): VenueUrls {
  if (exchange === 'binance' || exchange === 'bybit' || exchange === 'okx' || exchange === 'bitget') return config.venueUrls[exchange];
  return config.liquidationUrls[exchange];
}

export function startLiquidationCollector({
  config,
  redis,
  store,
  logger: parent,
  clock,
  owner,
}: LiquidationCollectorOptions): LiquidationCollector {
  const logger = parent.child({ part: 'liquidations' });
  const writer = new LiquidationWriter({ store, logger, clock, flushMs: config.liqFlushMs });
  const http = { timeoutMs: config.restTimeoutMs, attempts: 2, baseDelayMs: 250, maxDelayMs: 5_000 };
  const connectors = new LeasedConnectors<LiqExchange, LiquidationConnector>({
    names: config.liqVenues,
    leaseName: (exchange) => `liq-${exchange}`,
    create: (exchange) => {
      // its age counts from the start: a connector that never hears an event shows its silence
      liquidationLastEvent.set(exchange, clock.now());
      return createLiquidationConnector(exchange, {
        urls: liquidationUrls(config, exchange),
        logger: logger.child({ exchange }),
        silenceMs: config.streamSilenceMs,
        reconnectMaxMs: config.streamReconnectMaxMs,
        sink: {
          record: (events) => {
            liquidationLastEvent.set(exchange, clock.now());
            writer.record(events);
          },
        },
        clock,
        http,
      });
    },
    onStopped: (exchange) => liquidationLastEvent.delete(exchange),
    redis,
    owner,
    leaseMs: config.feedLeaseMs,
    logger,
    clock,
    label: 'liquidation connector',
    field: 'exchange',
  });

  writer.start();
  connectors.start();

  let stopping: Promise<void> | undefined;
  return {
    writer,
    setSymbols(list) {
      writer.setUniverse(list);
      connectors.setSymbols(list);
    },
    active: () => connectors.active(),
    report: () => connectors.report(),
    stop: () =>
      (stopping ??= (async () => {
        await connectors.stop();
        await writer.stop();
      })()),
  };
}
