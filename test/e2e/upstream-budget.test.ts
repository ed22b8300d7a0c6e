// @three-masters: the per-venue token bucket (a Lua script) and the history windows, shared by pods
/**
 * What a client's calls cost the exchanges: REST history in cached aligned windows (empty ones too, for a while),
 * concurrent asks for one window joined, and a budget per venue shared by every API pod for the calls users drive,
 * apart from the live feed's own. The simulated exchange counts the REST requests it is sent.
 */
import { expect } from 'chai';
import { QUEUES } from '../../shared/queues/queue-names.js';
import { screenerProcessor } from '../../workers/processors/screener/screener-processor.js';
import { getJson, startTestApi } from '../helpers/app.js';
import { useSimStack, type SimHandle } from '../helpers/market-sim.js';
import { waitFor } from '../helpers/market-wait.js';
import { accountServices, botCall, createTrader, TestPrices } from '../helpers/trading.js';

const DAY = 86_400_000;
const MINUTE = 60_000;
/** A minute with history on the sim's Binance (a random walk per past day), far from any other test's. */
const PAST = Date.UTC(2025, 0, 15, 12);
/** Before the sim has any history. */
const BEFORE_HISTORY = Date.UTC(2019, 0, 5, 12);

interface Envelope<T> {
  data: T;
  error?: { code: string };
}
type Rows = { time: number }[];

/** Candle REST requests each venue of the sim was sent so far. */
async function candleHits(sim: SimHandle): Promise<Record<string, number>> {
  const { hits } = (await (await fetch(`${sim.url}/__sim/hits`)).json()) as { hits: Record<string, number> };
  const byVenue: Record<string, number> = { binance: 0, bybit: 0, okx: 0, bitget: 0 };
  for (const [hit, count] of Object.entries(hits)) {
    const [venue = '', path = ''] = hit.split(' ');
    if (/kline|candle/.test(path)) byVenue[venue] = (byVenue[venue] ?? 0) + count;
  }
  return byVenue;
}

const total = (hits: Record<string, number>): number => Object.values(hits).reduce((sum, n) => sum + n, 0);

/** The requests the calls in `run` cost each venue. */
async function costOf(sim: SimHandle, run: () => Promise<unknown>): Promise<Record<string, number>> {
  const before = await candleHits(sim);
  await run();
  const after = await candleHits(sim);
  return Object.fromEntries(Object.entries(after).map(([venue, n]) => [venue, n - (before[venue] ?? 0)]));
}

