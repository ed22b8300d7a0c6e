// @three-masters: sealed secrets read by BullMQ webhook jobs, outbox relay across masters
/**
 * Webhook deliveries signed over their send time (X-PD-Signature-V2), checked by the TypeScript client's verifier with
 * a tolerance, beside the spec's X-PD-Signature; and webhook secrets stored sealed, a hook stored in clear before that
 * still delivering and being sealed when read.
 */
import { expect } from 'chai';
import { verifyWebhook } from '../../clients/typescript/src/index.js';
import { configWith } from '../../shared/config.js';
import { SecretBox } from '../../shared/core/secret-box.js';
import { keys } from '../../shared/redis/keys.js';
import { waitFor } from '../helpers/market-wait.js';
import { signatureVerifies, useWebhookStack, type ReceivedDelivery } from '../helpers/push.js';
import { botCall, createTrader, TestPrices, type Trader } from '../helpers/trading.js';

type Body = Record<string, unknown> & { webhook?: { id: string; secret: string }; signature?: Record<string, unknown> };

describe('webhooks: timestamped signatures and sealed secrets', function () {
  this.timeout(60_000);
  const env = { PUBLIC_RATE_LIMIT: '1000000', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '50', RELAY_SCAN_MS: '200' };
  const stack = useWebhookStack(env);
  let trader: Trader;

  beforeEach(async () => {
    await new TestPrices(stack.redis).set({ BTCUSDT: 60000 });
    trader = await createTrader(stack.mod, { plan: 'pro' });
    stack.receiver.received.length = 0;
  });

  const call = (method: 'GET' | 'POST', path: string, body?: unknown) => botCall<Body>(stack.api.url, trader, method, path, body);
  const addHook = async (): Promise<{ id: string; secret: string }> => {
    const r = await call('POST', '/webhooks', { act: 'add', url: `${stack.receiver.url}/hook`, events: ['position.opened'] });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body.webhook!;
  };
  const openAndReceive = async (): Promise<ReceivedDelivery> => {
    const opened = await call('POST', '/open', { symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10 });
    expect(opened.status, JSON.stringify(opened.body)).to.equal(200);
    await waitFor(() => stack.receiver.received.length >= 1, 10_000, 'a delivery');
    return stack.receiver.received[0];
  };
  const verify = (delivery: ReceivedDelivery, secret: string, extra: { rawBody?: string; now?: number; header?: string } = {}) =>
    verifyWebhook({
      rawBody: extra.rawBody ?? delivery.body,
      headers: extra.header === undefined ? delivery.headers : { ...delivery.headers, 'x-pd-signature-v2': extra.header },
      secret,
      ...(extra.now !== undefined ? { now: extra.now } : {}),
    });

  it('signs the send time with the body; the client accepts the delivery now and refuses it replayed, altered or re-timed', async () => {
    const hook = await addHook();
    const delivery = await openAndReceive();
    expect(signatureVerifies(delivery, hook.secret)).to.equal(true);
    const t = Number(delivery.headers['x-pd-timestamp']);
    expect(delivery.headers['x-pd-signature-v2']).to.match(new RegExp(`^t=${t},v1=[0-9a-f]{64}$`));
    expect(await verify(delivery, hook.secret)).to.deep.equal({ ok: true, timestamp: t });
    expect(await verify(delivery, hook.secret, { now: t + 4 * 60_000 })).to.include({ ok: true });
    expect(await verify(delivery, hook.secret, { now: t + 6 * 60_000 })).to.deep.equal({ ok: false, reason: 'stale_timestamp' });
    expect(await verify(delivery, 'whs_wrong')).to.deep.equal({ ok: false, reason: 'bad_signature' });
    expect(await verify(delivery, hook.secret, { rawBody: `${delivery.body} ` })).to.deep.equal({ ok: false, reason: 'bad_signature' });
    // a replay with a fresh t but the old v1 does not verify
    const v1 = String(delivery.headers['x-pd-signature-v2']).split(',v1=')[1];
    const now = t + 60 * 60_000;
    expect(await verify(delivery, hook.secret, { header: `t=${now},v1=${v1}`, now })).to.deep.equal({ ok: false, reason: 'bad_signature' });
    expect(await verify(delivery, hook.secret, { header: 'sha256=abc' })).to.deep.equal({ ok: false, reason: 'malformed_signature' });
    const listed = await call('GET', '/webhooks');
    expect(listed.body.signature).to.deep.include({ header: 'X-PD-Signature' });
    expect((listed.body.signature as { timestamped: { header: string } }).timestamped.header).to.equal('X-PD-Signature-V2');
  });

  it('stores the secret sealed: Redis holds no clear secret, and the sealed text opens only for its hook and key', async () => {
    const hook = await addHook();
    const stored = (await stack.redis.hget(keys.accountWebhooks(trader.accountId), hook.id))!;
    expect(stored).to.not.contain(hook.secret);
    expect(stored).to.not.contain(hook.secret.slice(4, 20));
    expect(JSON.parse(stored)).to.have.property('sealed_secret').that.matches(/^v1\./);
    expect(JSON.parse(stored)).to.not.have.property('secret');
    const delivery = await openAndReceive();
    expect(await verify(delivery, hook.secret)).to.include({ ok: true });
    // the sealed text is bound to its account and hook: under another hook's id it does not open
    const box = new SecretBox(configWith().webhookSecretsKey);
    const sealed = (JSON.parse(stored) as { sealed_secret: string }).sealed_secret;
    expect(box.open(sealed, trader.accountId, hook.id)).to.equal(hook.secret);
    expect(() => box.open(sealed, trader.accountId, 'whOtherHook000001')).to.throw();
    expect(() => new SecretBox(Buffer.alloc(32, 1)).open(sealed, trader.accountId, hook.id)).to.throw();
  });

  it('keeps delivering a hook stored with its secret in clear, and seals it when first read', async () => {
    const secret = 'whs_ClearSecretStoredBeforeSealing0000000000';
    const legacy = {
      id: 'whLegacyHook00001',
      url: `${stack.receiver.url}/legacy`,
      secret,
      events: ['position.opened'],
      book: null,
      created: 1,
    };
    await stack.redis.hset(keys.accountWebhooks(trader.accountId), legacy.id, JSON.stringify(legacy));
    const delivery = await openAndReceive();
    expect(signatureVerifies(delivery, secret)).to.equal(true);
    expect(await verify(delivery, secret)).to.include({ ok: true });
    const stored = (await stack.redis.hget(keys.accountWebhooks(trader.accountId), legacy.id))!;
    expect(stored).to.not.contain(secret);
    expect(JSON.parse(stored)).to.include({ id: legacy.id, url: legacy.url });
    // sealed, it still signs with the same secret
    stack.receiver.received.length = 0;
    const again = await openAndReceive();
    expect(signatureVerifies(again, secret)).to.equal(true);
  });
});
