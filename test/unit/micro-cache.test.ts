import { expect } from 'chai';
import { MicroCache } from '../../api/routing/micro-cache.js';

describe('the in-process micro cache', () => {
  it('shares one load between callers within the TTL and loads again after it', async () => {
    let clock = 0;
    let loads = 0;
    const cache = new MicroCache<number>(200, () => clock);
    const load = async () => ++loads;
    const [a, b] = await Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect([a, b, loads]).to.deep.equal([1, 1, 1]);
    clock = 199;
    expect(await cache.get('k', load)).to.equal(1);
    clock = 200;
    expect(await cache.get('k', load)).to.equal(2);
  });

  it('does not keep a failed load', async () => {
    const cache = new MicroCache<string>(1_000, () => 0);
    await cache.get('k', () => Promise.reject(new Error('down'))).catch(() => undefined);
    expect(await cache.get('k', async () => 'up')).to.equal('up');
  });
});
