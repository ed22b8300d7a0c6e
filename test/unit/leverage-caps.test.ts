import { expect } from 'chai';
import fc from 'fast-check';
import type { AssetClass } from '../../shared/engine/fees.js';
import { CLASS_MAX_LEVERAGE, TOP_LEVERAGE_BASES, maxLeverage, VOLUME_TIERS } from '../../shared/paper/markets/leverage-caps.js';

const volume = fc.double({ min: 0, max: 1e12, noNaN: true });
const noData = fc.constantFrom(undefined, 0, -1, Number.NaN);
const coin = fc.constantFrom('ADAUSDT', 'LINKUSDT', 'SUIUSDT', 'ORDIUSDT', 'ARBUSDT', 'WIFUSDT');

describe('leverage caps (pure)', () => {
  it('puts the original\'s "up to 1000x" coins at 1000x and the others on the volume tiers', () => {
    for (const symbol of ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT', 'DOGEUSDT', 'HYPEUSDT', 'PEPEUSDT', '1000PEPEUSDT']) {
      expect(maxLeverage(symbol, 'crypto', 5e7), symbol).to.equal(1000);
    }
    expect(maxLeverage('ADAUSDT', 'crypto', 1e9)).to.equal(200);
    expect(maxLeverage('ADAUSDT', 'crypto', 1e9 - 1)).to.equal(150);
    expect(maxLeverage('ADAUSDT', 'crypto', 1e8)).to.equal(150);
    expect(maxLeverage('ADAUSDT', 'crypto', 1e8 - 1)).to.equal(100);
    expect(maxLeverage('ADAUSDT', 'crypto', 1)).to.equal(100);
  });

  it('property: a symbol without volume data gets the most conservative crypto tier, a major too', () => {
    const lowest = Math.min(...VOLUME_TIERS.map((t) => t.maxLeverage));
    fc.assert(
      fc.property(
        fc.constantFrom(...TOP_LEVERAGE_BASES, 'ADA', 'WIF'),
        noData,
        (base, v) => maxLeverage(`${base}USDT`, 'crypto', v) === lowest,
      ),
    );
  });

  it('property: a coin outside the majors stays within 100x-200x and never loses leverage as its volume grows', () => {
    fc.assert(
      fc.property(coin, volume, volume, (symbol, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const capLo = maxLeverage(symbol, 'crypto', lo);
        return capLo >= 100 && maxLeverage(symbol, 'crypto', hi) <= 200 && capLo <= maxLeverage(symbol, 'crypto', hi);
      }),
    );
  });

  it('property: other classes keep their class caps whatever the volume', () => {
    const cls = fc.constantFrom<Exclude<AssetClass, 'crypto'>>('stock', 'forex', 'metal', 'index');
    fc.assert(fc.property(cls, fc.option(volume, { nil: undefined }), (c, v) => maxLeverage('XAUUSDT', c, v) === CLASS_MAX_LEVERAGE[c]));
    expect(CLASS_MAX_LEVERAGE).to.deep.equal({ stock: 50, forex: 50, metal: 20, index: 20 });
  });
});
