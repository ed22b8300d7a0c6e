/**
 * The eight majors, defined once: /api/v1/prices quotes them, the long/short ratio covers them, the
 * slippage table gives them its tightest rate, and the feed keeps their order-book depth. Pure.
 */
export const MAJOR_PAIRS: readonly string[] = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'DOGEUSDT', 'ADAUSDT', 'AVAXUSDT'];

const MAJORS: ReadonlySet<string> = new Set(MAJOR_PAIRS);

/** `symbol` canonical (BTCUSDT). */
export function isMajor(symbol: string): boolean {
  return MAJORS.has(symbol);
}
