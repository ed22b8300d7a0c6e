/**
 * The client a per-address budget counts: an IPv4 address as it is; an IPv6 address by its /64. A subscriber gets a
 * /64 (or more) and its host picks any of those 2^64 addresses at will (privacy addresses rotate on their own), so a
 * budget per IPv6 address would be one per request for whoever wants it.
 */
import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

const MAPPED_V4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** The budget bucket of a client address (`req.ip`): `a.b.c.d`, `xxxx:xxxx:xxxx:xxxx::/64`, or `unknown`. */
export function clientBucket(ip: string | undefined): string {
  if (ip === undefined || ip === '') return 'unknown';
  const mapped = MAPPED_V4.exec(ip);
  if (mapped) return mapped[1]!;
  const bare = ip.split('%')[0]!;
  if (isIPv4(ip) || !isIPv6(bare)) return ip;
  const prefix = ipaddr.IPv6.parse(bare)
    .parts.slice(0, 4)
    .map((group) => group.toString(16));
  return `${prefix.join(':')}::/64`;
}
