import { expect } from 'chai';
import * as formats from '../../shared/derivatives/rest/derivative-formats.js';
import { fixture } from '../helpers/fixtures.js';

describe('derivatives REST formats (fixtures)', () => {
  it('binance premiumIndex: USDT perpetuals only (no dated contract, no USDC), rate and next funding time', () => {
    const { funding, mark } = formats.parseBinancePremiumIndex(fixture('binance-usdm/premium-index.json'));
    expect(funding.get('SEIUSDT')).to.deep.equal({ rate: 0.00019562, nextFundingTime: 1732723200000 });
    expect(funding.get('WAXPUSDT')?.rate).to.equal(-0.00003174);
    expect(funding.has('ETHUSDT')).to.equal(false); // ETHUSDT_250328 is dated
    expect(funding.has('MATICUSDT')).to.equal(false); // MATICUSDC is USDC-margined
    expect(mark.get('SEIUSDT')).to.equal(0.6689);
  });

  it('binance fundingInfo: the adjusted schedules; a pair it does not list runs the default 8 h', () => {
    const hours = formats.parseBinanceFundingInfo(fixture('binance-usdm/funding-info.json'));
    expect([...hours]).to.deep.equal([
      ['BLZUSDT', 4],
      ['GTCUSDT', 8],
      ['LPTUSDT', 4],
      ['UNFIUSDT', 4],
    ]);
    const { funding } = formats.parseBinancePremiumIndex(fixture('binance-usdm/premium-index.json'));
    const withHours = formats.withBinanceIntervals(new Map([...funding, ['LPTUSDT', { rate: 0.0001, nextFundingTime: 1 }]]), hours);
    expect(withHours.get('LPTUSDT')?.intervalHours).to.equal(4);
    expect(withHours.get('SEIUSDT')).to.deep.equal({ rate: 0.00019562, nextFundingTime: 1732723200000, intervalHours: 8 });
    expect(formats.withBinanceIntervals(funding, undefined).get('SEIUSDT')).to.not.have.property('intervalHours');
  });

  it('binance openInterest (coin) and the newest globalLongShortAccountRatio row, timestamps as strings or numbers', () => {
    expect(formats.parseBinanceOpenInterest(fixture('binance-usdm/open-interest.json'))).to.equal(10659.509);
    expect(formats.parseBinanceAccountRatio(fixture('binance-usdm/global-long-short-account-ratio.json'))).to.deep.equal({
      long: 0.6617,
      short: 0.3382,
      ts: 1583139900000,
    });
    expect(formats.parseBinanceAccountRatio([{ longAccount: '0.6', shortAccount: '0.4', timestamp: 1761051300000 }])).to.deep.equal({
      long: 0.6,
      short: 0.4,
      ts: 1761051300000,
    });
  });

  it('bybit tickers: funding, next funding time and open interest value of linear USDT perpetuals', () => {
    // the docs show category=inverse only (BTCUSD): nothing for a USDT list
    expect(formats.parseBybitTickers(fixture('bybit-v5/tickers.json')).funding.size).to.equal(0);
    const linear = {
      retCode: 0,
      result: {
        category: 'linear',
        list: [
          {
            symbol: 'BTCUSDT',
            fundingRate: '-0.00012',
            nextFundingTime: '1760371200000',
            openInterestValue: '8123456.78',
            markPrice: '65000',
            fundingIntervalHour: '8',
          },
        ],
      },
    };
    const parsed = formats.parseBybitTickers(linear);
    expect(parsed.funding.get('BTCUSDT')).to.deep.equal({ rate: -0.00012, nextFundingTime: 1760371200000, intervalHours: 8 });
    expect(parsed.oiUsd.get('BTCUSDT')).to.equal(8123456.78);
  });

  it('bybit account-ratio: the newest row, buyRatio = the long share', () => {
    expect(formats.parseBybitAccountRatio(fixture('bybit-v5/account-ratio.json'))).to.deep.equal({
      long: 0.49,
      short: 0.51,
      ts: 1696262400000,
    });
  });

  it('okx funding-rate (fundingTime is the next settlement) and open-interest (oiUsd)', () => {
    expect(formats.parseOkxFundingRates(fixture('okx-v5/funding-rate.json')).get('BTCUSDT')).to.deep.equal({
      rate: 0.0000182221218054,
      nextFundingTime: 1743609600000,
      intervalHours: 8,
    });
    expect(formats.parseOkxOpenInterest(fixture('okx-v5/open-interest.json')).get('BTCUSDT')).to.equal(50000);
    expect(formats.parseOkxOpenInterest({ code: '50011', data: [] }).size).to.equal(0);
  });
});
