/**
 * OKX v5 `liquidation-orders` (instType SWAP). In each `details[]` entry `side` is the liquidation
 * ORDER's side and `posSide` the liquidated position (long/short; `net` in one-way mode, then the order
 * side decides). `sz` counts contracts: a linear contract is `ctVal` base coin, an inverse one `ctVal`
 * USD (from /api/v5/public/instruments). OKX shows at most one order per contract per second and says
 * the channel does not represent all liquidations.
 */
import { excerpt, isRecord, toNumber, toStr } from '../../../market/parse-utils.js';
import {
  emptyLiquidationFrame,
  liquidation,
  pairOfBase,
  sideFromOrder,
  sideFromPosition,
  type LiquidationFrame,
  type LiquidationSide,
} from '../liquidation-event.js';

export const OKX_LIQUIDATION_CHANNEL = 'liquidation-orders';

/** One contract: ctVal units of ctValCcy (the base coin for linear, USD for inverse). */
export interface OkxContractValue {
  ctVal: number;
  inverse: boolean;
}

export type OkxContractValues = ReadonlyMap<string, OkxContractValue>;

/** GET /api/v5/public/instruments?instType=SWAP (and FUTURES) -> instId -> contract value. */
export function parseOkxContractValues(body: unknown): Map<string, OkxContractValue> {
  const out = new Map<string, OkxContractValue>();
  if (!isRecord(body) || !Array.isArray(body.data)) return out;
  for (const row of body.data) {
    if (!isRecord(row)) continue;
    const instId = toStr(row.instId);
    const ctVal = toNumber(row.ctVal);
    if (!instId || ctVal === undefined || ctVal <= 0) continue;
    const inverse = row.ctType === 'inverse' || row.ctValCcy === 'USD';
    out.set(instId, { ctVal, inverse });
  }
  return out;
}

export function okxSubscribeLiquidations(id: string, instTypes: readonly string[] = ['SWAP']): string {
  return JSON.stringify({ id, op: 'subscribe', args: instTypes.map((instType) => ({ channel: OKX_LIQUIDATION_CHANNEL, instType })) });
}

function sideOf(detail: Record<string, unknown>): LiquidationSide | undefined {
  const pos = toStr(detail.posSide);
  if (pos === 'long' || pos === 'short') return sideFromPosition(pos);
  return sideFromOrder(toStr(detail.side) ?? '');
}

export function parseOkxLiquidations(msg: unknown, contracts: OkxContractValues): LiquidationFrame {
  const out = emptyLiquidationFrame();
  if (!isRecord(msg) || !isRecord(msg.arg) || msg.arg.channel !== OKX_LIQUIDATION_CHANNEL || !Array.isArray(msg.data)) return out;
  for (const row of msg.data) {
    const instId = isRecord(row) ? toStr(row.instId) : undefined;
    if (!isRecord(row) || !instId || !Array.isArray(row.details)) {
      out.issues.push(`okx: unreadable liquidation row: ${excerpt(row)}`);
      continue;
    }
    const symbol = pairOfBase(instId.split('-')[0]);
    const contract = contracts.get(instId);
    for (const detail of row.details) {
      if (!isRecord(detail)) continue;
      const side = sideOf(detail);
      const sz = toNumber(detail.sz);
      const price = toNumber(detail.bkPx);
      const ts = toNumber(detail.ts);
      if (!contract) {
        out.issues.push(`okx: no contract value for ${instId}`);
        continue;
      }
      const id = `okx|${instId}|${String(detail.ts)}|${String(detail.side)}|${String(detail.sz)}|${String(detail.bkPx)}`;
      const event =
        symbol && side && sz !== undefined && price !== undefined && ts !== undefined
          ? liquidation(
              id,
              contract.inverse
                ? { ts, exchange: 'okx', symbol, side, price, usd: sz * contract.ctVal }
                : { ts, exchange: 'okx', symbol, side, price, qty: sz * contract.ctVal },
            )
          : undefined;
      if (event) out.events.push(event);
      else out.issues.push(`okx: unreadable liquidation: ${excerpt(detail)}`);
    }
  }
  return out;
}
