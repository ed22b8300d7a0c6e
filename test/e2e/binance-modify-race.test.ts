// Binance's Modify Order (PUT /fapi/v1/order) racing the candle fill of the same resting LIMIT: one of them wins, the
// other sees it (the modify answers -2011, or the fill finds the order moved), never both, never a 5xx (issue #42).
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { configWith } from '../../shared/config.js';
import { watermarkAfter } from '../../shared/engine/order-rules.js';
import { createAccountServices } from '../../shared/paper/accounts/account-services.js';
import { getJson } from '../helpers/app.js';
import { useOrderFixture } from '../helpers/order-fixture.js';

type Body = Record<string, unknown> & { code?: number };

/** Lets `n` turns of the event loop pass (I/O callbacks included): no timer, only ordering. */
async function yieldTurns(n: number): Promise<void> {
  for (let i = 0; i < n; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe('Binance USDⓈ-M dialect: Modify Order racing a fill', function () {
  this.timeout(60_000);
  const fx = useOrderFixture();

  it('a modify and a fill of one LIMIT, raced ten times: either the modify applies and nothing fills, or it fills and the modify is -2011', async () => {
    const accounts = createAccountServices({ redis: fx.redis, secretsKey: configWith().webhookSecretsKey });
    /** A signed call on the API's clock (the fixture's, minutes behind the wall's). */
    const signed = (key: { apiKey: string; secret: string }, method: string, params: Record<string, string>) => {
      const query = new URLSearchParams({ ...params, timestamp: String(fx.clock.now()) }).toString();
      const signature = createHmac('sha256', key.secret).update(query).digest('hex');
      return getJson<Body>(`${fx.api.url}/fapi/v1/order?${query}&signature=${signature}`, {
        method,
        headers: { 'X-MBX-APIKEY': key.apiKey },
      });
    };
    const outcomes: string[] = [];
    for (let round = 0; round < 10; round += 1) {
      const created = await accounts.service.createKey({ email: `race${round}-${Date.now()}@example.org`, plan: 'business', secret: true });
      const key = { apiKey: created.apiKey, secret: created.secret ?? '' };
      const placed = await signed(key, 'POST', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '60000' });
      expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
      const minute = watermarkAfter(Number(placed.body.time));
      // the candle reaches 60,000 (the order's level) but not 59,000 (the modified one)
      const [modified, fill] = await Promise.all([
        signed(key, 'PUT', { symbol: 'BTCUSDT', orderId: String(placed.body.orderId), side: 'BUY', quantity: '0.01', price: '59000' }),
        // the fill starts a few turns of the event loop later each round, so the two meet at different steps
        yieldTurns(round * 4).then(() => fx.candle('BTCUSDT', minute, 59500, 60500)),
      ]);
      const read = await signed(key, 'GET', { symbol: 'BTCUSDT', orderId: String(placed.body.orderId) });
      const answer = `${modified.status} ${modified.body.code ?? modified.body.price}`;
      if (fill.filled === 1) {
        expect(answer, `round ${round}`).to.equal('400 -2011');
        expect(read.body.status).to.equal('FILLED');
        outcomes.push('filled');
      } else {
        expect(answer, `round ${round}`).to.equal('200 59000');
        expect([read.body.status, read.body.price]).to.deep.equal(['NEW', '59000']);
        outcomes.push('modified');
      }
    }
    // both orders of events happen over ten rounds on this machine; each one alone would be a valid run too
    expect(outcomes).to.have.length(10);
  });
});
