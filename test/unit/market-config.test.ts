import { expect } from 'chai';
import { ConfigError, configWith } from '../../shared/config.js';

describe('market: config', () => {
  it('points every venue at the live hosts by default', () => {
    const c = configWith();
    expect(c.venueUrls.binance).to.deep.equal({ rest: 'https://fapi.binance.com', ws: 'wss://fstream.binance.com' });
    expect(c.venueUrls.okx.ws).to.equal('wss://ws.okx.com:8443');
    expect(c.feedVenues).to.deep.equal(['binance', 'bybit', 'okx', 'bitget']);
    expect(c).to.include({
      universeSize: 500,
      universeRefreshMs: 300_000,
      aggregateThrottleMs: 250,
      streamReconnectMaxMs: 30_000,
      restTimeoutMs: 10_000,
      historyCacheMs: 60_000,
    });
  });

  it('points every venue under SIM_URL when MARKET_SOURCE=sim (http -> ws), and lets each URL be overridden', () => {
    const c = configWith({ MARKET_SOURCE: 'sim', SIM_URL: 'http://127.0.0.1:9000/', BYBIT_WS_URL: 'wss://stream-testnet.bybit.com/' });
    expect(c.venueUrls.binance).to.deep.equal({ rest: 'http://127.0.0.1:9000/binance', ws: 'ws://127.0.0.1:9000/binance' });
    expect(c.venueUrls.bitget).to.deep.equal({ rest: 'http://127.0.0.1:9000/bitget', ws: 'ws://127.0.0.1:9000/bitget' });
    expect(c.venueUrls.bybit).to.deep.equal({ rest: 'http://127.0.0.1:9000/bybit', ws: 'wss://stream-testnet.bybit.com' });
    expect(configWith({ MARKET_SOURCE: 'sim', SIM_PORT: '8123' }).venueUrls.okx.rest).to.equal('http://127.0.0.1:8123/okx');
    expect(configWith({ MARKET_SOURCE: 'sim', SIM_URL: 'https://sim.example' }).venueUrls.okx.ws).to.equal('wss://sim.example/okx');
  });

  it('reads FEED_VENUES in priority order and refuses unknown venues and bad URLs by name', () => {
    expect(configWith({ FEED_VENUES: 'okx, binance' }).feedVenues).to.deep.equal(['binance', 'okx']);
    expect(() => configWith({ FEED_VENUES: 'binance,kraken' })).to.throw(ConfigError, /^FEED_VENUES/);
    expect(() => configWith({ BINANCE_WS_URL: 'https://fstream.binance.com' })).to.throw(ConfigError, /^BINANCE_WS_URL/);
    expect(() => configWith({ UNIVERSE_SIZE: '0' })).to.throw(ConfigError, /^UNIVERSE_SIZE/);
  });
});
