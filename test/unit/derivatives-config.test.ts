import { expect } from 'chai';
import { ConfigError, configWith } from '../../shared/config.js';

describe('derivatives configuration', () => {
  it('reads the liquidation-only exchanges like the venues: live hosts, or ${SIM_URL}/<exchange> in sim mode, each overridable', () => {
    const live = configWith();
    expect(live.liquidationUrls.gate).to.deep.equal({ rest: 'https://api.gateio.ws', ws: 'wss://fx-ws.gateio.ws' });
    expect(live.liquidationUrls.htx.ws).to.equal('wss://api.hbdm.com');
    const sim = configWith({ MARKET_SOURCE: 'sim', SIM_URL: 'http://127.0.0.1:9999/', BITFINEX_WS_URL: 'ws://elsewhere:1/' });
    expect(sim.liquidationUrls.bitmex).to.deep.equal({ rest: 'http://127.0.0.1:9999/bitmex', ws: 'ws://127.0.0.1:9999/bitmex' });
    expect(sim.liquidationUrls.bitfinex.ws).to.equal('ws://elsewhere:1');
  });

  it('runs all nine liquidation connectors by default, a chosen list, or none', () => {
    expect(configWith().liqVenues).to.deep.equal(['binance', 'bybit', 'okx', 'bitget', 'gate', 'bitmex', 'deribit', 'htx', 'bitfinex']);
    expect(configWith({ LIQ_VENUES: ' htx, binance ' }).liqVenues).to.deep.equal(['binance', 'htx']);
    expect(configWith({ LIQ_VENUES: 'none' }).liqVenues).to.deep.equal([]);
    expect(() => configWith({ LIQ_VENUES: 'kraken' })).to.throw(ConfigError, /LIQ_VENUES/);
    expect(() => configWith({ GATE_WS_URL: 'http://not-a-socket' })).to.throw(ConfigError, /GATE_WS_URL/);
  });

  it('has the collector limits and the pairs of the jobs', () => {
    expect(configWith()).to.include({ liqFlushMs: 250, liqDedupMs: 1_200_000, liqRawMax: 500_000, derivPairs: 160 });
    expect(() => configWith({ DERIV_PAIRS: '0' })).to.throw(ConfigError, /DERIV_PAIRS/);
  });
});
