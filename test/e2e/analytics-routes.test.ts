import { expect } from 'chai';
import fc from 'fast-check';
import { ERROR_CODES } from '../../shared/core/errors.js';
import { HOSTILE_STRINGS } from '../helpers/hostile.js';
import { botCall, createTrader, useTradingFixture, type Trader } from '../helpers/trading.js';

interface Point {
  t: number;
  realized_pnl_usd: number;
  equity_usd: number;
  closes: number;
}
type Body = Record<string, unknown> & {
  error?: string;
  points?: Point[];
  now?: number;
  total?: Record<string, unknown>;
  position?: { id: string };
  data?: Record<string, unknown>;
};

/** GET /equity and GET /report over HTTP, v1 and v2, on books traded through the API. */
describe('bot analytics: /equity and /report', function () {
  this.timeout(60_000);
  const stack = useTradingFixture({ BTCUSDT: 60000, ETHUSDT: 3000 });

  const get = (who: Trader, path: string, version: 'v1' | 'v2' = 'v1') =>
    botCall<Body>(stack.api.url, who, 'GET', path, undefined, version);
  const post = (who: Trader, path: string, body: unknown) => botCall<Body>(stack.api.url, who, 'POST', path, body);
  const open = async (who: Trader, body: Record<string, unknown>): Promise<string> => {
    const r = await post(who, '/open', { symbol: 'ETH', side: 'long', margin_usd: 100, leverage: 10, ...body });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body.position!.id;
  };

  it('answers the curve since the book began, now with the open position at mark, in v1 and v2', async () => {
    const trader = await createTrader(stack.mod, { plan: 'pro' });
    const first = await open(trader, {});
    await stack.prices.set({ ETHUSDT: 3030 });
    expect((await post(trader, '/close', { id: first })).status).to.equal(200);
    await open(trader, { side: 'short' });
    await stack.prices.set({ ETHUSDT: 3000 });

    const v1 = await get(trader, '/equity');
    expect(v1.status, JSON.stringify(v1.body)).to.equal(200);
    expect(Object.keys(v1.body).sort()).to.deep.equal(['max_drawdown_pct', 'now', 'ok', 'points', 'starting_balance_usd']);
    // 30 days at the default 240 minutes: 181 points, the last one holding the close
    const points = v1.body.points!;
    expect(points).to.have.length(181);
    const account = (await get(trader, '/account')).body as { realized_pnl_usd: number; equity_usd: number };
    expect(points.at(-1)).to.include({
      realized_pnl_usd: account.realized_pnl_usd,
      equity_usd: 10_000 + account.realized_pnl_usd,
      closes: 1,
    });
    expect(points.slice(0, -1).every((p) => p.closes === 0 && p.equity_usd === 10_000)).to.equal(true);
    // now: the balance plus the open short at mark, as /account computes it
    expect(v1.body.now).to.equal(account.equity_usd);
    expect(v1.body.now).to.not.equal(points.at(-1)!.equity_usd);

    const v2 = await get(trader, '/equity?days=2&step_min=5', 'v2');
    expect(v2.body).to.have.keys('ok', 'data', 'ts');
    expect(v2.body.data).to.have.keys('points', 'now', 'max_drawdown_pct', 'starting_balance_usd');
    expect((v2.body.data!.points as Point[]).length).to.equal(2 * 288 + 1);
  });

  it('restarts the curve at a reset', async () => {
    const trader = await createTrader(stack.mod);
    const id = await open(trader, {});
    await stack.prices.set({ ETHUSDT: 2970 });
    await post(trader, '/close', { id });
    const reset = await post(trader, '/reset', { confirm: true });
    expect(reset.status).to.equal(200);
    const points = (await get(trader, '/equity?days=1&step_min=60')).body.points!;
    expect(points[0]).to.deep.equal({ t: reset.body.reset_ts, realized_pnl_usd: 0, equity_usd: 10_000, closes: 0 });
    expect(points.every((p) => p.t >= (reset.body.reset_ts as number) && p.equity_usd === 10_000 && p.closes === 0)).to.equal(true);
    expect((await get(trader, '/report')).body.total).to.include({ n: 0, closes: 0, pnl_usd: 0 });
    // the equity after the reset: the starting balance, then live with an open position at mark
    const after = (await get(trader, '/equity')).body;
    expect(after).to.include({ starting_balance_usd: 10_000, now: 10_000 });
    await open(trader, {});
    await stack.prices.set({ ETHUSDT: 3030 });
    const live = (await get(trader, '/equity')).body;
    const account = (await get(trader, '/account')).body as { equity_usd: number };
    expect(live.now).to.equal(account.equity_usd).and.to.be.above(10_000);
  });

  it('counts a close once when many requests race to settle it', async () => {
    const trader = await createTrader(stack.mod, { plan: 'pro' });
    const id = await open(trader, {});
    await stack.prices.set({ ETHUSDT: 3060 });
    const results = await Promise.all(Array.from({ length: 8 }, () => post(trader, '/close', { id })));
    expect(results.filter((r) => r.status === 200)).to.have.length.at.least(1);
    const report = (await get(trader, '/report')).body as {
      total: { closes: number; pnl_usd: number };
      byCoin: Record<string, { closes: number }>;
    };
    expect(report.total.closes).to.equal(1);
    expect(report.byCoin.ETHUSDT.closes).to.equal(1);
    const points = (await get(trader, '/equity?days=1&step_min=1440')).body.points!;
    expect(points.reduce((n, p) => n + p.closes, 0)).to.equal(1);
    expect(points.at(-1)!.realized_pnl_usd).to.equal(report.total.pnl_usd);
  });

  it('gates the report by plan: Free 30 days of totals and skill, paid 90 with breakdowns and findings', async () => {
    const free = await createTrader(stack.mod, { plan: 'free' });
    const pro = await createTrader(stack.mod, { plan: 'pro' });
    const freeReport = await get(free, '/report');
    expect(freeReport.status).to.equal(200);
    expect(freeReport.body).to.include({ days: 30, plan: 'free', breakdowns: false, premium: false });
    expect(freeReport.body.locked).to.deep.equal(['byCoin', 'byLev', 'bySide', 'byHour', 'byDay', 'findings']);
    expect(freeReport.body).to.include.keys('total', 'skill');
    expect(freeReport.body).to.not.include.keys('byCoin', 'findings');

    const tooDeep = await get(free, '/report?days=31');
    expect(tooDeep.status).to.equal(400);
    expect(tooDeep.body).to.include({ error: 'days_beyond_plan', max_days: 30, plan: 'free' });
    const tooDeepV2 = await get(free, '/report?days=90', 'v2');
    expect((tooDeepV2.body.error as unknown as { code: string; max_days: number }).code).to.equal('days_beyond_plan');

    const paid = await get(pro, '/report?days=90', 'v2');
    expect(paid.status).to.equal(200);
    expect(paid.body.data).to.include({ days: 90, plan: 'pro', breakdowns: true, premium: true });
    expect(paid.body.data).to.include.keys('byCoin', 'byLev', 'bySide', 'byHour', 'byDay', 'findings');
    expect((await get(pro, '/report?days=91')).body).to.include({ error: 'days_beyond_plan', max_days: 90 });
  });

  it('refuses out-of-range and malformed days and step_min with their named codes, never clamping', async () => {
    const trader = await createTrader(stack.mod);
    const cases: [string, string][] = [
      ['/equity?days=0', 'days_invalid'],
      ['/equity?days=91', 'days_invalid'],
      ['/equity?days=1.5', 'days_invalid'],
      ['/equity?days=abc', 'days_invalid'],
      ['/equity?days=1&days=2', 'days_invalid'],
      ['/equity?step_min=4', 'step_min_invalid'],
      ['/equity?step_min=1441', 'step_min_invalid'],
      ['/equity?step_min=Infinity', 'step_min_invalid'],
      ['/report?days=0', 'days_invalid'],
      ['/report?days=-3', 'days_invalid'],
      ['/report?days=1e400', 'days_invalid'],
    ];
    for (const [path, code] of cases) {
      const r = await get(trader, path);
      expect(r.status, path).to.equal(400);
      expect(r.body.error, path).to.equal(code);
    }
    expect((await get(trader, '/equity?days=90&step_min=1440')).body.points).to.have.length(91);
    expect((await get(trader, '/equity?days=1&step_min=5')).body.points).to.have.length(289);
  });

  it('property: any query string answers 200 or a named 4xx, never a 5xx', async () => {
    const trader = await createTrader(stack.mod, { plan: 'pro' });
    const value = fc.oneof(
      fc.constantFrom(...HOSTILE_STRINGS),
      fc.string({ maxLength: 12 }),
      fc.integer().map(String),
      fc.double().map(String),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/equity', '/report'), value, value, async (path, days, step) => {
        const r = await get(trader, `${path}?days=${encodeURIComponent(days)}&step_min=${encodeURIComponent(step)}`);
        if (r.status === 200) return;
        expect(r.status, `${path} ${days} ${step}`).to.equal(400);
        expect(Object.keys(ERROR_CODES)).to.include(r.body.error);
        expect(['days_invalid', 'step_min_invalid', 'days_beyond_plan']).to.include(r.body.error);
      }),
      { numRuns: 60 },
    );
  });

  it('/usage features tell the truth: equity, report and replay on every plan, breakdowns and ai on paid ones', async () => {
    const free = await createTrader(stack.mod, { plan: 'free' });
    const max = await createTrader(stack.mod, { plan: 'max' });
    const freeFeatures = (await get(free, '/usage')).body.features as Record<string, unknown>;
    expect(freeFeatures).to.include({ equity: true, report: true, report_breakdowns: false, ai: false, replay: true });
    const maxFeatures = (await get(max, '/usage')).body.features as Record<string, unknown>;
    expect(maxFeatures).to.include({ equity: true, report: true, report_breakdowns: true, ai: true, replay: true });
    // and the routes they name answer as they say
    expect((await get(max, '/report')).body.breakdowns).to.equal(true);
    expect((await post(free, '/ai', { symbol: 'BTC', interval: '1h', question: 'long?' })).status).to.equal(402);
    expect((await post(max, '/ai', {})).status).to.equal(400);
    // no replay running: the route answers that none runs, not the unknown path's 404
    const replay = await get(max, '/replay');
    expect([replay.status, replay.body]).to.deep.equal([200, { running: false }]);
  });
});
