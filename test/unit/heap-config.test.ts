import { expect } from 'chai';
import { ConfigError, configWith } from '../../shared/config.js';

describe('config: HEAP_GROWING_PERCENT', () => {
  it('lets the old generation grow 300% past a full collection by default, and takes 0 (V8 decides) to 1000', () => {
    expect(configWith().heapGrowingPercent).to.equal(300);
    expect(configWith({ HEAP_GROWING_PERCENT: '0' }).heapGrowingPercent).to.equal(0);
    expect(configWith({ HEAP_GROWING_PERCENT: '1000' }).heapGrowingPercent).to.equal(1000);
  });

  it('refuses a negative, fractional, too large or non-numeric value by name', () => {
    for (const bad of ['-1', '1.5', '1001', 'lots']) {
      expect(() => configWith({ HEAP_GROWING_PERCENT: bad }), bad).to.throw(ConfigError, /^HEAP_GROWING_PERCENT/);
    }
  });
});

describe('config: HEAP_PRETENURING', () => {
  it('is off by default and reads 1, 0, true and false', () => {
    expect(configWith().heapPretenuring).to.equal(false);
    expect(configWith({ HEAP_PRETENURING: '1' }).heapPretenuring).to.equal(true);
    expect(configWith({ HEAP_PRETENURING: 'true' }).heapPretenuring).to.equal(true);
    expect(configWith({ HEAP_PRETENURING: '0' }).heapPretenuring).to.equal(false);
    expect(() => configWith({ HEAP_PRETENURING: 'maybe' })).to.throw(ConfigError, /^HEAP_PRETENURING/);
  });
});
