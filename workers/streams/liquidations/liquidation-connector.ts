/** What every liquidation connector looks like to the collector, and the glue they share. */
import { schedule, type Logger as CronLogger, type ScheduledTask } from 'node-cron';
import type { Clock } from '../../../shared/core/clock.js';
import type { VenueUrls } from '../../../shared/core/base-urls.js';
import type { Logger } from '../../../shared/core/logger.js';
import type { CollectedLiquidation, LiqExchange, LiquidationFrame } from '../../../shared/derivatives/liquidations/liquidation-event.js';
import type { HttpSettings } from '../../../shared/http/http-json.js';
import type { SocketProtocol } from '../reconnecting-socket.js';
import { ShardedStream } from '../sharded-stream.js';
import { jsonFrameHandler, pingEvery, streamsStatus, type StreamConnector } from '../venue-connector.js';

/** Where normalized events go (the liquidation writer). */
export interface LiquidationSink {
  record(events: readonly CollectedLiquidation[]): void;
}

export interface LiquidationConnectorDeps {
  urls: VenueUrls;
  logger: Logger;
  silenceMs: number;
  reconnectMaxMs: number;
  sink: LiquidationSink;
  clock: Clock;
  /** REST settings for the contract-size lists some exchanges need. */
  http: HttpSettings;
}

export interface LiquidationConnector extends StreamConnector {
  readonly exchange: LiqExchange;
}

/** The frame handler of a liquidation stream: events to the liquidation writer. */
export function liquidationFrameHandler(
  stream: string,
  { logger, sink }: Pick<LiquidationConnectorDeps, 'logger' | 'sink'>,
  parse: (msg: unknown) => LiquidationFrame,
): (text: string) => void {
  return jsonFrameHandler(
    stream,
    logger,
    parse,
    (frame) => {
      if (frame.events.length > 0) sink.record(frame.events);
    },
    (text) => text === 'pong',
  );
}

export interface SingleStreamOptions {
  exchange: LiqExchange;
  url: string;
  deps: LiquidationConnectorDeps;
  protocol: SocketProtocol;
  /** The topics of the one connection (an all-market channel). */
  topics: string[];
  /** The venue's own keep-alive period. */
  pingMs: number;
  sendGapMs?: number;
  decodeBinary?(data: Buffer): string;
  parse(msg: unknown): LiquidationFrame;
}

/** One connection carrying an all-market channel, reusing the sharded stream with a single shard. */
export function singleStream(o: SingleStreamOptions): ShardedStream {
  return new ShardedStream({
    name: `${o.exchange}-liq`,
    url: o.url,
    logger: o.deps.logger,
    protocol: o.protocol,
    symbolsPerShard: 1,
    topicsFor: () => [],
    fixedTopics: o.topics,
    silenceMs: o.deps.silenceMs,
    pingIntervalMs: pingEvery(o.pingMs, o.deps.silenceMs),
    reconnectMaxMs: o.deps.reconnectMaxMs,
    sendGapMs: o.sendGapMs ?? 100,
    decodeBinary: o.decodeBinary,
    onText: liquidationFrameHandler(`${o.exchange}-liq`, o.deps, o.parse),
  });
}

/** What a connector loads before its streams start and stops with them (a RefreshingTable). */
export interface ConnectorTable {
  start(): Promise<void>;
  stop(): void;
}

/** A connector made of all-market streams (symbols do not matter), started after its table's first load settles. */
export function globalConnector(exchange: LiqExchange, streams: ShardedStream[], table?: ConnectorTable): LiquidationConnector {
  let running = false;
  return {
    exchange,
    start: () => {
      running = true;
      void (table?.start() ?? Promise.resolve()).finally(() => {
        if (running) streams.forEach((s) => s.start([]));
      });
    },
    setSymbols: () => undefined,
    stop: async () => {
      running = false;
      table?.stop();
      await Promise.all(streams.map((s) => s.stop()));
    },
    status: () => streamsStatus(streams),
  };
}

/** A table without a good load retries at this pace; a loaded one is reloaded at the first check after it is `refreshMs` old. */
const TABLE_CHECK = '*/30 * * * * *';

/**
 * A table fetched over REST (contract sizes): loaded before the stream starts, refreshed hourly,
 * retried every 30 s while it fails. Events of contracts it does not know are skipped and logged.
 * Each feed process holds its own copy, so the schedule is node-cron's (housekeeping local to one
 * process), not a BullMQ job scheduler (work that runs once per cluster).
 */
export class RefreshingTable<T> {
  private task: ScheduledTask | undefined;
  private loadedAt = -Infinity;
  private stopped = false;

  constructor(
    private readonly name: string,
    private readonly load: () => Promise<T>,
    public value: T,
    private readonly logger: Logger,
    private readonly refreshMs = 3_600_000,
  ) {}

  /** The first load attempt; resolves either way. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.refresh();
    // a stop during the first load schedules nothing
    if (this.stopped) return;
    this.task ??= schedule(TABLE_CHECK, () => (Date.now() - this.loadedAt >= this.refreshMs ? this.refresh() : undefined), {
      name: this.name,
      noOverlap: true,
      unref: true,
      logger: cronLogger(this.logger, this.name),
    });
  }

  private async refresh(): Promise<void> {
    try {
      this.value = await this.load();
      this.loadedAt = Date.now();
    } catch (error) {
      this.logger.warn({ err: error, table: this.name }, 'contract sizes not loaded');
    }
  }

  stop(): void {
    this.stopped = true;
    void this.task?.destroy();
    this.task = undefined;
  }
}

/** node-cron's own notices (a run missed under load, one skipped while the last still runs) go to the process log. */
function cronLogger(logger: Logger, table: string): CronLogger {
  return {
    info: (message) => logger.info({ table }, message),
    warn: (message) => logger.warn({ table }, message),
    error: (message, err) => logger.error({ table, err: err ?? message }, String(message)),
    debug: (message, err) => logger.debug({ table, err }, String(message)),
  };
}
