/** OKX v5 derivatives REST the jobs call: /api/v5/public/funding-rate (instId or ANY) and /api/v5/public/open-interest (SWAP). */
import { fixed, trim } from '../format.js';
import type { RestReply, RestRequest, VenueDeps } from '../sim-types.js';
import { ctVal, envelope, usdtInstId } from '../venues/okx-format.js';

const fail = (status: number, code: string, msg: string): RestReply => ({ status, body: envelope([], code, msg) });

export function okxDerivativesRest(req: RestRequest, deps: VenueDeps): RestReply | undefined {
  if (req.method !== 'GET') return undefined;
  const { model, now } = deps;
  if (req.path === '/api/v5/public/funding-rate') {
    const instId = req.query.get('instId');
    if (!instId) return fail(400, '50014', 'Parameter instId can not be empty.');
    const specs = instId === 'ANY' ? model.symbols : model.symbols.filter((s) => usdtInstId(s) === instId);
    if (specs.length === 0) return fail(200, '51001', "Instrument ID, Instrument ID code, or Spread ID doesn't exist.");
    const data = specs.map((spec) => {
      const q = model.quote(spec.symbol, 'okx');
      return {
        formulaType: 'noRate',
        fundingRate: fixed(q.fundingRate, 16),
        fundingTime: String(q.nextFundingTime),
        impactValue: '',
        instId: usdtInstId(spec),
        instType: 'SWAP',
        interestRate: '',
        maxFundingRate: '0.00375',
        method: 'current_period',
        minFundingRate: '-0.00375',
        nextFundingRate: '',
        nextFundingTime: String(q.nextFundingTime + q.fundingIntervalMs),
        premium: fixed(q.fundingRate * 0.5, 16),
        settFundingRate: fixed(q.fundingRate, 16),
        settState: 'settled',
        ts: String(now()),
      };
    });
    return { status: 200, body: envelope(data) };
  }
  if (req.path === '/api/v5/public/open-interest') {
    const instType = req.query.get('instType');
    if (!instType) return fail(400, '50014', 'Parameter instType can not be empty.');
    if (instType !== 'SWAP') return { status: 200, body: envelope([]) };
    const instId = req.query.get('instId');
    const data = model.symbols
      .filter((spec) => !instId || usdtInstId(spec) === instId)
      .map((spec) => {
        const q = model.quote(spec.symbol, 'okx');
        const size = ctVal({ instId: usdtInstId(spec), spec, inverse: false });
        return {
          instType: 'SWAP',
          instId: usdtInstId(spec),
          oi: trim(q.openInterest / size, 2),
          oiCcy: trim(q.openInterest, 6),
          oiUsd: trim(q.openInterest * q.last, 2),
          ts: String(now()),
        };
      });
    return { status: 200, body: envelope(data) };
  }
  return undefined;
}
