import { expect } from 'chai';
import fc from 'fast-check';
import type { LookupAddress } from 'node:dns';
import { addressRefusal, checkUrlShape, checkWebhookUrl, guardedLookup, UrlRefused } from '../../shared/push/webhook-url-guard.js';

const hex = (a: number, b: number): string => ((a << 8) | b).toString(16);
type V4 = [number, number, number, number];
const dotted = (v4: V4): string => v4.join('.');

/** Every IPv6 form that can carry an IPv4 address. */
const EMBEDDINGS: Record<string, (v4: V4) => string> = {
  mapped: (v) => `::ffff:${dotted(v)}`,
  mappedHex: (v) => `::ffff:${hex(v[0], v[1])}:${hex(v[2], v[3])}`,
  compatible: (v) => `::${dotted(v)}`,
  translated: (v) => `::ffff:0:${dotted(v)}`,
  nat64: (v) => `64:ff9b::${dotted(v)}`,
  nat64Local: (v) => `64:ff9b:1::${hex(v[0], v[1])}:${hex(v[2], v[3])}`,
  sixToFour: (v) => `2002:${hex(v[0], v[1])}:${hex(v[2], v[3])}::1`,
  teredoServer: (v) => `2001:0:${hex(v[0], v[1])}:${hex(v[2], v[3])}::1`,
  teredoClient: (v) => `2001:0:4136:e378:8000:63bf:${hex(v[0] ^ 0xff, v[1] ^ 0xff)}:${hex(v[2] ^ 0xff, v[3] ^ 0xff)}`,
};

const byte = fc.integer({ min: 0, max: 255 });
/** Loopback, RFC 1918, CGNAT, link-local and this-network IPv4 addresses. */
const insideV4: fc.Arbitrary<V4> = fc.oneof(
  fc.tuple(fc.constant(127), byte, byte, byte),
  fc.tuple(fc.constant(10), byte, byte, byte),
  fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), byte, byte),
  fc.tuple(fc.constant(192), fc.constant(168), byte, byte),
  fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), byte, byte),
  fc.tuple(fc.constant(169), fc.constant(254), byte, byte),
  fc.tuple(fc.constant(0), byte, byte, byte),
);
/** Addresses in /8s with no special-purpose range inside (1-9, 11-99, 128-168). */
const publicV4: fc.Arbitrary<V4> = fc.tuple(
  fc.oneof(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 11, max: 99 }), fc.integer({ min: 128, max: 168 })),
  byte,
  byte,
  byte,
);
/** Global unicast IPv6 from the registries' allocations (2400::/6 through 2dff::/16 hold no special range). */
const publicV6 = fc
  .tuple(fc.integer({ min: 0x2400, max: 0x2dff }), fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 7, maxLength: 7 }))
  .map(([head, rest]) => [head, ...rest].map((group) => group.toString(16)).join(':'));

