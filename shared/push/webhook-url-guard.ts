/**
 * Where a webhook may point. https only (http too with WEBHOOK_ALLOW_PRIVATE), no credentials in
 * the URL, and only to a public unicast address: ipaddr.js classifies each address against the IANA
 * special-purpose ranges (v4 and v6), and every one of those is refused. An IPv6 address that
 * carries an IPv4 one by a translation meant for real traffic (IPv4-mapped ::ffff:0:0/96, the NAT64
 * well-known prefix 64:ff9b::/96, which DNS64 hands an IPv6-only pod for every IPv4-only host) is
 * judged by the IPv4 address it carries; the other embeddings (IPv4-compatible ::/96, 6to4
 * 2002::/16, Teredo 2001::/32, local NAT64 64:ff9b:1::/48, IPv4-translated) are refused whatever
 * they carry. Names are checked after DNS resolution, when the hook is added and again at every
 * connection (the delivery connects through guardedLookup, so a name that resolves elsewhere later
 * is refused before a byte is sent). WEBHOOK_ALLOW_PRIVATE lets loopback, private (RFC 1918, CGNAT)
 * and unique-local addresses through for tests and the demo; nothing else special, and no cloud
 * metadata address, ever.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Resolves a name to every address it has. */
export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;

export interface UrlPolicy {
  allowPrivate: boolean;
  /** DNS resolution; the system resolver unless a test injects one. */
  resolve?: ResolveAll;
}

/** A URL or address the policy refuses; the message says why. */
export class UrlRefused extends Error {}

/** The ipaddr.js ranges WEBHOOK_ALLOW_PRIVATE admits. */
const PRIVATE_RANGES = new Set(['loopback', 'private', 'carrierGradeNat', 'uniqueLocal']);

/** Cloud metadata services that live at ordinary-looking addresses (Alibaba's in CGNAT space, AWS's IPv6 one in fd00::/8). */
const METADATA = new Set(['100.100.100.200', 'fd00:ec2::254']);

const cidr = (text: string): [ipaddr.IPv6, number] => ipaddr.IPv6.parseCIDR(text);
const NAT64_WELL_KNOWN = cidr('64:ff9b::/96');
/**
 * IANA special-purpose IPv6 ranges ipaddr.js 2.5.0 does not name: IPv4-compatible (RFC 4291, deprecated) and the dummy prefix (RFC 9780).
 */
const UNNAMED_V6: Record<string, [ipaddr.IPv6, number]> = { ipv4Compatible: cidr('::/96'), dummyPrefix: cidr('100:0:0:1::/64') };

type AddressClass = { kind: 'public' } | { kind: 'private' } | { kind: 'special'; range: string };

function classifyV4(address: ipaddr.IPv4): AddressClass {
  if (METADATA.has(address.toString())) return { kind: 'special', range: 'cloud metadata' };
  const range = address.range();
  if (range === 'unicast') return { kind: 'public' };
  return PRIVATE_RANGES.has(range) ? { kind: 'private' } : { kind: 'special', range };
}

function classifyV6(address: ipaddr.IPv6): AddressClass {
  if (METADATA.has(address.toString())) return { kind: 'special', range: 'cloud metadata' };
  const range = address.range();
  if (range === 'ipv4Mapped') return classifyV4(address.toIPv4Address());
  if (range === 'rfc6052' && address.match(NAT64_WELL_KNOWN)) return classifyV4(new ipaddr.IPv4(address.toByteArray().slice(12)));
  if (range === 'unicast') {
    const unnamed = ipaddr.subnetMatch(address, UNNAMED_V6, 'unicast');
    return unnamed === 'unicast' ? { kind: 'public' } : { kind: 'special', range: unnamed };
  }
  return PRIVATE_RANGES.has(range) ? { kind: 'private' } : { kind: 'special', range };
}

/**
 * An IPv6 literal in the WHATWG URL parser's canonical form: ipaddr.js reads '::127.0.0.1'
 * (IPv4-compatible) as '::ffff:127.0.0.1', so its text goes through the URL parser first.
 */
function parseV6(address: string): ipaddr.IPv6 | null {
  try {
    return ipaddr.IPv6.parse(new URL(`http://[${address}]/`).hostname.slice(1, -1));
  } catch {
    return null;
  }
}

/** Why an address is refused, or null when a webhook may connect to it. */
export function addressRefusal(address: string, allowPrivate: boolean): string | null {
  const family = isIP(address);
  const v6 = family === 6 ? parseV6(address) : null;
  if (family === 0 || (family === 6 && v6 === null)) return `${address} is not an IP address`;
  const found = v6 ? classifyV6(v6) : classifyV4(ipaddr.IPv4.parse(address));
  if (found.kind === 'special') return `${address} is a special-purpose address (${found.range})`;
  if (found.kind === 'private' && !allowPrivate) return `${address} is a loopback or private address`;
  return null;
}

/** The hostname as the resolver and net want it: IPv6 literals without brackets. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Checks what can be checked without DNS: length, scheme, credentials, and an IP-literal host. */
export function checkUrlShape(raw: string, allowPrivate: boolean): URL {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) throw new UrlRefused(`the URL is longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefused('not an absolute URL');
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) throw new UrlRefused(allowPrivate ? 'the URL must be http or https' : 'the URL must be https');
  if (url.username !== '' || url.password !== '') throw new UrlRefused('the URL must not carry credentials');
  const host = bareHost(url);
  if (host === '') throw new UrlRefused('the URL has no host');
  if (isIP(host) !== 0) {
    const refusal = addressRefusal(host, allowPrivate);
    if (refusal !== null) throw new UrlRefused(refusal);
  }
  return url;
}

const systemResolve: ResolveAll = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

/** Every address of a name, each one allowed; a name that does not resolve is refused too. */
export async function resolveAllowed(hostname: string, policy: UrlPolicy): Promise<LookupAddress[]> {
  if (isIP(hostname) !== 0) {
    const refusal = addressRefusal(hostname, policy.allowPrivate);
    if (refusal !== null) throw new UrlRefused(refusal);
    return [{ address: hostname, family: isIP(hostname) }];
  }
  let addresses: LookupAddress[];
  try {
    addresses = await (policy.resolve ?? systemResolve)(hostname);
  } catch {
    throw new UrlRefused(`${hostname} does not resolve`);
  }
  if (addresses.length === 0) throw new UrlRefused(`${hostname} does not resolve`);
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, policy.allowPrivate);
    if (refusal !== null) throw new UrlRefused(`${hostname} resolves to ${refusal}`);
  }
  return addresses;
}

/** The whole check of a webhook URL: its shape, then every address its host resolves to. */
export async function checkWebhookUrl(raw: string, policy: UrlPolicy): Promise<URL> {
  const url = checkUrlShape(raw, policy.allowPrivate);
  await resolveAllowed(bareHost(url), policy);
  return url;
}

/**
 * A lookup for net/tls connect that resolves and refuses forbidden addresses: the connection goes
 * to exactly the addresses that were checked, so DNS cannot answer differently in between.
 */
export function guardedLookup(policy: UrlPolicy): LookupFunction {
  return (
    hostname: string,
    options: LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    resolveAllowed(hostname, policy).then(
      (addresses) => {
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const wanted = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
        if (wanted.length === 0)
          return callback(Object.assign(new Error(`${hostname} has no IPv${String(family)} address`), { code: 'ENOTFOUND' }), '');
        if (options.all) return callback(null, wanted);
        return callback(null, wanted[0].address, wanted[0].family);
      },
      (error: Error) => callback(Object.assign(error, { code: 'EACCES' }), ''),
    );
  };
}
