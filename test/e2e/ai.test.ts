import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { roundPrice } from '../../shared/screener/score.js';
import { startTestApi, type TestApi } from '../helpers/app.js';
import { minuteSeries, seedCandles, seedDerivatives } from '../helpers/market-seed.js';
import { botCall, createTrader, useTradingFixture, type Trader } from '../helpers/trading.js';

interface AiBody {
  ok?: boolean;
  error?: string;
  answer: string;
  plan: { bias: string; entry: number; stop: number; targets: number[]; leverage: number } | null;
  bias: string;
  analyst: string;
  fallback_reason?: string;
  reads: { used: number; limit: number; left: number };
  brief: {
    symbol: string;
    interval_minutes: number;
    price: { price: number };
    indicators: { source: string; timeframe: string; atr: number; rsi: number; score: number } | null;
    derivatives: { funding_rate_pct: number | null; long_pct: number | null };
    macro: { next_events: { impact: number; in_hours: number }[] };
    missing: string[];
  };
  plan_needed?: string;
  retry_after?: number;
  limit?: number;
}

const QUESTION = { symbol: 'BTC', interval: '1', question: 'Is a long worth it here?' };
// 250 one-minute bars rising +35, +35, -40: RSI about 64 and a screener score about 90; the last close 62525
const SERIES = { first: 60000, steps: [35, 35, -40], last: 62525 };

