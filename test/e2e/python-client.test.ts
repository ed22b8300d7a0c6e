/**
 * The Python client (clients/python) against the whole stack on loopback: the simulated exchange, the feed, a worker
 * and the API. pytest runs the client's own tests (typed answers, errors, retries, ETag, paging, the stream with its
 * reconnects, webhook signatures) and the example bot on a market the tests move through the sim.
 */
import { expect } from 'chai';
import { simControl, TRADING_SIM_ENV, useSimStack } from '../helpers/market-sim.js';
import { runPytest } from '../helpers/python.js';
import { accountServices, createTrader, waitForOpenEntry } from '../helpers/trading.js';

describe('the Python client against a running stack (pytest)', function () {
  this.timeout(90_000);
  const stack = useSimStack({
    env: {
      ...TRADING_SIM_ENV,
      // a fast stream, recycled every few seconds: the client's reconnect is exercised in every stream test
      STREAM_TICK_MS: '200',
      STREAM_MAX_AGE_MS: '3000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    feed: true,
    worker: {},
  });

  it('passes the client tests and runs the example bot', async () => {
    const accounts = accountServices(stack.redis);
    const trader = await createTrader(accounts);
    // the example bot trades an account of its own: what it did is all its account holds
    const bot = await createTrader(accounts);
    await simControl(stack.sim, 'price', { symbol: 'BTCUSDT', price: 65_000 });
    await waitForOpenEntry(stack.api.url, trader, { symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10 }, 65_000, 'the sim price');
    const run = await runPytest({
      PERPDESK_BASE_URL: stack.api.url,
      PERPDESK_API_KEY: trader.apiKey,
      PERPDESK_BOT_API_KEY: bot.apiKey,
      PERPDESK_SIM_URL: stack.sim.url,
    });
    expect(run.status, run.output).to.equal(0);
    // a test that skipped (a variable not handed on) would pass unseen: every one ran
    expect(run.output, run.output)
      .to.match(/\d+ passed/)
      .and.not.match(/skipped/);
  });
});
