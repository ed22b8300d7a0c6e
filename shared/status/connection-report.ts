/**
 * The feed's side of the status page: every few seconds, the process writes the sockets of each
 * connector it runs (by lease name) with its own id and the time, so any API pod can tell a
 * connector that holds its lease but has no open connection.
 */
import type { RedisClient } from '../core/redis-client.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { redisOutages } from '../redis/connection.js';
import { keys } from '../redis/keys.js';
import type { ConnectionReport } from './status-rules.js';

/** How often the feed reports its connectors; the status page ignores a report older than three of these. */
export const CONNECTION_REPORT_MS = 5_000;

export interface ConnectionReporterOptions {
  redis: RedisClient;
  clock: Clock;
  logger: Logger;
  owner: string;
  /** The sockets of every connector running here now, by lease name. */
  read(): Record<string, { open: number; sockets: number }>;
  everyMs?: number;
}

export class ConnectionReporter {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly o: ConnectionReporterOptions) {}

  start(): void {
    this.timer ??= setInterval(() => void this.report(), this.o.everyMs ?? CONNECTION_REPORT_MS);
    this.timer.unref();
  }

  async report(): Promise<void> {
    const ts = this.o.clock.now();
    const entries = Object.entries(this.o.read()).map(([name, { open, sockets }]): [string, string] => {
      const report: ConnectionReport = { owner: this.o.owner, open, sockets, ts };
      return [name, JSON.stringify(report)];
    });
    if (entries.length === 0) return;
    try {
      await this.o.redis.hset(keys.feedConnections(), Object.fromEntries(entries));
    } catch (error) {
      redisOutages.report(error, () => this.o.logger.warn({ err: error }, 'connection report not written'));
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
