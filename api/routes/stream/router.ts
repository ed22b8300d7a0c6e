/**
 * The WebSocket stream's path answers a plain GET with 426 once its key is valid (401 before, as
 * the upgrade itself): the stream is an upgrade (api/ws/stream-server.ts).
 */
import { AppError } from '../../../shared/core/errors.js';
import type { Authenticate } from '../../middleware/authenticate.js';
import { defineRoutes, type RouteGroup } from '../../routing/route-catalog.js';
import { STREAM_PATH } from '../../ws/stream-server.js';

export interface StreamRouteOptions {
  tickMs: number;
  authenticate: Authenticate;
}

export function streamRoutes({ tickMs, authenticate }: StreamRouteOptions): RouteGroup {
  return defineRoutes(
    [
      {
        method: 'get',
        path: STREAM_PATH,
        tag: 'bot push',
        summary:
          'WebSocket stream (connect with ?api_key=): welcome, snapshot, position events, prices; a plain GET answers 426 (401 ' +
          'without a valid key)',
        description:
          `Server: { type: welcome, data: { channels, tick_ms: ${tickMs} } }, { type: snapshot, data: { positions } } on connect, ` +
          '{ type: position, data: { event: opened|updated|closed, position } } on every change, { type: prices, data: { <ticker>: ' +
          'price } } (e.g. { BTC: 65000 }) each tick ' +
          'for open symbols. Client: { op: subscribe, channels: [positions, prices] }, { op: ping } (answered pong). At most 3 ' +
          'sockets per account; ' +
          'recycled after 6 h. The key is checked before the upgrade: a missing, bad or revoked key answers HTTP 401 ' +
          'missing_api_key, bad_api_key or ' +
          'revoked_key (the message names api_key), and no socket opens. Close codes: 4401 revoked_key (an open socket, within a ' +
          'second of its key ' +
          'being revoked), 4429 too_many_sockets (also the sockets beyond a lowered cap), 4000 recycled, 1001 server shutting down.',
        style: 'envelope',
        keyed: true,
        errors: ['upgrade_required'],
        handle: ({ res }) => {
          res.setHeader('Upgrade', 'websocket');
          throw new AppError('upgrade_required', 'this is a WebSocket endpoint: connect with a WebSocket client and ?api_key=<API_KEY>');
        },
      },
    ],
    { authenticate },
  );
}
