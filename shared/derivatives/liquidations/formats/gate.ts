/**
 * Gate futures v4 `futures.public_liquidates` (payload `["!all"]` on the USDT-settled endpoint). The
 * sign of `size` is the liquidation ORDER's direction: negative = a forced sell, a long liquidated
 * (tardis maps it the same way). `size` counts contracts of `quanto_multiplier` base coin
 * (/api/v4/futures/usdt/contracts); a `_USD` contract (BTC-settled) is 1 USD each. At most one
 * liquidation per contract per second is pushed.
 */
import { excerpt, isRecord, toEpochMs, toNumber, toStr } from '../../../market/parse-utils.js';
import { emptyLiquidationFrame, liquidation, pairOfBase, type LiquidationFrame } from '../liquidation-event.js';

export const GATE_LIQUIDATION_CHANNEL = 'futures.public_liquidates';

export type GateMultipliers = ReadonlyMap<string, number>;

/** GET /api/v4/futures/usdt/contracts -> contract name -> base coin per contract. */
export function parseGateMultipliers(body: unknown): Map<string, number> {
  const out = new Map<string, number>();
  if (!Array.isArray(body)) return out;
  for (const row of body) {
    if (!isRecord(row)) continue;
    const name = toStr(row.name);
    const multiplier = toNumber(row.quanto_multiplier);
    if (name && multiplier !== undefined && multiplier > 0) out.set(name, multiplier);
  }
  return out;
}

export function gateSubscribeLiquidations(nowSeconds: number): string {
  return JSON.stringify({ time: nowSeconds, channel: GATE_LIQUIDATION_CHANNEL, event: 'subscribe', payload: ['!all'] });
}

export function parseGateLiquidations(msg: unknown, multipliers: GateMultipliers): LiquidationFrame {
  const out = emptyLiquidationFrame();
  if (!isRecord(msg) || msg.channel !== GATE_LIQUIDATION_CHANNEL || msg.event !== 'update') return out;
  const rows = Array.isArray(msg.result) ? msg.result : [msg.result];
  for (const row of rows) {
    if (!isRecord(row)) continue;
    const contract = toStr(row.contract);
    const size = toNumber(row.size);
    const price = toNumber(row.price);
    const ts = toEpochMs(row.time_ms ?? row.time);
    const [base, quote] = contract ? contract.split('_') : [];
    const symbol = base ? pairOfBase(base) : undefined;
    if (!contract || !symbol || size === undefined || size === 0 || price === undefined || ts === undefined) {
      out.issues.push(`gate: unreadable liquidation: ${excerpt(row)}`);
      continue;
    }
    const side = size < 0 ? 'long_liquidated' : 'short_liquidated';
    const id = `gate|${contract}|${String(row.time_ms ?? row.time)}|${String(row.size)}|${String(row.price)}`;
    const fields = { ts, exchange: 'gate' as const, symbol, side, price } as const;
    let event;
    if (quote === 'USD') event = liquidation(id, { ...fields, usd: Math.abs(size) });
    else {
      const multiplier = multipliers.get(contract);
      if (multiplier === undefined) {
        out.issues.push(`gate: no quanto_multiplier for ${contract}`);
        continue;
      }
      event = liquidation(id, { ...fields, qty: Math.abs(size) * multiplier });
    }
    if (event) out.events.push(event);
    else out.issues.push(`gate: unreadable liquidation: ${excerpt(row)}`);
  }
  return out;
}
