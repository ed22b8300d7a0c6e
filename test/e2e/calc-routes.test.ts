import { expect } from 'chai';
import { getJson, useApiFixture, type TestApi } from '../helpers/app.js';

interface Envelope<T> {
  ok: boolean;
  data: T;
  error?: { code: string; message: string; param?: string };
  ts: number;
}

describe('calculator routes over HTTP', () => {
  const fixture = useApiFixture({ PUBLIC_RATE_LIMIT: '100000' });
  let api: TestApi;
  before(() => {
    api = fixture.api;
  });

  it('answers the v1 family in the envelope and the bare family with the same fields', async () => {
    const query = 'entry=65000&exit=66300&size=0.5&leverage=10&side=long';
    const v1 = await getJson<Envelope<Record<string, unknown>>>(`${api.url}/api/v1/calc/pnl?${query}`);
    const bare = await getJson<Record<string, unknown>>(`${api.url}/api/pnl?${query}`);
    expect(v1.status).to.equal(200);
    expect(v1.body.ok).to.equal(true);
    expect(v1.body.ts)
      .to.be.a('number')
      .within(Date.now() - 60_000, Date.now() + 1000);
    expect(v1.body.data).to.deep.equal(bare.body);
    expect(bare.body).to.include({ entry: 65000, exit: 66300, size: 0.5, leverage: 10, side: 'long', roiPct: 2 });
    expect(bare.body.pnl as number).to.be.closeTo(650, 1e-9);
    expect(bare.body.roePct as number).to.be.closeTo(20, 1e-9);
  });

  it('applies the spec defaults: side long, mmr 0.5, leverage 1', async () => {
    const liq = await getJson<Envelope<{ side: string; mmr: number; liquidationPrice: number }>>(
      `${api.url}/api/v1/calc/liquidation?entry=100&leverage=10`,
    );
    expect(liq.body.data).to.include({ side: 'long', mmr: 0.5 });
    expect(liq.body.data.liquidationPrice).to.be.closeTo(90.5, 1e-9);
    const tp = await getJson<{ leverage: number; targetExitPrice: number }>(`${api.url}/api/take-profit?entry=100&roe=10`);
    expect(tp.body.leverage).to.equal(1);
    expect(tp.body.targetExitPrice).to.be.closeTo(110, 1e-9);
  });

  it("answers the engine's liquidation price above 200x: mmr capped at half the margin, and echoed", async () => {
    const liq = await getJson<Envelope<{ mmr: number; liquidationPrice: number; distancePct: number }>>(
      `${api.url}/api/v1/calc/liquidation?entry=100&leverage=500`,
    );
    expect(liq.body.data.mmr).to.be.closeTo(0.1, 1e-12);
    expect(liq.body.data.liquidationPrice).to.be.closeTo(99.9, 1e-9);
    expect(liq.body.data.distancePct).to.be.closeTo(-0.1, 1e-9);
  });

  it("answers the spec's formula with a given mmr: entry=100&leverage=125&mmr=0.42 is 99.62", async () => {
    const liq = await getJson<{ mmr: number; liquidationPrice: number }>(`${api.url}/api/liquidation?entry=100&leverage=125&mmr=0.42`);
    expect(liq.body.mmr).to.equal(0.42);
    expect(liq.body.liquidationPrice).to.be.closeTo(99.62, 1e-9);
  });

  it('computes short results on every calculator that takes a side', async () => {
    const liq = await getJson<{ liquidationPrice: number; distancePct: number }>(
      `${api.url}/api/liquidation?entry=2000&leverage=20&side=short`,
    );
    expect(liq.body.liquidationPrice).to.be.closeTo(2090, 1e-9);
    expect(liq.body.distancePct).to.be.greaterThan(0);
    const pnl = await getJson<{ pnl: number }>(`${api.url}/api/pnl?entry=100&exit=90&size=3&side=SELL`);
    expect(pnl.body.pnl).to.be.closeTo(30, 1e-9);
    const tp = await getJson<{ targetExitPrice: number }>(`${api.url}/api/take-profit?entry=2000&roe=20&leverage=4&side=short`);
    expect(tp.body.targetExitPrice).to.be.closeTo(1900, 1e-9);
  });

  /** Refused queries by calculator: each query and the code it is refused with. */
  const violations: Record<string, Record<string, string>> = {
    liquidation: {
      'entry=100&leverage=0': 'leverage_min',
      'entry=100&leverage=-2': 'leverage_min',
      'entry=0&leverage=5': 'entry_min',
      // 0.5% at 200x is the whole initial margin: the price would be the entry
      'entry=100&leverage=200&mmr=0.5': 'mmr_crosses_entry',
    },
    'take-profit': { 'entry=0&roe=10': 'entry_min', 'entry=-5&roe=10': 'entry_min', 'entry=100&roe=200&side=short': 'roe_unreachable' },
    'risk-reward': { 'entry=100&stop=100&tp=120': 'entry_equals_stop', 'entry=1e-300&stop=2e-300&tp=1e15': 'result_not_finite' },
    'position-size': { 'balance=1000&risk=1&entry=50&stop=50': 'entry_equals_stop' },
    pnl: {
      'entry=100&exit=110': 'missing_param',
      'entry=100&exit=110&size=abc': 'invalid_param',
      'entry=100&exit=110&size=Infinity': 'invalid_param',
      'entry=100&exit=110&size=1&side=sideways': 'invalid_param',
    },
  };
  for (const [calc, refusals] of Object.entries(violations))
    for (const [query, code] of Object.entries(refusals)) {
      const path = `/api/v1/calc/${calc}`;
      it(`answers ${path}?${query} with 400 ${code}`, async () => {
        const response = await getJson<Envelope<never>>(`${api.url}${path}?${query}`);
        expect(response.status).to.equal(400);
        expect(response.body.ok).to.equal(false);
        expect(response.body.error?.code).to.equal(code);
      });
    }

  it('says which rule failed: a stop at the entry is named as such, not as an invalid value', async () => {
    for (const path of [
      '/api/v1/calc/risk-reward?entry=100&stop=100&tp=120',
      '/api/v1/calc/position-size?balance=1000&risk=1&entry=50&stop=50',
    ]) {
      const response = await getJson<Envelope<never>>(`${api.url}${path}`);
      expect(response.body.error).to.include({
        code: 'entry_equals_stop',
        message: 'stop must differ from entry: a stop at the entry risks nothing',
        param: 'stop',
      });
    }
  });

  it('names the parameter in the message of a validation error', async () => {
    const response = await getJson<Envelope<never>>(`${api.url}/api/v1/calc/position-size?balance=1000&entry=50&stop=45`);
    expect(response.body.error?.code).to.equal('missing_param');
    expect(response.body.error?.message).to.contain('risk');
    expect(response.body.error?.param).to.equal('risk');
  });
});
