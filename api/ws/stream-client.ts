/** One WebSocket stream: its key's context, the channels it chose, and sends that respect both. */
import { WebSocket } from 'ws';
import type { KeyContext } from '../../shared/paper/key-context.js';
import type { BookRef } from '../../shared/paper/positions/position-types.js';
import { compareStreamIds } from '../../shared/push/push-event.js';

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
  /** Position events (by outbox entry id) held back until the snapshot has gone out, so the snapshot comes first. */
  private held: { id: string; text: string }[] | null = [];
  /** The outbox entry id the last snapshot was read at: events up to it are in the snapshot already. */
  private covered: string | null = null;

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

  /**
   * A position event of outbox entry `id`: held until the snapshot is out, dropped when the client left the positions
   * channel or the snapshot already shows it.
   */
  position(text: string, id: string): void {
    if (!this.channels.has('positions')) return;
    if (this.held) this.held.push({ id, text });
    else if (!this.inSnapshot(id)) this.send(text);
  }

  prices(text: string): void {
    if (this.held || !this.channels.has('prices') || this.ws.bufferedAmount > SKIP_TICKS_ABOVE_BYTES) return;
    this.send(text);
  }

  /** A new snapshot is coming: position events wait for it again. */
  hold(): void {
    this.held ??= [];
  }

  /** The snapshot read at outbox entry `outboxId` is out: what was held and is newer follows it, in order. */
  release(outboxId: string): void {
    const held = this.held ?? [];
    this.held = null;
    this.covered = outboxId;
    for (const event of held) if (!this.inSnapshot(event.id)) this.send(event.text);
  }

  private inSnapshot(id: string): boolean {
    return this.covered !== null && compareStreamIds(id, this.covered) <= 0;
  }
}