describe('webhook URL guard', () => {
  // [address, refused without WEBHOOK_ALLOW_PRIVATE, refused with it]
  const table: [string, boolean, boolean][] = [
    // public
    ['8.8.8.8', false, false],
    ['1.1.1.1', false, false],
    ['172.32.0.1', false, false],
    ['2606:4700:4700::1111', false, false],
    ['::ffff:8.8.8.8', false, false],
    ['64:ff9b::808:808', false, false],
    // loopback, private, shared (CGNAT), unique-local: WEBHOOK_ALLOW_PRIVATE admits them
    ['127.0.0.1', true, false],
    ['10.1.2.3', true, false],
    ['172.31.255.255', true, false],
    ['192.168.0.1', true, false],
    ['100.64.1.1', true, false],
    ['::1', true, false],
    ['fc00::1', true, false],
    ['fd12:3456::1', true, false],
    ['::ffff:10.0.0.1', true, false],
    ['::ffff:7f00:1', true, false],
    ['64:ff9b::a00:1', true, false],
    ['64:ff9b::127.0.0.1', true, false],
    // every other special-purpose range, and cloud metadata, whatever the setting
    ['0.0.0.0', true, true],
    ['169.254.169.254', true, true],
    ['169.254.0.1', true, true],
    ['100.100.100.200', true, true],
    ['192.0.0.8', true, true],
    ['192.0.2.1', true, true],
    ['198.18.0.1', true, true],
    ['198.51.100.7', true, true],
    ['203.0.113.9', true, true],
    ['192.88.99.1', true, true],
    ['192.31.196.1', true, true],
    ['192.52.193.1', true, true],
    ['192.175.48.1', true, true],
    ['224.0.0.1', true, true],
    ['240.0.0.1', true, true],
    ['255.255.255.255', true, true],
    ['::', true, true],
    ['fe80::1', true, true],
    ['fec0::1', true, true],
    ['ff02::1', true, true],
    ['fd00:ec2::254', true, true],
    ['::ffff:169.254.169.254', true, true],
    ['64:ff9b::a9fe:a9fe', true, true],
    ['::127.0.0.1', true, true],
    ['::8.8.8.8', true, true],
    ['::ffff:0:8.8.8.8', true, true],
    ['2002:7f00:1::1', true, true],
    ['2002:808:808::1', true, true],
    ['2001::1', true, true],
    ['2001:db8::1', true, true],
    ['2001:2::1', true, true],
    ['2001:10::1', true, true],
    ['2001:20::1', true, true],
    ['2620:4f:8000::1', true, true],
    ['64:ff9b:1::808:808', true, true],
    ['100::1', true, true],
    ['100:0:0:1::1', true, true],
    ['3fff::1', true, true],
    ['5f00::1', true, true],
    ['not-an-address', true, true],
  ];
  for (const [address, strict, lenient] of table) {
    it(`${address}: ${strict ? 'refused' : 'allowed'}, with WEBHOOK_ALLOW_PRIVATE ${lenient ? 'refused' : 'allowed'}`, () => {
      expect(addressRefusal(address, false) !== null, 'strict').to.equal(strict);
      expect(addressRefusal(address, true) !== null, 'lenient').to.equal(lenient);
    });
  }

  it('refuses an inside IPv4 address in every IPv6 form that can carry one', () => {
    fc.assert(
      fc.property(insideV4, fc.constantFrom(...Object.keys(EMBEDDINGS)), (v4, form) => {
        const address = EMBEDDINGS[form](v4);
        expect(addressRefusal(dotted(v4), false), dotted(v4)).to.be.a('string');
        expect(addressRefusal(address, false), address).to.be.a('string');
      }),
      { numRuns: 2_000 },
    );
  });

  it('accepts public addresses, bare, IPv4-mapped and through the NAT64 well-known prefix', () => {
    fc.assert(
      fc.property(publicV4, publicV6, (v4, v6) => {
        for (const address of [dotted(v4), EMBEDDINGS.mapped(v4), EMBEDDINGS.mappedHex(v4), EMBEDDINGS.nat64(v4), v6]) {
          expect(addressRefusal(address, false), address).to.equal(null);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('wants https (http only when private addresses are allowed), no credentials, a bounded length', () => {
    expect(checkUrlShape('https://example.org/hook?x=1', false).hostname).to.equal('example.org');
    expect(() => checkUrlShape('http://example.org/', false)).to.throw(UrlRefused, 'https');
    expect(checkUrlShape('http://example.org/', true).protocol).to.equal('http:');
    expect(() => checkUrlShape('https://a:b@example.org/', false)).to.throw(UrlRefused, 'credentials');
    expect(() => checkUrlShape('file:///etc/passwd', true)).to.throw(UrlRefused);
    expect(() => checkUrlShape(`https://example.org/${'a'.repeat(2048)}`, false)).to.throw(UrlRefused, 'longer');
    expect(() => checkUrlShape('https://0x7f000001/', false)).to.throw(UrlRefused, 'loopback');
    expect(() => checkUrlShape('https://[::127.0.0.1]/', true)).to.throw(UrlRefused, 'special-purpose');
    expect(() => checkUrlShape('https://[2002:7f00:1::1]/', true)).to.throw(UrlRefused, 'special-purpose');
  });

  it('checks every address a name resolves to', async () => {
    const resolve = async (name: string): Promise<LookupAddress[]> =>
      name === 'mixed.test'
        ? [
            { address: '93.184.216.34', family: 4 },
            { address: '10.0.0.1', family: 4 },
          ]
        : [{ address: '93.184.216.34', family: 4 }];
    expect((await checkWebhookUrl('https://public.test/x', { allowPrivate: false, resolve })).hostname).to.equal('public.test');
    let refused: unknown;
    await checkWebhookUrl('https://mixed.test/x', { allowPrivate: false, resolve }).catch((error: unknown) => (refused = error));
    expect(refused).to.be.instanceOf(UrlRefused);
  });

  it('resolves for net.connect only to checked addresses, answering in the form asked for', async () => {
    const lookup = guardedLookup({
      allowPrivate: false,
      resolve: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1::1', family: 6 },
      ],
    });
    const ask = (options: { all?: boolean; family?: number }) =>
      new Promise<unknown[]>((resolve) => lookup('public.test', options, (error, address, family) => resolve([error, address, family])));
    expect(await ask({ all: true })).to.deep.equal([
      null,
      [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1::1', family: 6 },
      ],
      undefined,
    ]);
    expect(await ask({ family: 6 })).to.deep.equal([null, '2606:2800:220:1::1', 6]);
    const blocked = guardedLookup({ allowPrivate: false, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    const [error] = await new Promise<unknown[]>((resolve) => blocked('rebind.test', {}, (e, a) => resolve([e, a])));
    expect(error).to.be.instanceOf(UrlRefused);
    const embedded = guardedLookup({ allowPrivate: false, resolve: async () => [{ address: '2002:7f00:1::1', family: 6 }] });
    const [refusal] = await new Promise<unknown[]>((resolve) => embedded('sixtofour.test', {}, (e, a) => resolve([e, a])));
    expect(refusal).to.be.instanceOf(UrlRefused);
  });
});
