import { expect } from 'chai';
import { QUEUES } from '../../shared/queues/queue-names.js';
import { rowFor } from '../../shared/screener/screener-runner.js';
import type { ScreenerRow } from '../../shared/screener/screener-types.js';
import { screenerProcessor } from '../../workers/processors/screener/screener-processor.js';
import { getJson } from '../helpers/app.js';
import { useSimStack } from '../helpers/market-sim.js';
import { waitFor } from '../helpers/market-wait.js';

interface Envelope<T> {
  ok: boolean;
  data: T;
  error?: { code: string };
}
interface Screener {
  timeframe: string;
  intervalMinutes: number;
  bars: number;
  universe: number;
  skipped: string[];
  rows: ScreenerRow[];
  updatedAt: number;
  stale: boolean;
}

/** sim -> feed (universe) -> screener job (1h candles from REST history) -> Redis -> /api/v1/screener. */
describe('screener end to end: sim -> feed -> screener job -> Redis -> API', function () {
  this.timeout(90_000);
  const stack = useSimStack({ env: { PUBLIC_RATE_LIMIT: '1000000', FEED_LEASE_MS: '2000', SCREENER_SIZE: '6' }, feed: true });
  before(async () => {
    await waitFor(
      async () => (await getJson<Envelope<{ count: number }>>(`${stack.api.url}/api/v1/symbols`)).body.data?.count > 0,
      20_000,
      'the symbol universe',
    );
  });

  it('answers 503 upstream_unavailable before the first run', async () => {
    const r = await getJson<Envelope<never>>(`${stack.api.url}/api/v1/screener`);
    expect([r.status, r.body.error?.code]).to.deep.equal([503, 'upstream_unavailable']);
  });

  it('scores the top perpetuals by volume on 1h bars, with consistent verdicts and setups', async () => {
    await stack.startWorker({
      processors: [screenerProcessor],
      schedules: [{ id: 'test-screener', queue: QUEUES.screener, repeat: { every: 2_000 }, job: { name: 'refresh' } }],
    });
    const r = await waitFor(
      async () => {
        const res = await getJson<Envelope<Screener>>(`${stack.api.url}/api/v1/screener`);
        return res.status === 200 ? res.body.data : undefined;
      },
      40_000,
      'the first screener run',
      200,
    );
    expect(r).to.include({ timeframe: '1h', intervalMinutes: 60, bars: 250, universe: 6, stale: false });
    const symbols = (await getJson<Envelope<{ symbols: string[] }>>(`${stack.api.url}/api/v1/symbols`)).body.data.symbols.slice(0, 6);
    expect(r.rows.map((row) => row.symbol)).to.deep.equal(symbols.filter((s) => !r.skipped.includes(s)));
    expect(r.rows.length).to.be.at.least(5);
    for (const row of r.rows) {
      expect(row.score, row.symbol).to.be.within(0, 100);
      expect(row.verdict).to.equal(row.score >= 50 ? 'bullish' : 'bearish');
      expect(row.decisive).to.equal(row.score >= 70 || row.score <= 30);
      expect(row.rsi).to.be.within(0, 100);
      expect(row.macd).to.have.keys(['macd', 'signal', 'histogram']);
      expect(['up', 'down', 'sideways']).to.include(row.trend);
      expect(row.ema.ema200).to.be.a('number');
      if (row.setup) {
        expect(row.setup.dir).to.equal(row.score >= 70 ? 'long' : 'short');
        expect(row.setup.entry).to.equal(row.price);
      } else if (row.decisive) {
        expect(row.setup).to.equal(null);
      }
    }
  });

  it('is the pure score of the same candles /api/v1/klines serves', async () => {
    const screener = (await getJson<Envelope<Screener>>(`${stack.api.url}/api/v1/screener`)).body.data;
    const row = screener.rows[0];
    const klines = await getJson<Envelope<{ time: number; open: number; high: number; low: number; close: number; volume: number }[]>>(
      `${stack.api.url}/api/v1/klines?symbol=${row.symbol}&interval=60&limit=250&end=${screener.updatedAt}`,
    );
    const candles = klines.body.data.map((k) => ({
      openTime: k.time * 1000,
      open: k.open,
      high: k.high,
      low: k.low,
      close: k.close,
      volume: k.volume,
      closed: true,
    }));
    expect(candles).to.have.length(250);
    expect(rowFor(row.symbol, candles)).to.deep.equal(row);
  });
});
