import { expect } from 'chai';
import { getJson, shapeDiff } from '../helpers/sim-client.js';
import { fixture } from '../helpers/fixtures.js';
import { simControl, useScriptedSim } from '../helpers/market-sim.js';

/** The simulated regional-quote providers answer in the wire formats of fixtures/, and fail on the switch. */
describe('regional quote providers on the simulated exchange', () => {
  const scripted = useScriptedSim();

  const ptaxPath =
    "/bcb-ptax/olinda/servico/PTAX/versao/v1/odata/CotacaoDolarPeriodo(dataInicial=@dataInicial,dataFinalCotacao=@dataFinalCotacao)?@dataInicial='08-20-2021'&@dataFinalCotacao='08-23-2021'&$format=json&$select=cotacaoCompra,cotacaoVenda,dataHoraCotacao";
  const cases: [string, string, string][] = [
    ['CriptoYa /api/usdt/ars/1', '/criptoya/api/usdt/ars/1', 'criptoya/btc-ars-0.1.json'],
    ['CriptoYa /api/btc/brl/0.1', '/criptoya/api/btc/brl/0.1', 'criptoya/btc-ars-0.1.json'],
    ['AwesomeAPI USD-BRL', '/awesomeapi/json/last/USD-BRL', 'awesomeapi/json-last-usd-brl.json'],
    ['BCB PTAX', ptaxPath, 'bcb-ptax/cotacao-dolar-periodo.json'],
    ['Mercado Bitcoin v4 tickers', '/mercado-bitcoin/api/v4/tickers?symbols=BTC-BRL', 'mercado-bitcoin/tickers-v4.json'],
    ['Foxbit v3 ticker', '/foxbit/rest/v3/markets/btcbrl/ticker/24hr', 'foxbit/ticker-24hr.json'],
  ];
  for (const [name, path, file] of cases) {
    it(`${name} has the fixture's shape`, async () => {
      const r = await getJson(`${scripted.sim.url}${path}`);
      expect(r.status).to.equal(200);
      const expected = fixture(file);
      // CriptoYa's keys are venue slugs: compare each venue with the fixture's first one
      const [reference, actual] = file.startsWith('criptoya/')
        ? [Object.values(expected as Record<string, unknown>)[0], Object.values(r.body as Record<string, unknown>)]
        : [expected, r.body];
      const diffs = file.startsWith('criptoya/')
        ? (actual as unknown[]).flatMap((v) => shapeDiff(reference, v))
        : shapeDiff(reference, actual);
      expect(diffs).to.deep.equal([]);
    });
  }

  it('PTAX lists one bulletin per weekday of the period', async () => {
    const r = await getJson(`${scripted.sim.url}${ptaxPath}`);
    expect((r.body as { value: { dataHoraCotacao: string }[] }).value.map((v) => v.dataHoraCotacao)).to.deep.equal([
      '2021-08-20 13:10:00.000',
      '2021-08-23 13:10:00.000',
    ]);
  });

  it("prices BTC/BRL from the sim's BTC price: Mercado Bitcoin at +0.4 % over BTC x 5.40", async () => {
    await simControl(scripted.sim, 'price', { symbol: 'BTCUSDT', price: 60_000 });
    const r = await getJson(`${scripted.sim.url}/mercado-bitcoin/api/v4/tickers?symbols=BTC-BRL,USDT-BRL`);
    // 60,000 x 5.4 x 1.004 = 325,296; half-spread 0.1 %: ask 325,621.30 (325,621.296), bid 324,970.70 (324,970.704)
    const btc = (r.body as Record<string, string>[]).find((t) => t.pair === 'BTC-BRL');
    expect(btc).to.include({ sell: '325621.30000000', buy: '324970.70000000', last: '325296.00000000' });
  });

  it('answers 503 while a provider is down, the others unaffected', async () => {
    await simControl(scripted.sim, 'provider', { name: 'criptoya', down: true });
    expect((await getJson(`${scripted.sim.url}/criptoya/api/dolar`)).status).to.equal(503);
    expect((await getJson(`${scripted.sim.url}/foxbit/rest/v3/markets/usdtbrl/ticker/24hr`)).status).to.equal(200);
    await simControl(scripted.sim, 'provider', { name: 'criptoya', down: false });
    expect((await getJson(`${scripted.sim.url}/criptoya/api/dolar`)).status).to.equal(200);
  });
});
