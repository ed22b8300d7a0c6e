/**
 * The listenKey of Binance's user-data stream (USER_STREAM: the API key alone, not signed): POST answers the key's
 * valid listenKey (extended) or a new one, PUT extends it by 60 minutes (-1125 when it has none), DELETE closes it (its
 * sockets get listenKeyExpired). The stream itself is api/binance/user-stream.ts.
 */
import { AppError } from '../../shared/core/errors.js';
import type { ListenKeyStore } from '../../shared/binance/listen-key-store.js';
import type { BinanceRoute } from './binance-route.js';

const unknownListenKey = (): AppError => new AppError('listen_key_unknown', 'This listenKey does not exist.');

export function userStreamRoutes(listenKeys: ListenKeyStore): BinanceRoute[] {
  return [
    { method: 'post', path: '/v1/listenKey', signed: 'key', handle: async ({ auth }) => ({ listenKey: await listenKeys.open(auth) }) },
    {
      method: 'put',
      path: '/v1/listenKey',
      signed: 'key',
      handle: async ({ auth }) => {
        const listenKey = await listenKeys.keepAlive(auth);
        if (listenKey === null) throw unknownListenKey();
        return { listenKey };
      },
    },
    {
      method: 'delete',
      path: '/v1/listenKey',
      signed: 'key',
      handle: async ({ auth }) => {
        await listenKeys.close(auth);
        return {};
      },
    },
  ];
}
