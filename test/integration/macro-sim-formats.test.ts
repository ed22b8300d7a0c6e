import { expect } from 'chai';
import { getJson, shapeDiff } from '../helpers/sim-client.js';
import { fixture } from '../helpers/fixtures.js';
import { simControl, useScriptedSim } from '../helpers/market-sim.js';

/** The simulated macro providers answer in the wire formats of fixtures/ (keys and JSON types), and fail on the switch. */
describe('macro providers on the simulated exchange', () => {
  const scripted = useScriptedSim();

  const cases: [string, string, string][] = [
    ['alternative.me /fng/', '/alternative-me/fng/?limit=1', 'alternative-me/fng.json'],
    [
      'CoinGecko /coins/markets',
      '/coingecko/api/v3/coins/markets?vs_currency=usd&sparkline=true&price_change_percentage=1h,24h,7d,14d,30d,200d,1y&per_page=3',
      'coingecko/coins-markets.json',
    ],
    ['CoinGecko /global', '/coingecko/api/v3/global', 'coingecko/global.json'],
    ['DefiLlama /v2/chains', '/defillama/v2/chains', 'defillama/v2-chains.json'],
    ['DefiLlama /protocols', '/defillama/protocols', 'defillama/protocols.json'],
  ];
  /** Data, not shape: list lengths (the fixtures were trimmed) and the chain names keying chainTvls. */
  const dataDependent = /(\.chains|sparkline_in_7d\.price): expected \d+ items, got \d+$|\.chainTvls\.[^:]+: (missing|unexpected)$/;

  for (const [name, path, file] of cases) {
    it(`${name} has the fixture's shape`, async () => {
      const r = await getJson(`${scripted.sim.url}${path}`);
      expect(r.status).to.equal(200);
      expect(shapeDiff(fixture(file), r.body).filter((d) => !dataDependent.test(d))).to.deep.equal([]);
    });
  }

  it("CoinGecko /search/trending has the fixture's coin and category shapes", async () => {
    const r = await getJson(`${scripted.sim.url}/coingecko/api/v3/search/trending`);
    const expected = fixture('coingecko/search-trending.json') as Record<string, unknown[]>;
    const body = r.body as Record<string, unknown[]>;
    expect(shapeDiff(expected.coins, body.coins)).to.deep.equal([]);
    expect(shapeDiff(expected.categories, body.categories)).to.deep.equal([]);
    expect(body.coins).to.have.length(7);
  });

  it("CoinGecko serves 250 coins a page, a category's coins, and 404 for an unknown category", async () => {
    const all = await getJson(`${scripted.sim.url}/coingecko/api/v3/coins/markets?vs_currency=usd&per_page=250`);
    expect(all.body).to.have.length(250);
    const l1 = (await getJson(`${scripted.sim.url}/coingecko/api/v3/coins/markets?vs_currency=usd&category=layer-1`)).body as {
      id: string;
    }[];
    expect(l1.map((c) => c.id)).to.include('bitcoin');
    expect(l1.map((c) => c.id)).to.not.include('dogecoin');
    expect((await getJson(`${scripted.sim.url}/coingecko/api/v3/coins/markets?vs_currency=usd&category=nope`)).status).to.equal(404);
  });

  it('answers 503 while /__sim/provider marks a provider down, and recovers', async () => {
    await simControl(scripted.sim, 'provider', { name: 'coingecko', down: true });
    expect((await getJson(`${scripted.sim.url}/coingecko/api/v3/global`)).status).to.equal(503);
    expect((await getJson(`${scripted.sim.url}/defillama/v2/chains`)).status).to.equal(200);
    await simControl(scripted.sim, 'provider', { name: 'coingecko', down: false });
    expect((await getJson(`${scripted.sim.url}/coingecko/api/v3/global`)).status).to.equal(200);
  });
});
