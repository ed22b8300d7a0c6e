import { expect } from 'chai';
import type { LookupAddress } from 'node:dns';
import { addressRefusal, checkUrlShape, checkWebhookUrl, guardedLookup, UrlRefused } from '../../shared/push/webhook-url-guard.js';

describe('webhook URL guard', () => {
  it('refuses inside addresses unless private ones are allowed, and link-local and metadata always', () => {
    const inside = ['127.0.0.1', '10.1.2.3', '172.31.255.255', '192.168.0.1', '100.64.1.1', '198.18.0.1', '::1', 'fc00::1', 'fd12:3456::1', '::ffff:10.0.0.1', '::ffff:7f00:1', '64:ff9b::a00:1'];
    const never = ['169.254.169.254', '169.254.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', 'fe80::1', 'ff02::1', 'fd00:ec2::254', '100.100.100.200', '::ffff:169.254.169.254', '::'];
    const outside = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'];
    for (const address of inside) {
      expect(addressRefusal(address, false), address).to.be.a('string');
      expect(addressRefusal(address, true), address).to.equal(null);
    }
    for (const address of never) {
      expect(addressRefusal(address, false), address).to.be.a('string');
      expect(addressRefusal(address, true), address).to.be.a('string');
    }
    for (const address of outside) expect(addressRefusal(address, false), address).to.equal(null);
  });

  it('wants https (http only when private addresses are allowed), no credentials, a bounded length', () => {
    expect(checkUrlShape('https://example.org/hook?x=1', false).hostname).to.equal('example.org');
    expect(() => checkUrlShape('http://example.org/', false)).to.throw(UrlRefused, 'https');
    expect(checkUrlShape('http://example.org/', true).protocol).to.equal('http:');
    expect(() => checkUrlShape('https://a:b@example.org/', false)).to.throw(UrlRefused, 'credentials');
    expect(() => checkUrlShape('file:///etc/passwd', true)).to.throw(UrlRefused);
    expect(() => checkUrlShape(`https://example.org/${'a'.repeat(2048)}`, false)).to.throw(UrlRefused, 'longer');
    expect(() => checkUrlShape('https://0x7f000001/', false)).to.throw(UrlRefused, 'loopback');
  });

  it('checks every address a name resolves to', async () => {
    const resolve = async (name: string): Promise<LookupAddress[]> =>
      name === 'mixed.test' ? [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.1', family: 4 }] : [{ address: '93.184.216.34', family: 4 }];
    expect((await checkWebhookUrl('https://public.test/x', { allowPrivate: false, resolve })).hostname).to.equal('public.test');
    let refused: unknown;
    await checkWebhookUrl('https://mixed.test/x', { allowPrivate: false, resolve }).catch((error: unknown) => (refused = error));
    expect(refused).to.be.instanceOf(UrlRefused);
  });

  it('resolves for net.connect only to checked addresses, answering in the form asked for', async () => {
    const lookup = guardedLookup({ allowPrivate: false, resolve: async () => [{ address: '93.184.216.34', family: 4 }, { address: '2606:2800:220:1::1', family: 6 }] });
    const ask = (options: { all?: boolean; family?: number }) =>
      new Promise<unknown[]>((resolve) => lookup('public.test', options, (error, address, family) => resolve([error, address, family])));
    expect(await ask({ all: true })).to.deep.equal([null, [{ address: '93.184.216.34', family: 4 }, { address: '2606:2800:220:1::1', family: 6 }], undefined]);
    expect(await ask({ family: 6 })).to.deep.equal([null, '2606:2800:220:1::1', 6]);
    const blocked = guardedLookup({ allowPrivate: false, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    const [error] = await new Promise<unknown[]>((resolve) => blocked('rebind.test', {}, (e, a) => resolve([e, a])));
    expect(error).to.be.instanceOf(UrlRefused);
  });
});