describe('/ai: answers from the brief, paid plans, daily reads per account', function () {
  this.timeout(60_000);
  const stack = useTradingFixture({ BTCUSDT: SERIES.last });
  before(async () => {
    await seedCandles(stack.redis, 'BTCUSDT', minuteSeries(250, SERIES.first, SERIES.steps));
    await seedDerivatives(stack.redis, { BTCUSDT: { fundingRate: 0.0001, oiUsd: 9e9, longPct: 50 } });
  });
  const ask = (who: Trader, body: unknown = QUESTION, version: 'v1' | 'v2' = 'v1') =>
    botCall<AiBody>(stack.api.url, who, 'POST', '/ai', body, version);

  it('answers Free with 402 plan_required (v1 flat, v2 envelope), reading nothing', async () => {
    const free = await createTrader(stack.mod, { plan: 'free' });
    const r = await ask(free);
    expect(r.status).to.equal(402);
    expect(r.body).to.include({ error: 'plan_required', plan_needed: 'pro' });
    const v2 = await botCall<{ ok: boolean; error: { code: string } }>(stack.api.url, free, 'POST', '/ai', QUESTION, 'v2');
    expect([v2.status, v2.body.ok, v2.body.error.code]).to.deep.equal([402, false, 'plan_required']);
  });

  it('answers a paid plan from the brief: indicators on the asked interval, derivatives, a plan by the setup rule', async () => {
    const pro = await createTrader(stack.mod, { plan: 'pro' });
    const r = await ask(pro);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    const { brief, plan } = r.body;
    expect(r.body.analyst).to.equal('built-in');
    expect(r.body.reads).to.deep.equal({ used: 1, limit: 50, left: 49 });
    expect(brief.symbol).to.equal('BTCUSDT');
    expect(brief.price.price).to.equal(SERIES.last);
    expect(brief.indicators).to.include({ source: 'candles', timeframe: '1m' });
    expect(brief.indicators!.score).to.be.at.least(70);
    expect(brief.indicators!.rsi).to.be.within(55, 75);
    expect(brief.derivatives).to.include({ funding_rate_pct: 0.01, long_pct: 50 });
    expect(r.body.bias).to.equal('long');
    // the plan is withheld only by the macro rule (a high-impact event within 24 h of the real clock)
    const macroGuard = brief.macro.next_events.some((e) => e.impact === 3 && e.in_hours < 24);
    if (macroGuard) {
      expect(plan).to.equal(null);
    } else {
      // stop 1.5 ATR below the entry, targets at 1R, 2R, 3R (the screener's setup rule)
      const risk = 1.5 * brief.indicators!.atr;
      expect(plan).to.deep.equal({
        bias: 'long',
        entry: SERIES.last,
        stop: roundPrice(SERIES.last - risk),
        targets: [1, 2, 3].map((r) => roundPrice(SERIES.last + r * risk)),
        leverage: 20,
      });
    }
    expect(r.body.answer.split('\n')[0]).to.match(/^BTCUSDT 1m: bias long/);
    const v2 = await botCall<{ ok: boolean; data: AiBody }>(stack.api.url, pro, 'POST', '/ai', { ...QUESTION, lang: 'es' }, 'v2');
    expect(v2.body.ok).to.equal(true);
    expect(v2.body.data.answer).to.match(/^BTCUSDT 1m: sesgo alcista/);
    expect(v2.body.data.reads.used).to.equal(2);
  });

  it('refuses bad input by name, and an unknown symbol costs no read', async () => {
    const pro = await createTrader(stack.mod, { plan: 'pro' });
    expect((await ask(pro, { symbol: 'BTC' })).body).to.include({ error: 'missing_param', param: 'question' });
    expect((await ask(pro, { ...QUESTION, interval: '7' })).body).to.include({ error: 'bad_interval', param: 'interval' });
    expect((await ask(pro, { ...QUESTION, interval: 7 })).body).to.include({ error: 'bad_interval', param: 'interval' });
    expect((await ask(pro, { question: 'x' })).body).to.include({ error: 'symbol_required' });
    expect((await ask(pro, { ...QUESTION, lang: 'fr' })).body).to.include({ error: 'invalid_param', param: 'lang' });
    const unknown = await ask(pro, { ...QUESTION, symbol: 'NOPECOIN' });
    expect([unknown.status, unknown.body.error]).to.deep.equal([404, 'unknown_symbol']);
    expect((await ask(pro)).body.reads.used).to.equal(1);
  });

  it('takes interval as a JSON number of minutes as well as a string', async () => {
    const pro = await createTrader(stack.mod, { plan: 'pro' });
    const asNumber = await ask(pro, { ...QUESTION, interval: 60 });
    expect(asNumber.status).to.equal(200);
    expect(asNumber.body.brief.interval_minutes).to.equal(60);
  });

  it('counts 50 reads a day per Pro account across its keys, even when 60 race on two keys; other accounts keep theirs', async () => {
    const email = `ai-quota-${Date.now()}@example.org`;
    const first = await createTrader(stack.mod, { plan: 'pro', email });
    const second = await createTrader(stack.mod, { plan: 'pro', email });
    expect(second.accountId).to.equal(first.accountId);
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => ask(i % 2 === 0 ? first : second)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).to.have.length(50);
    expect(statuses.filter((s) => s === 429)).to.have.length(10);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.body).to.include({ error: 'ai_quota_exceeded', limit: 50 });
    expect(refused.body.retry_after).to.be.within(1, 86_400);
    expect(refused.headers.get('retry-after')).to.equal(String(refused.body.retry_after));
    expect(answers.filter((a) => a.status === 200).map((a) => a.body.reads.used)).to.have.members(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    const other = await createTrader(stack.mod, { plan: 'max' });
    expect((await ask(other)).body.reads).to.deep.equal({ used: 1, limit: 200, left: 199 });
  });

  describe('with an OpenAI-compatible provider configured (a fake one on loopback)', () => {
    let provider: Server;
    let api: TestApi;
    let mode: 'good' | 'slow' | 'garbage' | 'wrong-side' | 'error' | 'hangup' = 'good';
    const received: { auth?: string; body: { model: string; messages: { role: string; content: string }[] } }[] = [];
    const content = () =>
      mode === 'garbage'
        ? 'I think you should buy, probably.'
        : JSON.stringify({
            answer: 'Provider: the trend is up; a long is reasonable.',
            plan: { bias: 'long', entry: 62525, stop: mode === 'wrong-side' ? 63000 : 62400, targets: [62650, 62775], leverage: 10 },
          });
    const readBody = async (req: IncomingMessage): Promise<string> => {
      let text = '';
      for await (const chunk of req) text += String(chunk);
      return text;
    };

    before(async () => {
      provider = createServer(async (req, res) => {
        received.push({ auth: req.headers.authorization, body: JSON.parse(await readBody(req)) as (typeof received)[number]['body'] });
        if (mode === 'slow') await new Promise((resolve) => setTimeout(resolve, 1_500));
        if (mode === 'error') {
          res.writeHead(500).end('{"error":"down"}');
          return;
        }
        if (mode === 'hangup') {
          req.socket.destroy();
          return;
        }
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: content() } }] }));
      });
      await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
      const { port } = provider.address() as AddressInfo;
      api = await startTestApi(stack.redis, {
        PUBLIC_RATE_LIMIT: '1000000',
        AI_BASE_URL: `http://127.0.0.1:${port}/v1`,
        AI_MODEL: 'fake-model',
        AI_API_KEY: 'sk-test-123',
        AI_TIMEOUT_MS: '300',
      });
    });
    after(async () => {
      await api?.close();
      provider?.closeAllConnections();
      await new Promise((resolve) => provider?.close(resolve));
    });

    const askProvider = async () => {
      const trader = await createTrader(stack.mod, { plan: 'business' });
      return botCall<AiBody>(api.url, trader, 'POST', '/ai', QUESTION);
    };

    it('uses the provider answer when it is well formed, having sent it the brief and the question', async () => {
      mode = 'good';
      received.length = 0;
      const r = await askProvider();
      expect(r.body.analyst).to.equal('provider:fake-model');
      expect(r.body.answer).to.equal('Provider: the trend is up; a long is reasonable.');
      expect(r.body.plan).to.deep.equal({ bias: 'long', entry: 62525, stop: 62400, targets: [62650, 62775], leverage: 10 });
      expect(received).to.have.length(1);
      expect(received[0].auth).to.equal('Bearer sk-test-123');
      expect(received[0].body.model).to.equal('fake-model');
      const user = JSON.parse(received[0].body.messages.find((m) => m.role === 'user')!.content) as {
        question: string;
        brief: { symbol: string };
      };
      expect([user.question, user.brief.symbol]).to.deep.equal([QUESTION.question, 'BTCUSDT']);
    });

    for (const [failing, reason] of [
      ['slow', /timed out/],
      ['garbage', /not JSON/],
      ['wrong-side', /wrong side/],
      ['error', /HTTP 500/],
      ['hanging up', /^the provider could not be reached$/],
    ] as const) {
      it(`falls back to the built-in analyst when the provider is ${failing}, and says so`, async () => {
        mode = failing === 'hanging up' ? 'hangup' : failing;
        const r = await askProvider();
        expect(r.status).to.equal(200);
        expect(r.body.analyst).to.equal('built-in');
        expect(r.body.fallback_reason).to.match(reason);
        // a plain phrase: the provider's address and its client's error text go to the log only
        expect(r.body.fallback_reason).to.not.match(/127\.0\.0\.1|https?:|socket|ECONN/i);
        expect(r.body.answer).to.match(/^BTCUSDT 1m: bias long/);
      });
    }
  });
});