describe('upstream budgets: what a client costs the exchanges', function () {
  this.timeout(60_000);

  describe('history windows', () => {
    const stack = useSimStack({ env: { PUBLIC_RATE_LIMIT: '100000', UPSTREAM_REST_BURST: '1000' } });
    before(() => new TestPrices(stack.redis).set({ BTCUSDT: 70_000, ETHUSDT: 3_000 }));
    const klines = (query: string) => getJson<Envelope<Rows>>(`${stack.api.url}/api/v1/klines?${query}`);

    it('serves 40 past daily pages from one window: one request to the exchange, then none while it is cached', async () => {
      const cost = await costOf(stack.sim, async () => {
        for (let back = 1; back <= 40; back++) {
          const page = await klines(`symbol=BTC&interval=1d&limit=20&end=${PAST - back * DAY}`);
          expect(page.status).to.equal(200);
          expect(page.body.data).to.have.length(20);
          expect(page.body.data.at(-1)?.time).to.equal(Math.floor((PAST - back * DAY) / DAY) * 86_400);
        }
      });
      expect(cost).to.deep.equal({ binance: 1, bybit: 0, okx: 0, bitget: 0 });
    });

    it('keeps an empty answer for a while: asking again for a range with no candles asks no exchange', async () => {
      const first = await costOf(stack.sim, () => klines(`symbol=ETH&interval=1&limit=10&end=${BEFORE_HISTORY}`));
      expect(total(first), 'the first ask tries every venue').to.be.at.least(4);
      const again = await costOf(stack.sim, async () => {
        for (let i = 0; i < 5; i++) {
          const page = await klines(`symbol=ETH&interval=1&limit=10&end=${BEFORE_HISTORY - i * MINUTE}`);
          expect([page.status, page.body.data]).to.deep.equal([200, []]);
        }
      });
      expect(total(again)).to.equal(0);
    });

    it('joins concurrent asks for one window into one request', async () => {
      const end = PAST - 30 * DAY;
      const cost = await costOf(stack.sim, async () => {
        const pages = await Promise.all(Array.from({ length: 12 }, () => klines(`symbol=ETH&interval=60&limit=50&end=${end}`)));
        for (const page of pages) expect(page.body.data).to.have.length(50);
      });
      expect(cost).to.deep.equal({ binance: 1, bybit: 0, okx: 0, bitget: 0 });
    });

    it('keeps an empty day from costing a replay start anything the second time', async () => {
      const trader = await createTrader(accountServices(stack.redis), { plan: 'business' });
      const start = () => botCall<{ error: string }>(stack.api.url, trader, 'POST', '/replay', { symbol: 'ETH', day: '2018-06-01' });
      const first = await costOf(stack.sim, async () => expect((await start()).status).to.equal(404));
      expect(total(first)).to.be.at.least(4);
      const again = await costOf(stack.sim, async () => {
        for (let i = 0; i < 3; i++) expect((await start()).body.error).to.equal('no_data');
      });
      expect(total(again)).to.equal(0);
    });
  });

  describe('the per-venue budget', () => {
    const BURST = 3;
    const env = { PUBLIC_RATE_LIMIT: '100000', UPSTREAM_REST_PER_MIN: '1', UPSTREAM_REST_BURST: String(BURST), SCREENER_SIZE: '4' };
    const stack = useSimStack({ env });
    before(() => new TestPrices(stack.redis).set({ BTCUSDT: 70_000 }));

    it('answers 503 upstream_busy with Retry-After past it, on every pod, and no venue is asked more than it allows', async () => {
      const other = await startTestApi(stack.redis, { ...env, MARKET_SOURCE: 'sim', SIM_URL: stack.sim.url });
      try {
        const answers: { status: number; code?: string; retryAfter: string | null }[] = [];
        const cost = await costOf(stack.sim, async () => {
          for (let page = 0; page < 10; page++) {
            const pod = page % 2 === 0 ? stack.api : other;
            // each page in a window of its own: 1000 minutes apart
            const end = PAST - page * 1_000 * MINUTE;
            const r = await getJson<Envelope<Rows>>(`${pod.url}/api/v1/klines?symbol=BTC&interval=1&limit=5&end=${end}`);
            answers.push({ status: r.status, code: r.body.error?.code, retryAfter: r.headers.get('retry-after') });
          }
        });
        expect(answers.slice(0, BURST).map((a) => a.status)).to.deep.equal([200, 200, 200]);
        for (const refused of answers.slice(BURST)) {
          expect([refused.status, refused.code]).to.deep.equal([503, 'upstream_busy']);
          expect(Number(refused.retryAfter)).to.be.within(1, 60);
        }
        for (const [venue, n] of Object.entries(cost)) expect(n, venue).to.be.at.most(BURST);
      } finally {
        await other.close();
      }
    });

    it("leaves the live feed's own REST calls alone: with the users' budget spent, the feed builds its universe", async () => {
      await stack.redis.del('mkt:{universe}:list');
      await stack.startFeed();
      await waitFor(async () => (await stack.redis.exists('mkt:{universe}:list')) === 1, 20_000, 'the universe from the REST calls');
    });

    it("leaves the service's own screener alone: with the users' budget spent, it scores every symbol from REST history", async () => {
      await stack.startWorker({
        processors: [screenerProcessor],
        schedules: [{ id: 'budget-screener', queue: QUEUES.screener, repeat: { every: 2_000 }, job: { name: 'refresh' } }],
      });
      const screener = await waitFor(
        async () => {
          const r = await getJson<Envelope<{ rows: unknown[]; skipped: string[] }>>(`${stack.api.url}/api/v1/screener`);
          return r.status === 200 ? r.body.data : undefined;
        },
        30_000,
        'the first screener run',
      );
      expect(screener.skipped).to.deep.equal([]);
      expect(screener.rows).to.have.length(4);
    });
  });
});
