/** TRUST_PROXY: which proxies' X-Forwarded-For may name the client (docs/guide/08-operating.md, Configuration; docs/SECURITY.md). */
import { isIP } from 'node:net';
import { ConfigError } from './config-error.js';

/**
 * Express `trust proxy`: the addresses or ranges of the proxies in front of the API, whose X-Forwarded-For names the
 * client; false: none, the socket's peer is the client. Never a hop count or `true`: with no proxy adding the header,
 * a client's own X-Forwarded-For would become its address (and a fresh budget per request).
 */
export type TrustProxy = false | string[];

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, a range (address/prefix) or one of proxy-addr's named ranges. */
function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

export function parseTrustProxy(raw: string): TrustProxy {
  const value = raw.trim();
  if (value === 'false' || value === '') return false;
  if (value === 'true' || /^\d+$/.test(value))
    throw new ConfigError(
      `TRUST_PROXY: "${value}" trusts any hop; name the proxies' addresses or ranges (a client's own X-Forwarded-For would name it)`,
    );
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = list.find((entry) => !isAddressOrRange(entry));
  if (bad !== undefined) throw new ConfigError(`TRUST_PROXY: "${bad}" is not an address, a range (address/prefix) or loopback`);
  return list;
}
