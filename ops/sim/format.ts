/** Number formatting shared by the venue formatters (the real APIs send most numbers as strings). */

/**
 * Fixed decimals like the exchanges print them. A value that is not on that grid (a price set
 * exactly through the control plane) keeps its full precision so tests can compare it exactly.
 */
export function fmt(value: number, dp: number): string {
  const s = fixed(value, dp);
  if (Math.abs(Number(s) - value) <= Math.abs(value) * 1e-12) return s;
  const plain = String(value);
  return /e/i.test(plain) ? value.toFixed(12).replace(/0+$/, '').replace(/\.$/, '') : plain;
}

/** Round to a grid step (tick or lot size). */
export function roundTo(value: number, step: number): number {
  const dp = Math.max(0, Math.round(-Math.log10(step)));
  return Number((Math.round(value / step) * step).toFixed(dp));
}

/** Trailing zeros removed, as OKX and Bitget often print volumes. */
export function trim(value: number, dp: number): string {
  const s = fixed(value, dp);
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** Plain fixed decimals for derived values (volumes, averages, differences). */
export function fixed(value: number, dp: number): string {
  const s = value.toFixed(dp);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}
