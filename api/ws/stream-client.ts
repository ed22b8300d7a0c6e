/** One WebSocket stream: its key's context, the channels it chose, and sends that respect both. */
import { WebSocket } from 'ws';
import type { KeyContext } from '../../shared/paper/key-context.js';
import type { BookRef } from '../../shared/paper/positions/position-types.js';

export const STREAM_CHANNELS = ['positions', 'prices'] as const;
export type StreamChannel = (typeof STREAM_CHANNELS)[number];

/** A stream's key looked up: its context, or why it is refused. */
/** A key's (or a site session's: login_required, cross_site) check: its context, or the code it is refused with. */
export type KeyCheck =
  { context: KeyContext } | { code: 'missing_api_key' | 'bad_api_key' | 'revoked_key' | 'login_required' | 'cross_site' };

/** A socket this far behind skips price ticks (the next one supersedes them anyway). */
const SKIP_TICKS_ABOVE_BYTES = 256 * 1024;
/** A socket this far behind is not reading at all: it is cut off rather than held in memory. */
const TERMINATE_ABOVE_BYTES = 4 * 1024 * 1024;

export class StreamClient {
  readonly channels = new Set<StreamChannel>(STREAM_CHANNELS);
  readonly ref: BookRef;
  /** Answered the last heartbeat ping. */
  alive = true;
  /** Position events held back until the snapshot has gone out, so the snapshot comes first. */
  private held: string[] | null = [];

  constructor(
    readonly ws: WebSocket,
    readonly ctx: KeyContext,
    readonly socketId: string,
    /** Looks the socket's key up again (the key itself stays in this closure, out of anything logged). */
    readonly checkKey: () => Promise<KeyCheck>,
  ) {
    this.ref = { accountId: ctx.accountId, book: ctx.book };
  }

  send(text: string): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount > TERMINATE_ABOVE_BYTES) {
      this.ws.terminate();
      return;
    }
    this.ws.send(text);
  }

  /** A position event: held until the snapshot is out, dropped when the client left the positions channel. */
  position(text: string): void {
    if (!this.channels.has('positions')) return;
    if (this.held) this.held.push(text);
    else this.send(text);
  }

  prices(text: string): void {
    if (this.held || !this.channels.has('prices') || this.ws.bufferedAmount > SKIP_TICKS_ABOVE_BYTES) return;
    this.send(text);
  }

  /** A new snapshot is coming: position events wait for it again. */
  hold(): void {
    this.held ??= [];
  }

  /** The snapshot is out: what was held follows it, in order. */
  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const text of held) this.send(text);
  }
}
