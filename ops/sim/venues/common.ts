/** Small helpers shared by the venue modules. */
import { DAY } from '../market-time.js';

/** Quarterly futures expire on the last Friday of Mar/Jun/Sep/Dec at 08:00 UTC. */
export function quarterExpiry(now: number): number {
  const d = new Date(now);
  let year = d.getUTCFullYear();
  let month = Math.floor(d.getUTCMonth() / 3) * 3 + 2;
  for (;;) {
    const lastDay = new Date(Date.UTC(year, month + 1, 0));
    const back = (lastDay.getUTCDay() - 5 + 7) % 7;
    const t = Date.UTC(year, month, lastDay.getUTCDate() - back, 8);
    if (t > now + DAY) return t;
    month += 3;
    if (month > 11) {
      month -= 12;
      year++;
    }
  }
}

/** YYMMDD as used in dated contract names (BTCUSDT_250627). */
export function yymmdd(t: number): string {
  return new Date(t).toISOString().slice(2, 10).replace(/-/g, '');
}

/** Clamps a requested limit into [1, max], defaulting when absent or invalid. */
export function clampLimit(raw: number | undefined | null, def: number, max: number): number {
  if (raw === undefined || raw === null || raw < 1) return def;
  return Math.min(raw, max);
}

/** deliveryDate Binance reports for perpetuals. */
export const PERPETUAL_DELIVERY = 4133404800000;
