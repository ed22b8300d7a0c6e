// @three-masters: whsink-record over three keys, sink keys found by scan
import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { systemClock } from '../../shared/core/clock.js';
import { request } from 'node:http';
import { WebhookSender } from '../../shared/push/webhook-sender.js';
import { WHSINK_KEEP, WHSINK_MAX_RECORD, WhsinkStore } from '../../shared/push/whsink-store.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { startTestApi, type TestApi } from '../helpers/app.js';
import { freshRedis, keysMatching } from '../helpers/redis.js';

interface Answer {
  status: number;
  code?: string;
  retryAfter: number | null;
}

describe('whsink: its own budget per address, and bounded storage', function () {
  this.timeout(30_000);
  let redis: RedisClient;
  let api: TestApi;
  // what the store holds, read without going through the (metered) API
  let store: WhsinkStore;

  beforeEach(async () => {
    redis = await freshRedis();
    api = await startTestApi(redis, {
      PUBLIC_RATE_LIMIT: '3',
      WHSINK_RATE_LIMIT: '5',
      WHSINK_MAX_SINKS: '3',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    store = new WhsinkStore(redis, systemClock, { perMinute: 5, maxSinks: 3, perClient: 20 });
  });
  afterEach(async () => {
    await api.close();
    await closeRedis(redis);
  });

  const sinkUrl = (token: string): string => `${api.url}/api/whsink/${token}`;
  const post = async (token: string, body = '{"event":"ping"}'): Promise<Answer> => {
    const response = await fetch(sinkUrl(token), { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    const json = (await response.json()) as { error?: { code: string } };
    const retryAfter = response.headers.get('retry-after');
    return { status: response.status, code: json.error?.code, retryAfter: retryAfter === null ? null : Number(retryAfter) };
  };
  /** Bytes Redis spends on every whsink key. */
  const whsinkMemory = async (): Promise<{ keys: number; bytes: number }> => {
    const names = await keysMatching(redis, 'whsink:*');
    let bytes = 0;
    for (const name of names) bytes += (await redis.memory('USAGE', name)) ?? 0;
    return { keys: names.length, bytes };
  };

  it('takes deliveries on the address budget while the sender IP has spent its keyless budget', async () => {
    for (let call = 1; call <= 4; call += 1) {
      const response = await fetch(`${api.url}/api/v1/ping`);
      await response.arrayBuffer();
      expect(response.status, `ping ${call}`).to.equal(call <= 3 ? 200 : 429);
    }
    const token = 'demo_sink_0123456789';
    const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 2_000 });
    try {
      for (let i = 0; i < 3; i += 1) {
        const result = await sender.send(sinkUrl(token), `{"n":${i}}`, {
          'content-type': 'application/json',
          'x-pd-event': 'position.opened',
        });
        expect(result, `delivery ${i}`).to.include({ ok: true, status: 200 });
      }
    } finally {
      await sender.close();
    }
    expect((await store.list(token)).deliveries.map((d) => d.body)).to.deep.equal(['{"n":2}', '{"n":1}', '{"n":0}']);
    // reading the address is a keyless call like any other
    const echo = await fetch(sinkUrl(token));
    await echo.arrayBuffer();
    expect(echo.status).to.equal(429);
  });

  it('answers 429 whsink_rate_limited past one address budget, and 413 for a delivery too large to keep', async () => {
    const token = 'one_sink_0123456789';
    const answers: Answer[] = [];
    for (let i = 0; i < 8; i += 1) answers.push(await post(token, `{"n":${i}}`));
    expect(answers.slice(0, 5).map((a) => a.status)).to.deep.equal([200, 200, 200, 200, 200]);
    for (const refused of answers.slice(5)) {
      expect(refused).to.include({ status: 429, code: 'whsink_rate_limited' });
      expect(refused.retryAfter).to.be.within(1, 60);
    }
    expect((await store.list(token)).deliveries).to.have.length(5);
    expect((await post('other_sink_0123456789')).status, 'another address has its own budget').to.equal(200);

    // a body that escapes to more than a record may hold, and one over the 64 KB a request may carry
    expect(await post('big_sink_0123456789', '\u0001'.repeat(16 * 1024))).to.include({ status: 413, code: 'payload_too_large' });
    expect(await post('big_sink_0123456789', 'x'.repeat(70 * 1024))).to.include({ status: 413, code: 'payload_too_large' });
  });

  it('holds at most WHSINK_MAX_SINKS addresses: a new one past it answers 429 whsink_full, and memory stays bounded', async () => {
    await api.close();
    // a budget per address large enough to fill each one
    api = await startTestApi(redis, { WHSINK_RATE_LIMIT: '100', WHSINK_MAX_SINKS: '3' });
    const big = JSON.stringify({ pad: 'x'.repeat(16 * 1024) });
    const tokens = Array.from({ length: 12 }, (_, i) => `flood_sink_${String(i).padStart(8, '0')}`);
    const answers: Answer[] = [];
    for (const token of tokens) answers.push(await post(token, big));
    expect(answers.slice(0, 3).map((a) => a.status)).to.deep.equal([200, 200, 200]);
    for (const refused of answers.slice(3)) {
      expect(refused).to.include({ status: 429, code: 'whsink_full' });
      expect(refused.retryAfter).to.be.within(1, 900);
    }
    for (const token of tokens.slice(0, 3)) {
      for (let i = 0; i < 30; i += 1)
        expect((await post(token, big)).status, 'an address already held keeps taking deliveries').to.equal(200);
      expect((await store.list(token)).deliveries).to.have.length(WHSINK_KEEP);
    }
    // each held address: its list and its rate count; the index of held addresses and the client's count of new ones
    const { keys, bytes } = await whsinkMemory();
    expect(keys).to.equal(3 * 2 + 2);
    expect(bytes).to.be.below(3 * WHSINK_KEEP * WHSINK_MAX_RECORD);
    for (const token of tokens.slice(3)) expect((await store.list(token)).deliveries, 'a refused address wrote nothing').to.have.length(0);
  });

  it('gives each client a budget of new addresses: one client cannot take the whole cap, and another still gets one', async () => {
    await api.close();
    api = await startTestApi(redis, { WHSINK_RATE_LIMIT: '100', WHSINK_MAX_SINKS: '4', WHSINK_CLIENT_MAX_SINKS: '2' });
    // a second client: the same loopback, another source address
    const postFrom = (token: string): Promise<Answer> =>
      new Promise((resolve, reject) => {
        const { hostname, port } = new URL(api.url);
        const req = request({ host: hostname, port, path: `/api/whsink/${token}`, method: 'POST', localAddress: '127.0.0.2' }, (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += String(chunk)));
          res.on('end', () => {
            const json = JSON.parse(text) as { error?: { code: string } };
            resolve({ status: res.statusCode ?? 0, code: json.error?.code, retryAfter: Number(res.headers['retry-after'] ?? NaN) });
          });
        });
        req.on('error', reject);
        req.end('{}');
      });
    const tokens = Array.from({ length: 5 }, (_, i) => `greedy_sink_${String(i).padStart(8, '0')}`);
    const answers: Answer[] = [];
    for (const token of tokens) answers.push(await post(token));
    expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 429, 429, 429]);
    for (const refused of answers.slice(2)) {
      expect(refused.code).to.equal('whsink_client_limit');
      expect(refused.retryAfter).to.be.within(1, 900);
    }
    expect((await post(tokens[0])).status, 'its own addresses keep taking deliveries').to.equal(200);
    const first = await postFrom('patient_sink_00000001');
    expect(first, JSON.stringify(first)).to.include({ status: 200 });
    expect(await postFrom('patient_sink_00000002')).to.include({ status: 200 });
    expect((await store.list(tokens[2])).deliveries, 'a refused address wrote nothing').to.have.length(0);
  });
});
