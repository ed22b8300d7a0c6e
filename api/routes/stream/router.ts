/** The WebSocket stream's path answers a plain GET with 426: the stream itself is an upgrade (api/ws/stream-server.ts). */
import { AppError } from '../../../shared/core/errors.js';
import { defineRoutes, type RouteGroup } from '../../routing/route-catalog.js';
import { STREAM_PATH } from '../../ws/stream-server.js';

export function streamRoutes(tickMs: number): RouteGroup {
  return defineRoutes([
    {
      method: 'get',
      path: STREAM_PATH,
      tag: 'bot push',
      summary: 'WebSocket stream (connect with ?api_key=): welcome, snapshot, position events, prices; a plain GET answers 426',
      description:
        `Server: { type: welcome, data: { channels, tick_ms: ${tickMs} } }, { type: snapshot, data: { positions } } on connect, ` +
        '{ type: position, data: { event: opened|updated|closed, position } } on every change, { type: prices, data: { <ticker>: price } } (e.g. { BTC: 65000 }) each tick ' +
        'for open symbols. Client: { op: subscribe, channels: [positions, prices] }, { op: ping } (answered pong). At most 3 sockets per account; ' +
        'recycled after 6 h. Close codes: 4401 key refused (reason: missing_api_key, bad_api_key or revoked_key; an open socket too, within a second of ' +
        'its key being revoked), 4429 too_many_sockets (also the sockets beyond a lowered cap), 4000 recycled, 1001 server shutting down.',
      style: 'envelope',
      errors: ['upgrade_required'],
      handle: ({ res }) => {
        res.setHeader('Upgrade', 'websocket');
        throw new AppError('upgrade_required', 'this is a WebSocket endpoint: connect with a WebSocket client and ?api_key=<API_KEY>');
      },
    },
  ]);
}
