/** Symbol naming: every venue's spelling maps to one canonical USDT-perpetual name, e.g. BTCUSDT. */

const QUOTE = 'USDT';
/** A base coin: letters and digits (1000PEPE, 1INCH), at least one letter, at most 20 characters. */
const BASE = /^(?=[A-Z0-9]*[A-Z])[A-Z0-9]{1,20}$/;

/**
 * The canonical symbol for what a user or a venue wrote: BTC, btc, BTCUSDT, BTC-USDT, BTC/USDT,
 * BTC_USDT, BTC-USDT-SWAP -> BTCUSDT. Anything else (empty, other quote currencies, punctuation,
 * a bare USDT) is null.
 */
export function canonicalSymbol(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const text = input.trim().toUpperCase();
  if (text.length === 0 || text.length > 40) return null;
  const paired = /^([A-Z0-9]+)[-/_]USDT(?:-SWAP)?$/.exec(text);
  if (paired) return BASE.test(paired[1]) ? `${paired[1]}${QUOTE}` : null;
  if (text.endsWith(QUOTE) && text.length > QUOTE.length) {
    const base = text.slice(0, -QUOTE.length);
    return BASE.test(base) ? text : null;
  }
  if (text === QUOTE) return null;
  return BASE.test(text) ? `${text}${QUOTE}` : null;
}

/** The base coin of a canonical symbol (BTCUSDT -> BTC). */
export function baseOf(symbol: string): string {
  return symbol.endsWith(QUOTE) ? symbol.slice(0, -QUOTE.length) : symbol;
}
