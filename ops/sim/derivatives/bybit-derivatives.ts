/** Bybit v5 derivatives REST the jobs may call (category=linear): /v5/market/open-interest and /v5/market/account-ratio, newest first. */
import { fixed } from '../format.js';
import type { RestReply, RestRequest, VenueDeps } from '../sim-types.js';
import { envelope } from '../venues/bybit-format.js';
import { clampLimit } from '../venues/common.js';
import { intParam } from '../ws-hub.js';
import { longShare, ratioTimes } from './account-ratio.js';

const INTERVALS: Record<string, number> = {
  '5min': 300_000,
  '15min': 900_000,
  '30min': 1_800_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
};

export function bybitDerivativesRest(req: RestRequest, deps: VenueDeps): RestReply | undefined {
  if (req.method !== 'GET') return undefined;
  if (req.path !== '/v5/market/open-interest' && req.path !== '/v5/market/account-ratio') return undefined;
  const now = deps.now();
  const fail = (msg: string): RestReply => ({ status: 200, body: envelope({}, now, 10001, msg) });
  if (req.query.get('category') !== 'linear') return fail('Illegal category');
  const symbol = req.query.get('symbol');
  const spec = symbol ? deps.model.spec(symbol) : undefined;
  if (!symbol || !spec) return fail('params error: symbol invalid');
  const limit = clampLimit(intParam(req.query, 'limit'), 50, 200);
  if (req.path === '/v5/market/open-interest') {
    const step = INTERVALS[req.query.get('intervalTime') ?? ''];
    if (!step) return fail('params error: intervalTime invalid');
    const oi = deps.model.quote(symbol, 'bybit').openInterest;
    const last = Math.floor(now / step) * step;
    const list = Array.from({ length: limit }, (_, i) => ({
      openInterest: fixed(oi * (1 - i * 0.001), 8),
      timestamp: String(last - i * step),
    }));
    return { status: 200, body: envelope({ symbol, category: 'linear', list, nextPageCursor: '' }, now) };
  }
  if (!INTERVALS[req.query.get('period') ?? '']) return fail('params error: period invalid');
  const list = ratioTimes(now, limit)
    .reverse()
    .map((ts) => {
      const long = longShare(spec, 1, ts);
      return { symbol, buyRatio: fixed(long, 4), sellRatio: fixed(1 - long, 4), timestamp: String(ts) };
    });
  return { status: 200, body: envelope({ list, nextPageCursor: '' }, now) };
}
