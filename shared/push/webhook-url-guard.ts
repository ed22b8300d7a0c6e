/**
 * Where a webhook may point. https only (http too with WEBHOOK_ALLOW_PRIVATE), no credentials in
 * the URL, and never to an address inside: loopback, private, shared, documentation, link-local,
 * multicast or a cloud metadata address. Names are checked after DNS resolution, when the hook is
 * added and again at every connection (the delivery connects through guardedLookup, so a name
 * that resolves elsewhere later is refused before a byte is sent). WEBHOOK_ALLOW_PRIVATE lets
 * loopback and private addresses through for tests and the demo; link-local and metadata never.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

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

function blockList(v4: [string, number][], v6: [string, number][]): BlockList {
  const list = new BlockList();
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, 'ipv6');
  return list;
}

/** Refused whatever the policy: this network, link-local (cloud metadata lives there), multicast, reserved, metadata hosts. */
const NEVER = blockList(
  [['0.0.0.0', 8], ['169.254.0.0', 16], ['224.0.0.0', 4], ['240.0.0.0', 4], ['100.100.100.200', 32]],
  [['::', 128], ['fe80::', 10], ['ff00::', 8], ['fd00:ec2::254', 128]],
);

/** Refused unless WEBHOOK_ALLOW_PRIVATE: loopback, private, shared (CGNAT), benchmarking and documentation ranges. */
const INSIDE = blockList(
  [
    ['127.0.0.0', 8], ['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['100.64.0.0', 10],
    ['192.0.0.0', 24], ['192.0.2.0', 24], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ],
  [['::1', 128], ['fc00::', 7], ['2001:db8::', 32]],
);

/** The 16 bytes of an IPv6 address. */
function ipv6Bytes(address: string): number[] {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const groups = (part: string | undefined): string[] => (part ? part.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}

/** The IPv4 address an IPv6 one carries (mapped ::ffff:a.b.c.d, or NAT64 64:ff9b::a.b.c.d), else null. */
function embeddedIpv4(address: string): string | null {
  const bytes = ipv6Bytes(address);
  const zeros = (from: number, to: number): boolean => bytes.slice(from, to).every((b) => b === 0);
  const mapped = zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff;
  const nat64 = bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12);
  return mapped || nat64 ? bytes.slice(12).join('.') : null;
}

/** Why an address is refused, or null when a webhook may connect to it. */
export function addressRefusal(address: string, allowPrivate: boolean): string | null {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4 !== null) return addressRefusal(v4, allowPrivate);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (NEVER.check(address, type)) return `${address} is a link-local, metadata or reserved address`;
  if (!allowPrivate && INSIDE.check(address, type)) return `${address} is a loopback or private address`;
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
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

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
  return (hostname: string, options: LookupOptions, callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    resolveAllowed(hostname, policy).then(
      (addresses) => {
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const wanted = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
        if (wanted.length === 0) return callback(Object.assign(new Error(`${hostname} has no IPv${String(family)} address`), { code: 'ENOTFOUND' }), '');
        if (options.all) return callback(null, wanted);
        return callback(null, wanted[0].address, wanted[0].family);
      },
      (error: Error) => callback(Object.assign(error, { code: 'EACCES' }), ''),
    );
  };
}
