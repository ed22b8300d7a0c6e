/** What every exchange connector looks like to the feed role, and the glue they share. */
import type { VenueUrls } from '../../shared/core/base-urls.js';
import type { Logger } from '../../shared/core/logger.js';
import { parseJsonText } from '../../shared/market/parse-utils.js';
import type { FrameResult, Venue, VenueCandle, VenueTick } from '../../shared/market/types.js';
import { createIssueLog } from './issue-log.js';
import type { SocketProtocol } from './reconnecting-socket.js';
import type { ShardedStream } from './sharded-stream.js';

/** Where parsed data goes (the market writer). */
export interface StreamSink {
  onTicks(ticks: readonly VenueTick[]): void;
  onCandles(candles: readonly VenueCandle[]): void;
}

export interface ConnectorDeps {
  urls: VenueUrls;
  logger: Logger;
  silenceMs: number;
  reconnectMaxMs: number;
  sink: StreamSink;
}

export interface ConnectorStatus {
  sockets: number;
  open: number;
  connects: number;
}

/** What the feed role and the liquidation collector do with a connector. */
export interface StreamConnector {
  /** Opens the connections for these symbols (canonical names). */
  start(symbols: readonly string[]): void;
  /** Follows a new universe: subscribes the new symbols, unsubscribes the gone ones. */
  setSymbols(symbols: readonly string[]): void;
  stop(): Promise<void>;
  status(): ConnectorStatus;
}

export interface VenueConnector extends StreamConnector {
  readonly venue: Venue;
}

/** Keep-alive period: the venue's own, but always several per silence window. */
export function pingEvery(venueMs: number, silenceMs: number): number {
  return Math.max(100, Math.min(venueMs, Math.floor(silenceMs / 3)));
}

/**
 * Text frame -> JSON -> parser -> `deliver`; anything unreadable is logged (rate-limited) and
 * skipped, and so is a text frame `ignore` recognizes (a bare pong).
 */
export function jsonFrameHandler<F extends { issues: string[] }>(
  stream: string,
  logger: Logger,
  parse: (msg: unknown) => F,
  deliver: (frame: F) => void,
  ignore: (text: string) => boolean = () => false,
): (text: string) => void {
  const issues = createIssueLog(logger, stream);
  return (text) => {
    const msg = parseJsonText(text);
    if (msg === undefined) {
      if (!ignore(text)) issues.report([`${stream}: not JSON: ${text.slice(0, 200)}`]);
      return;
    }
    let frame: F;
    try {
      frame = parse(msg);
    } catch (error) {
      issues.report([`${stream}: parser failed: ${(error as Error).message}`]);
      return;
    }
    issues.report(frame.issues);
    deliver(frame);
  };
}

/** The frame handler of a price stream: ticks and candles to the market writer. */
export function frameHandler(
  stream: string,
  logger: Logger,
  parse: (msg: unknown) => FrameResult,
  sink: StreamSink,
): (text: string) => void {
  return jsonFrameHandler(stream, logger, parse, (result) => {
    if (result.ticks.length > 0) sink.onTicks(result.ticks);
    if (result.candles.length > 0) sink.onCandles(result.candles);
  });
}

/** The sockets of some sharded endpoints, counted together. */
export function streamsStatus(streams: readonly ShardedStream[]): ConnectorStatus {
  return {
    sockets: streams.reduce((n, s) => n + s.socketCount, 0),
    open: streams.reduce((n, s) => n + s.openSockets, 0),
    connects: streams.reduce((n, s) => n + s.connects, 0),
  };
}

/** A connector made of one or more sharded endpoints. */
export function composeConnector(venue: Venue, streams: readonly ShardedStream[]): VenueConnector {
  return {
    venue,
    start: (symbols) => streams.forEach((s) => s.start(symbols)),
    setSymbols: (symbols) => streams.forEach((s) => s.setSymbols(symbols)),
    stop: async () => {
      await Promise.all(streams.map((s) => s.stop()));
    },
    status: () => streamsStatus(streams),
  };
}

/**
 * The subscribe and unsubscribe messages of a venue that takes at most `perMessage` topics in one:
 * `build` writes one message for one batch; `seq` counts the messages (1, 2, ...) for venues that want an id.
 */
export function batchedSubscriptions(
  perMessage: number,
  build: (batch: string[], unsubscribe: boolean, seq: number) => string,
): Pick<SocketProtocol, 'subscribe' | 'unsubscribe'> {
  let seq = 0;
  const messages = (unsubscribe: boolean) => (topics: string[]) =>
    chunk(topics, perMessage).map((batch) => build(batch, unsubscribe, ++seq));
  return { subscribe: messages(false), unsubscribe: messages(true) };
}

/** Splits a list into chunks of at most `size`. */
function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
