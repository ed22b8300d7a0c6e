/** Small total readers for untyped JSON from exchanges: they never throw, they answer undefined. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A finite number from a JSON number or a numeric string ("0.0015", "1.2e-5"); "" and junk are undefined. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** A price must be a positive finite number. */
export function toPrice(value: unknown): number | undefined {
  const n = toNumber(value);
  return n !== undefined && n > 0 ? n : undefined;
}

/**
 * Epoch milliseconds from a number or a string, in ms or s: values below 1e11 (year 5138 in s,
 * 1973 in ms) are taken as seconds.
 */
export function toEpochMs(value: unknown): number | undefined {
  const n = toNumber(value);
  if (n === undefined || n <= 0) return undefined;
  return Math.round(n < 1e11 ? n * 1000 : n);
}

export function toStr(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** JSON.parse that answers undefined instead of throwing. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The object a stored JSON text holds; undefined for no text, bad JSON or anything but an object. */
export function parseJsonRecord(text: string | null | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined;
  const value = parseJsonText(text);
  return isRecord(value) ? value : undefined;
}

/** A short, loggable excerpt of a bad frame. */
export function excerpt(value: unknown, max = 200): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** Unwraps the { code, msg, data: [...] } REST envelope of OKX and Bitget; any other code throws with the message. */
export function unwrapCodeData(venue: string, body: unknown, successCode: string): unknown[] {
  if (!isRecord(body) || body.code !== successCode || !Array.isArray(body.data)) {
    const msg = isRecord(body) ? `${String(body.code)} ${String(body.msg)}` : excerpt(body);
    throw new Error(`${venue}: ${msg}`);
  }
  return body.data;
}

/**
 * The channel argument of an OKX-style WebSocket frame ({ event } acks and errors, { arg, data } pushes),
 * or undefined when the frame carries no data; problems go to `issues`.
 */
export function frameArg(venue: string, msg: unknown, issues: string[]): Record<string, unknown> | undefined {
  if (!isRecord(msg)) {
    issues.push(`${venue}: not an object: ${excerpt(msg)}`);
    return undefined;
  }
  if (typeof msg.event === 'string') {
    if (msg.event === 'error') issues.push(`${venue}: ${String(msg.code)} ${excerpt(msg.msg)}`);
    return undefined;
  }
  if (!isRecord(msg.arg)) {
    issues.push(`${venue}: frame without arg: ${excerpt(msg)}`);
    return undefined;
  }
  return msg.arg;
}
