/**
 * BitMEX `liquidation` table: a liquidation order is `insert`ed (or listed in the `partial` sent on
 * subscribe) while it rests, `update`d and `delete`d when done. `side` is the ORDER's side (Buy closes
 * a short). Rows carry no timestamp: the first time an orderID is seen is its time. Contracts are
 * sized from /api/v1/instrument/active: inverse (XBTUSD) |multiplier|/1e8 USD each, linear
 * (XBTUSDT) 1/underlyingToPositionMultiplier base coin each, quanto (ETHUSD) multiplier x price
 * satoshi each, valued at the XBT price.
 */
import { excerpt, isRecord, toNumber, toStr } from '../../../market/parse-utils.js';
import { emptyLiquidationFrame, liquidation, pairOfBase, sideFromOrder, type LiquidationFrame } from '../liquidation-event.js';

export const BITMEX_LIQUIDATION_TABLE = 'liquidation';

export interface BitmexInstrument {
  /** The coin (XBT, ETH). */
  underlying: string;
  kind: 'inverse' | 'linear' | 'quanto';
  multiplier: number;
  underlyingToPositionMultiplier: number;
}

export interface BitmexInstruments {
  bySymbol: ReadonlyMap<string, BitmexInstrument>;
  /** XBT in USD, for quanto contracts (settled in XBT). */
  xbtUsd: number | undefined;
}

/** GET /api/v1/instrument/active -> the sizing of each contract. */
export function parseBitmexInstruments(body: unknown): BitmexInstruments {
  const bySymbol = new Map<string, BitmexInstrument>();
  let xbtUsd: number | undefined;
  if (!Array.isArray(body)) return { bySymbol, xbtUsd };
  for (const row of body) {
    if (!isRecord(row)) continue;
    const symbol = toStr(row.symbol);
    const underlying = toStr(row.underlying);
    const multiplier = toNumber(row.multiplier);
    if (!symbol || !underlying || multiplier === undefined) continue;
    const kind = row.isInverse === true ? 'inverse' : row.isQuanto === true ? 'quanto' : 'linear';
    const positionMultiplier = toNumber(row.underlyingToPositionMultiplier) ?? 1;
    bySymbol.set(symbol, { underlying, kind, multiplier, underlyingToPositionMultiplier: positionMultiplier > 0 ? positionMultiplier : 1 });
    if (symbol === 'XBTUSD') xbtUsd = toNumber(row.markPrice) ?? toNumber(row.lastPrice);
  }
  return { bySymbol, xbtUsd };
}

/** Remembers when each orderID was first seen, so a replayed row keeps its first time (kept one hour). */
export class BitmexOrderTimes {
  private readonly first = new Map<string, number>();

  constructor(private readonly keepMs = 3_600_000) {}

  seen(orderId: string, now: number): number {
    const known = this.first.get(orderId);
    if (known !== undefined) return known;
    if (this.first.size >= 50_000) this.prune(now);
    this.first.set(orderId, now);
    return now;
  }

  private prune(now: number): void {
    for (const [id, ts] of this.first) if (now - ts > this.keepMs) this.first.delete(id);
    // still full of recent ids: keep the newest half
    if (this.first.size >= 50_000) [...this.first.keys()].slice(0, 25_000).forEach((id) => this.first.delete(id));
  }
}

/** Fallback for contracts missing from the instrument list: XBTUSD-like inverse perpetuals are 1 USD each. */
function fallback(symbol: string): BitmexInstrument | undefined {
  const m = /^([A-Z0-9]+?)USD$/.exec(symbol);
  return m && m[1] === 'XBT'
    ? { underlying: 'XBT', kind: 'inverse', multiplier: -100_000_000, underlyingToPositionMultiplier: 1 }
    : undefined;
}

export function parseBitmexLiquidations(
  msg: unknown,
  instruments: BitmexInstruments,
  times: BitmexOrderTimes,
  now: number,
): LiquidationFrame {
  const out = emptyLiquidationFrame();
  if (!isRecord(msg) || msg.table !== BITMEX_LIQUIDATION_TABLE || !Array.isArray(msg.data)) return out;
  if (msg.action !== 'insert' && msg.action !== 'partial') return out;
  for (const row of msg.data) {
    if (!isRecord(row)) continue;
    const orderId = toStr(row.orderID);
    const name = toStr(row.symbol);
    const side = sideFromOrder(toStr(row.side) ?? '');
    const contracts = toNumber(row.leavesQty);
    const price = toNumber(row.price);
    const spec = name ? (instruments.bySymbol.get(name) ?? fallback(name)) : undefined;
    const symbol = spec ? pairOfBase(spec.underlying) : undefined;
    if (!orderId || !name || !spec || !symbol || !side || contracts === undefined || price === undefined) {
      out.issues.push(`bitmex: unreadable liquidation: ${excerpt(row)}`);
      continue;
    }
    const ts = times.seen(orderId, now);
    const fields = { ts, exchange: 'bitmex' as const, symbol, side, price };
    let event;
    if (spec.kind === 'inverse')
      event = liquidation(`bitmex|${orderId}`, { ...fields, usd: (contracts * Math.abs(spec.multiplier)) / 1e8 });
    else if (spec.kind === 'linear')
      event = liquidation(`bitmex|${orderId}`, { ...fields, qty: contracts / spec.underlyingToPositionMultiplier });
    else if (instruments.xbtUsd !== undefined) {
      event = liquidation(`bitmex|${orderId}`, { ...fields, usd: (contracts * spec.multiplier * price * instruments.xbtUsd) / 1e8 });
    }
    if (event) out.events.push(event);
    else out.issues.push(`bitmex: cannot size ${name}: ${excerpt(row)}`);
  }
  return out;
}
