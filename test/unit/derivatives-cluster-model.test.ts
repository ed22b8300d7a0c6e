import { expect } from 'chai';
import {
  estimateClusters,
  openingsFromOi,
  survivalFactors,
  type ClusterParams,
  type ModelCandle,
} from '../../shared/derivatives/clusters/cluster-model.js';

const M = 60_000;
/** A flat candle at `price` (typical price = price). */
const flat = (i: number, price: number, volume = 100): ModelCandle => ({ openTime: i * M, high: price, low: price, close: price, volume });
const tenX: ClusterParams = {
  leverageMix: [{ leverage: 10, weight: 1 }],
  mmr: 0,
  longShare: 0.5,
  bandPct: 0.001,
  volumeOpenShare: 0.05,
  maxClusters: 50,
};

describe('liquidation cluster model on constructed inputs', () => {
  it('puts new open interest at 10x: longs 10 % below the opening price, shorts 10 % above, split half and half', () => {
    const candles = [flat(0, 100), flat(1, 100)];
    const oi = [
      { ts: 0, oiUsd: 1_000_000 },
      { ts: 2 * M, oiUsd: 2_000_000 },
    ];
    expect(estimateClusters(candles, oi, 100, tenX)).to.deep.equal([
      { price: 90, side: 'long', est_notional: 500_000 },
      { price: 110, side: 'short', est_notional: 500_000 },
    ]);
  });

  it('spreads an increase over the interval by USD volume and opening prices', () => {
    const candles = [flat(0, 100, 300), flat(1, 200, 50)]; // $30,000 and $10,000 traded
    const openings = openingsFromOi(
      candles,
      [
        { ts: 0, oiUsd: 0 },
        { ts: 2 * M, oiUsd: 400 },
      ],
      0,
    );
    expect(openings.map((o) => [o.price, o.usd])).to.deep.equal([
      [100, 300],
      [200, 100],
    ]);
    const clusters = estimateClusters(
      candles,
      [
        { ts: 0, oiUsd: 0 },
        { ts: 2 * M, oiUsd: 400 },
      ],
      200,
      { ...tenX, bandPct: 0.0001 },
    );
    expect(clusters).to.deep.include({ price: 90, side: 'long', est_notional: 150 });
    expect(clusters).to.deep.include({ price: 180, side: 'long', est_notional: 50 });
  });

  it('drops levels the price has crossed since: those positions are already liquidated', () => {
    const candles = [flat(0, 100), flat(1, 100), { openTime: 2 * M, high: 100, low: 89, close: 95, volume: 0 }];
    const oi = [
      { ts: 0, oiUsd: 0 },
      { ts: 2 * M, oiUsd: 1_000 },
      { ts: 3 * M, oiUsd: 1_000 },
    ];
    const [short, ...rest] = estimateClusters(candles, oi, 95, tenX);
    expect(rest).to.deep.equal([]);
    expect(short).to.include({ side: 'short', est_notional: 500 });
    // band centres are multiples of 0.1 % of the current price
    expect(short.price).to.be.closeTo(110, 95 * 0.001);
  });

  it('closes positions evenly when open interest falls afterwards', () => {
    const candles = [flat(0, 100), flat(1, 100), flat(2, 100, 0)];
    const oi = [
      { ts: 0, oiUsd: 1_000 },
      { ts: M, oiUsd: 2_000 },
      { ts: 2 * M, oiUsd: 1_500 },
      { ts: 3 * M, oiUsd: 1_500 },
    ];
    // positions opened in the first minute live through the 25 % decrease of the second
    expect(survivalFactors(candles, oi)).to.deep.equal([0.75, 1, 1]);
    expect(estimateClusters(candles, oi, 100, tenX)).to.deep.equal([
      { price: 90, side: 'long', est_notional: 375 },
      { price: 110, side: 'short', est_notional: 375 },
    ]);
  });

  it('weights a leverage mix and the maintenance margin into the level', () => {
    const params: ClusterParams = {
      ...tenX,
      leverageMix: [
        { leverage: 5, weight: 3 },
        { leverage: 100, weight: 1 },
      ],
      mmr: 0.005,
      bandPct: 0.0001,
    };
    const clusters = estimateClusters(
      [flat(0, 1000)],
      [
        { ts: 0, oiUsd: 0 },
        { ts: M, oiUsd: 8_000 },
      ],
      1000,
      params,
    );
    expect(clusters).to.deep.equal([
      { price: 805, side: 'long', est_notional: 3_000 },
      { price: 995, side: 'long', est_notional: 1_000 },
      { price: 1005, side: 'short', est_notional: 1_000 },
      { price: 1195, side: 'short', est_notional: 3_000 },
    ]);
  });

  it('without open-interest history, assumes a share of the volume opened positions', () => {
    const clusters = estimateClusters([flat(0, 100, 1_000)], [], 100, { ...tenX, volumeOpenShare: 0.1 });
    expect(clusters).to.deep.equal([
      { price: 90, side: 'long', est_notional: 5_000 },
      { price: 110, side: 'short', est_notional: 5_000 },
    ]);
    expect(estimateClusters([], [], 100)).to.deep.equal([]);
  });
});
