import { expect } from 'chai';
import * as brl from '../../shared/latam/providers/brl-formats.js';
import { parseCriptoyaQuotes, parseDolar } from '../../shared/latam/providers/criptoya-format.js';
import { ProviderFormatError } from '../../shared/http/provider-http.js';
import { fixture } from '../helpers/fixtures.js';

describe('regional quote provider formats (fixtures)', () => {
  it('reads CriptoYa venue quotes, fee-inclusive totals first', () => {
    const quotes = parseCriptoyaQuotes(fixture('criptoya/btc-ars-0.1.json'));
    expect(quotes.find((q) => q.id === 'ripio')).to.deep.equal({ id: 'ripio', ask: 75773309.56, bid: 72899467, time: 1727997901 });
    const p2p = parseCriptoyaQuotes(fixture('criptoya/usdc-bob-1.recorded.json'));
    expect(p2p.find((q) => q.id === 'bitgetp2p')).to.include({ ask: 0, bid: 9.5 });
    expect(() => parseCriptoyaQuotes({})).to.throw(ProviderFormatError);
  });

  it('reads CriptoYa /api/dolar as documented in the fixtures README (oficial.price, blue.ask and blue.bid, mep.al30.ci.price)', () => {
    const body = {
      oficial: { price: 1010.5, variation: 0.1 },
      blue: { ask: 1230, bid: 1210, variation: -0.2 },
      mep: { al30: { '24hs': { price: 1182 }, ci: { price: 1180 } } },
      ccl: { gd30: { '24hs': { price: 1201 } } },
      cripto: { ccb: { ask: 1, bid: 1 }, usdc: { ask: 1, bid: 1 }, usdt: { ask: 1, bid: 1 } },
    };
    expect(parseDolar(body)).to.deep.equal({ official: 1010.5, blue: 1230, mep: 1180, ccl: 1201, card: null, bids: { blue: 1210 } });
    expect(parseDolar({ oficial: { price: 1010.5 } }).bids).to.deep.equal({});
    expect(() => parseDolar({ cripto: {} })).to.throw(ProviderFormatError);
  });

  it('reads AwesomeAPI USD-BRL: the mid of bid and ask', () => {
    const r = brl.parseAwesomeUsdBrl(fixture('awesomeapi/json-last-usd-brl.json'));
    expect(r.rate).to.be.closeTo(5.6136, 1e-9);
    expect(r).to.include({ source: 'awesomeapi', ts: 1722373206000 });
  });

  it('reads the newest PTAX bulletin, Brasília time', () => {
    const r = brl.parsePtax(fixture('bcb-ptax/cotacao-dolar-periodo.json'));
    expect(r.rate).to.be.closeTo(5.3683, 1e-9);
    expect(r.source).to.equal('bcb-ptax');
    expect(r.ts).to.equal(Date.parse('2021-08-23T16:10:34.583Z'));
    expect(brl.brasiliaToUtc('2021-08-20 13:10:39.797')).to.equal(Date.parse('2021-08-20T16:10:39.797Z'));
    expect(() => brl.parsePtax({ value: [] })).to.throw(ProviderFormatError);
  });

  it('reads Mercado Bitcoin v4 tickers (buy = bid, sell = ask) and Foxbit v3 tickers', () => {
    expect(brl.parseMercadoBitcoinTickers(fixture('mercado-bitcoin/tickers-v4.json'))).to.deep.equal({
      'BTC-BRL': { ask: 145.00000006, bid: 160.00000005 },
    });
    expect(brl.parseFoxbitTicker(fixture('foxbit/ticker-24hr.json'))).to.deep.equal({ ask: 1.7893, bid: 1.7816 });
  });
});
