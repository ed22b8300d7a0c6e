import { expect } from 'chai';
import * as coingecko from '../../shared/macro/providers/coingecko-format.js';
import { buildDefiOverview, parseChains, parseProtocols, parseStablecoins } from '../../shared/macro/providers/defillama-format.js';
import { parseFearGreed } from '../../shared/macro/providers/fear-greed-format.js';
import { ProviderFormatError } from '../../shared/http/provider-http.js';
import { fixture } from '../helpers/fixtures.js';

describe('macro provider formats (fixtures)', () => {
  it('reads alternative.me fear and greed: strings, seconds', () => {
    expect(parseFearGreed(fixture('alternative-me/fng.json'))).to.deep.equal([
      { value: 25, classification: 'Extreme Fear', ts: 1639958400000 },
    ]);
    expect(() => parseFearGreed({ data: [] })).to.throw(ProviderFormatError);
  });

  it('reads CoinGecko /coins/markets with the 1h/24h/7d changes and the sparkline', () => {
    const [btc] = coingecko.parseMarkets(fixture('coingecko/coins-markets.json'));
    expect(btc).to.deep.include({
      id: 'bitcoin',
      symbol: 'BTC',
      name: 'Bitcoin',
      rank: 1,
      price: 77671,
      marketCap: 1555886872303,
      volume24h: 33235034316,
    });
    expect(btc.change1h).to.be.closeTo(0.5823, 1e-4);
    expect(btc.change24h).to.be.closeTo(-0.953, 1e-3);
    expect(btc.change7d).to.be.closeTo(-4.0423, 1e-4);
    expect(btc.sparkline).to.deep.equal([81045.8, 81001.7, 80898.2]);
  });

  it('downsamples a 168-point sparkline to 42 points ending with the last one', () => {
    const line = Array.from({ length: 168 }, (_, i) => i + 1);
    const out = coingecko.downsample(line, 42);
    expect(out).to.have.length(42);
    expect(out[0]).to.equal(4);
    expect(out[41]).to.equal(168);
  });

  it('reads CoinGecko /global', () => {
    expect(coingecko.parseGlobal(fixture('coingecko/global.json'))).to.deep.equal({
      totalMarketCapUsd: 2621040321355.0405,
      totalVolume24hUsd: 95133256404.37308,
      btcDominance: 57.9539332566265,
      ethDominance: 9.58227145398409,
      marketCapChange24hPct: -1.6081983639177684,
      activeCryptocurrencies: 17397,
      markets: 1476,
      providerUpdatedAt: 1779878351000,
    });
  });

  it('reads CoinGecko /search/trending, market cap given as text', () => {
    const t = coingecko.parseTrending(fixture('coingecko/search-trending.json'));
    expect(t.coins).to.deep.equal([
      {
        id: 'bonk',
        name: 'Bonk',
        symbol: 'BONK',
        rank: 103,
        priceUsd: 5.938674704566297e-6,
        change24hPct: -3.2712597351582655,
        marketCapUsd: 521967819,
        thumb: 'https://coin-images.coingecko.com/coins/images/28600/standard/bonk.jpg?1696527587',
        score: 0,
      },
    ]);
    expect(t.categories).to.deep.equal([{ name: 'Base Native', slug: 'base-native', marketCapChange24hPct: 0.14714515711689605 }]);
    expect(coingecko.parseMoneyText('$1,234')).to.equal(1234);
    expect(coingecko.parseMoneyText('n/a')).to.equal(null);
  });

  it('reads the category list', () => {
    expect(coingecko.parseCategoryIds([{ category_id: 'layer-1', name: 'Layer 1 (L1)' }, { name: 'no id' }])).to.deep.equal(['layer-1']);
    expect(() => coingecko.parseCategoryIds([])).to.throw(ProviderFormatError);
  });

  it('builds the DeFi overview from DefiLlama chains, protocols and stablecoins, leaving CEX reserves out', () => {
    const chains = parseChains(fixture('defillama/v2-chains.json'));
    const protocols = parseProtocols(fixture('defillama/protocols.json'));
    expect(chains).to.deep.equal([{ name: 'Harmony', tvl: 4815892.656507085 }]);
    expect(protocols[0]).to.include({ name: 'Binance CEX', category: 'CEX', chains: 17 });
    const stablecoins = parseStablecoins({
      peggedAssets: [
        { name: 'Tether', symbol: 'USDT', pegType: 'peggedUSD', circulating: { peggedUSD: 100 }, price: 1 },
        { name: 'Euro Coin', symbol: 'EURC', pegType: 'peggedEUR', circulating: { peggedEUR: 10 }, price: 1.2 },
        { name: 'No price', symbol: 'X', pegType: 'peggedEUR', circulating: { peggedEUR: 10 } },
      ],
    });
    expect(stablecoins.map((s) => [s.symbol, s.circulatingUsd])).to.deep.equal([
      ['USDT', 100],
      ['EURC', 12],
    ]);
    const overview = buildDefiOverview(
      [...chains, { name: 'Ethereum', tvl: 95184107.34349291 }],
      [...protocols, { name: 'Aave', slug: 'aave', category: 'Lending', tvl: 50, change1d: 1, change7d: 2, chains: 3 }],
      stablecoins,
    );
    expect(overview.totalTvl).to.be.closeTo(1e8, 1e-6);
    expect(overview.chains.map((c) => [c.name, c.sharePct])).to.deep.equal([
      ['Ethereum', 95.18],
      ['Harmony', 4.82],
    ]);
    expect(overview.protocols.map((p) => p.name)).to.deep.equal(['Aave']);
    expect(overview.stablecoinsTotalUsd).to.equal(112);
  });
});
