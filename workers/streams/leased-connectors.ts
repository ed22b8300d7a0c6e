/**
 * Connectors each behind its own cluster-wide lease (the feed's venues, the liquidation exchanges):
 * the process holding a lease runs that connector on the current symbol universe; losing the lease
 * stops it, so one connector of each runs across the cluster.
 */
import type { RedisClient } from '../../shared/core/redis-client.js';
import type { Clock } from '../../shared/core/clock.js';
import type { Logger } from '../../shared/core/logger.js';
import { FeedLease } from '../../shared/market/feed-lease.js';
import { feedLeaseHeld } from '../../shared/metrics/metrics.js';
import type { ConnectorStatus, StreamConnector } from './venue-connector.js';

export interface LeasedConnectorsOptions<K extends string, C extends StreamConnector> {
  names: readonly K[];
  /** The lease key of a connector (the venue, liq-<exchange>). */
  leaseName(name: K): string;
  create(name: K): C;
  redis: RedisClient;
  /** This process's id (the lease value). */
  owner: string;
  leaseMs: number;
  logger: Logger;
  clock: Clock;
  /** For logs: what a connector is called ('connector') and the log field naming it ('venue'). */
  label: string;
  field: string;
  /** Hears a connector stopped (its lease lost or released): the feed's message ages forget it. */
  onStopped?(name: K): void;
}

export class LeasedConnectors<K extends string, C extends StreamConnector> {
  private symbols: readonly string[] = [];
  private readonly running = new Map<K, C>();
  private readonly leases: FeedLease[];
  private readonly leaseName: (name: K) => string;

  constructor(o: LeasedConnectorsOptions<K, C>) {
    this.leaseName = o.leaseName;
    this.leases = o.names.map((name) => {
      // 0 from the start, not absent: an alert sees a lease nobody holds (every process reporting 0)
      const held = feedLeaseHeld.labels(o.leaseName(name));
      held.set(0);
      return new FeedLease({
        redis: o.redis,
        name: o.leaseName(name),
        owner: o.owner,
        leaseMs: o.leaseMs,
        logger: o.logger,
        clock: o.clock,
        onGained: () => {
          held.set(1);
          const connector = o.create(name);
          this.running.set(name, connector);
          connector.start(this.symbols);
          o.logger.info({ [o.field]: name, symbols: this.symbols.length }, `${o.label} started`);
        },
        onLost: async (reason) => {
          held.set(0);
          const connector = this.running.get(name);
          this.running.delete(name);
          if (!connector) return;
          await connector.stop();
          o.onStopped?.(name);
          o.logger.info({ [o.field]: name, reason }, `${o.label} stopped`);
        },
      });
    });
  }

  start(): void {
    for (const lease of this.leases) lease.start();
  }

  /** The universe: running connectors follow it, and connectors started later begin with it. */
  setSymbols(symbols: readonly string[]): void {
    this.symbols = symbols;
    for (const connector of this.running.values()) connector.setSymbols(symbols);
  }

  /** The sockets of each connector running in this process now, by lease name. */
  report(): Record<string, ConnectorStatus> {
    return Object.fromEntries([...this.running].map(([name, connector]) => [this.leaseName(name), connector.status()]));
  }

  /** The connectors running in this process now. */
  active(): K[] {
    return [...this.running.keys()];
  }

  /** Stops every lease (each stops its connector, then is released for a standby). */
  async stop(): Promise<void> {
    await Promise.allSettled(this.leases.map((lease) => lease.stop()));
  }
}
