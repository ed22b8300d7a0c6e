import { expect } from 'chai';
import fc from 'fast-check';
import { BlockList } from 'node:net';
import { clientBucket } from '../../shared/rate-limit/client-bucket.js';

/** Whether `ip` lies in the /64 that `bucket` names (Node's own address parser as the judge). */
function inBucket(bucket: string, ip: string): boolean {
  const list = new BlockList();
  list.addSubnet(bucket.slice(0, -'/64'.length), 64, 'ipv6');
  return list.check(ip, 'ipv6');
}

/** An address of the /64 `bucket` names with one bit of those 64 flipped: another subscriber's. */
function otherPrefix(bucket: string, bit: number): string {
  const words = bucket.slice(0, -'::/64'.length).split(':');
  const group = Math.floor(bit / 16);
  words[group] = (parseInt(words[group]!, 16) ^ (1 << (15 - (bit % 16)))).toString(16);
  return `${words.join(':')}::1`;
}

describe('clientBucket: the client a per-address budget counts', () => {
  it('keeps an IPv4 address as it is, also when it comes IPv4-mapped', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        expect(clientBucket(ip)).to.equal(ip);
        expect(clientBucket(`::ffff:${ip}`)).to.equal(ip);
      }),
    );
  });

  it('puts every IPv6 address in its own /64, and none in another', () => {
    fc.assert(
      fc.property(fc.ipV6(), fc.integer({ min: 0, max: 63 }), (ip, bit) => {
        const bucket = clientBucket(ip);
        if (/^::ffff:\d/i.test(ip)) return;
        expect(bucket).to.match(/^[0-9a-f]{1,4}(:[0-9a-f]{1,4}){3}::\/64$/);
        expect(inBucket(bucket, ip), `${ip} in ${bucket}`).to.equal(true);
        expect(clientBucket(otherPrefix(bucket, bit))).not.to.equal(bucket);
      }),
      { numRuns: 500 },
    );
  });

  it('gives the addresses one host can pick within its /64 one bucket', () => {
    const host = ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0db8:0001:0002:a:b:c:d', '2001:db8:1:2::1%eth0'];
    expect(new Set(host.map(clientBucket))).to.deep.equal(new Set(['2001:db8:1:2::/64']));
    expect(clientBucket('2001:db8:1:3::1')).to.equal('2001:db8:1:3::/64');
    expect(clientBucket('::1')).to.equal('0:0:0:0::/64');
  });

  it('names a missing address unknown and leaves what is no address as it is', () => {
    expect(clientBucket(undefined)).to.equal('unknown');
    expect(clientBucket('')).to.equal('unknown');
    expect(clientBucket('not-an-ip')).to.equal('not-an-ip');
  });
});
