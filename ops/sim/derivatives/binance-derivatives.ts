/** Binance USDⓈ-M derivatives REST the refresh jobs call: /fapi/v1/openInterest and /futures/data/globalLongShortAccountRatio. */
import { fixed } from '../format.js';
import type { RestReply, RestRequest, VenueDeps } from '../sim-types.js';
import { clampLimit } from '../venues/common.js';
import { intParam } from '../ws-hub.js';
import { longShare, ratioTimes } from './account-ratio.js';

const err = (code: number, msg: string): RestReply => ({ status: 400, body: { code, msg } });

export function binanceDerivativesRest(req: RestRequest, deps: VenueDeps): RestReply | undefined {
  if (req.method !== 'GET') return undefined;
  if (req.path !== '/fapi/v1/openInterest' && req.path !== '/futures/data/globalLongShortAccountRatio') return undefined;
  const symbol = req.query.get('symbol');
  if (!symbol) return err(-1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed.");
  const spec = deps.model.spec(symbol);
  if (!spec) return err(-1121, 'Invalid symbol.');
  const now = deps.now();
  if (req.path === '/fapi/v1/openInterest') {
    const q = deps.model.quote(symbol, 'binance');
    return { status: 200, body: { openInterest: fixed(q.openInterest, spec.qtyDp), symbol, time: now } };
  }
  const period = req.query.get('period');
  if (period !== '5m') return err(-1120, 'Invalid period.');
  const limit = clampLimit(intParam(req.query, 'limit'), 30, 500);
  const body = ratioTimes(now, limit).map((ts) => {
    const long = longShare(spec, 0, ts);
    return {
      symbol,
      longShortRatio: fixed(long / (1 - long), 4),
      longAccount: fixed(long, 4),
      shortAccount: fixed(1 - long, 4),
      timestamp: ts,
    };
  });
  return { status: 200, body };
}
