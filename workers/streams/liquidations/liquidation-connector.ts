/** What every liquidation connector looks like to the collector, and the glue they share. */
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
export function liquidationFrameHandler(stream: string, logger: Logger, parse: (msg: unknown) => LiquidationFrame, sink: LiquidationSink): (text: string) => void {
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
    onText: liquidationFrameHandler(`${o.exchange}-liq`, o.deps.logger, o.parse, o.deps.sink),
  });
}

/** A connector made of all-market streams (symbols do not matter), started after `ready` settles. */
export function globalConnector(exchange: LiqExchange, streams: ShardedStream[], ready: () => Promise<void> = async () => undefined, onStop?: () => void): LiquidationConnector {
  let running = false;
  return {
    exchange,
    start: () => {
      running = true;
      void ready().finally(() => {
        if (running) streams.forEach((s) => s.start([]));
      });
    },
    setSymbols: () => undefined,
    stop: async () => {
      running = false;
      onStop?.();
      await Promise.all(streams.map((s) => s.stop()));
    },
    status: () => streamsStatus(streams),
  };
}

/**
 * A table fetched over REST (contract sizes): loaded before the stream starts, refreshed hourly,
 * retried every 30 s while it fails. Events of contracts it does not know are skipped and logged.
 */
export class RefreshingTable<T> {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly name: string,
    private readonly load: () => Promise<T>,
    public value: T,
    private readonly logger: Logger,
    private readonly refreshMs = 3_600_000,
    private readonly retryMs = 30_000,
  ) {}

  /** The first load attempt; resolves either way. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.refresh();
  }

  private async refresh(): Promise<void> {
    let ok = false;
    try {
      this.value = await this.load();
      ok = true;
    } catch (error) {
      this.logger.warn({ err: error, table: this.name }, 'contract sizes not loaded');
    }
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.refresh(), ok ? this.refreshMs : this.retryMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
