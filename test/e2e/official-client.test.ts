/**
 * The service as the original's official JS client sees it. The requests below are written the way
 * that client makes them (not its code): it keeps ONE ETag for every /positions call whatever the
 * query, resolves a 304 as "nothing changed", sends `fees('')` as POST /fees { venue: "" }, and reads
 * an error's code and HTTP status from the flat v1 body ({ error, message }) or the v2 envelope.
 */
import { expect } from 'chai';
import { getJson, useApiFixture } from '../helpers/app.js';
import { accountServices, botCall, createTrader, TestPrices, type Trader } from '../helpers/trading.js';

type Json = Record<string, unknown>;

interface ClientError {
  code: string;
  message: string;
  status: number;
  extra: Json;
}

/** Reads a failed answer as the client does: an error object (v2) gives code and message; a string (v1) is the code. */
function asClientError(status: number, body: Json): ClientError {
  const error = body.error;
  if (error && typeof error === 'object') {
    const e = error as Json;
    return { code: String(e.code), message: String(e.message), status, extra: e };
  }
  return { code: String(error), message: String(body.hint ?? body.message ?? ''), status, extra: body };
}

/** The client's positions(): sends its one remembered ETag, keeps the newest one; null on 304. */
class PositionsReader {
  private etag: string | null = null;

  constructor(
    private readonly base: string,
    private readonly trader: Trader,
  ) {}

  async positions(query: { status?: string; since?: number } = {}): Promise<{ status: number; positions: Json[] | null }> {
    const params = Object.entries(query)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
      .join('&');
    const r = await botCall<{ data?: { positions: Json[] } }>(
      this.base,
      this.trader,
      'GET',
      `/positions${params ? `?${params}` : ''}`,
      undefined,
      'v2',
      this.etag ? { 'if-none-match': this.etag } : {},
    );
    const etag = r.headers.get('etag');
    if (etag) this.etag = etag;
    return { status: r.status, positions: r.status === 304 ? null : r.body.data!.positions };
  }
}

describe('the official JS client: ETag per query, fees(""), errors with code and status, the bot 404', function () {
  this.timeout(30_000);
  const fixture = useApiFixture({ PUBLIC_RATE_LIMIT: '1000000' });
  let trader: Trader;

  beforeEach(async () => {
    await new TestPrices(fixture.redis).set({ BTCUSDT: 60000 });
    trader = await createTrader(accountServices(fixture.redis));
  });

  it("gives two different /positions queries over the same state two ETags, and answers one query 200 to the other one's ETag", async () => {
    const { url } = fixture.api;
    const get = (path: string, headers: Record<string, string> = {}) => botCall(url, trader, 'GET', path, undefined, 'v1', headers);
    const since = Date.now() - 60_000;
    const queries = [
      '/positions?status=open',
      '/positions?status=closed',
      `/positions?since=${since}`,
      `/positions?status=closed&since=${since}`,
    ];
    // an empty book: every query answers no rows, and yet each has its own tag
    const tags = await Promise.all(queries.map(async (q) => (await get(q)).headers.get('etag')!));
    expect(new Set(tags).size, tags.join(' ')).to.equal(queries.length);
    for (const [i, q] of queries.entries()) {
      expect((await get(q, { 'if-none-match': tags[i] })).status, q).to.equal(304);
      expect((await get(q, { 'if-none-match': tags[(i + 1) % tags.length] })).status, q).to.equal(200);
    }
  });

  it("positions() with the client's one remembered ETag: each new query reads its rows, a repeated one reads null", async () => {
    const { url } = fixture.api;
    const since = Date.now() - 1_000;
    const opened = await botCall<{ position: Json }>(url, trader, 'POST', '/open', {
      symbol: 'BTC',
      side: 'long',
      margin_usd: 100,
      leverage: 5,
    });
    expect(opened.status).to.equal(200);
    const id = opened.body.position.id;
    const client = new PositionsReader(url, trader);
    const ids = (read: { positions: Json[] | null }) => read.positions?.map((p) => p.id) ?? null;
    expect(ids(await client.positions({ status: 'open' }))).to.deep.equal([id]);
    expect(await client.positions({ status: 'open' })).to.deep.equal({ status: 304, positions: null });
    // the same single row under another query: the client has not read this query yet, so it gets it
    const sinceRead = await client.positions({ since });
    expect(sinceRead.status).to.equal(200);
    expect(ids(sinceRead)).to.deep.equal([id]);
    expect((await client.positions({ since })).status).to.equal(304);
    expect((await botCall(url, trader, 'POST', '/close', { id })).status).to.equal(200);
    expect(ids(await client.positions({ status: 'closed' }))).to.deep.equal([id]);
    expect(ids(await client.positions({ status: 'open' }))).to.deep.equal([]);
    // nothing open and nothing closed since now: two empty answers, each read once
    const later = Date.now() + 60_000;
    expect(await client.positions({ status: 'closed', since: later })).to.deep.equal({ status: 200, positions: [] });
    expect(await client.positions({ status: 'open', since: later })).to.deep.equal({ status: 200, positions: [] });
  });

  it("fees('') goes back to the default venue, as fees(null) does", async () => {
    const { url } = fixture.api;
    const fees = (venue?: string | null) =>
      venue === undefined
        ? botCall<{ data: Json }>(url, trader, 'GET', '/fees', undefined, 'v2')
        : botCall<{ data: Json }>(url, trader, 'POST', '/fees', { venue }, 'v2');
    // v2's data is the v1 body without its ok
    expect((await fees('binance')).body.data).to.deep.equal({ fee_venue: 'binance' });
    expect((await fees()).body.data.fee_venue).to.equal('binance');
    expect((await fees('')).body.data).to.deep.equal({ fee_venue: null });
    expect((await fees()).body.data.fee_venue).to.equal(null);
    await fees('bybit');
    expect((await fees(null)).body.data).to.deep.equal({ fee_venue: null });
  });

  it('errors carry the code and the HTTP status the client reads, in v1 (flat) and v2 (envelope)', async () => {
    const { url } = fixture.api;
    const cases: {
      version: 'v1' | 'v2';
      key: Trader | string | null;
      method: 'GET' | 'POST';
      path: string;
      body?: unknown;
      code: string;
      status: number;
    }[] = [
      { version: 'v1', key: null, method: 'GET', path: '/positions', code: 'missing_api_key', status: 401 },
      { version: 'v2', key: null, method: 'GET', path: '/positions', code: 'missing_api_key', status: 401 },
      { version: 'v1', key: 'pd_not_a_key', method: 'GET', path: '/account', code: 'bad_api_key', status: 401 },
      {
        version: 'v2',
        key: trader,
        method: 'POST',
        path: '/open',
        body: { side: 'long', margin_usd: 100 },
        code: 'symbol_required',
        status: 400,
      },
      {
        version: 'v1',
        key: trader,
        method: 'POST',
        path: '/open',
        body: { symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 5000 },
        code: 'leverage_max',
        status: 400,
      },
      { version: 'v2', key: trader, method: 'POST', path: '/fees', body: { venue: 'nowhere' }, code: 'unknown_fee_venue', status: 400 },
      { version: 'v1', key: trader, method: 'POST', path: '/close', body: { id: 'bpnope' }, code: 'position_not_found', status: 404 },
    ];
    for (const c of cases) {
      const r = await botCall<Json>(url, c.key, c.method, c.path, c.body, c.version);
      const label = `${c.version} ${c.method} ${c.path}: ${JSON.stringify(r.body)}`;
      expect(r.status, label).to.equal(c.status);
      if (c.version === 'v1') {
        expect(r.body, label).to.not.have.property('ok');
        expect(r.body.error, label).to.be.a('string');
      } else {
        expect(r.body, label).to.include({ ok: false });
        expect(r.body.ts, label).to.be.a('number');
      }
      const error = asClientError(r.status, r.body);
      expect({ code: error.code, status: error.status }, label).to.deep.equal({ code: c.code, status: c.status });
      expect(error.message, label).to.be.a('string').and.not.equal('');
    }
    const tooHigh = asClientError(
      400,
      (await botCall<Json>(url, trader, 'POST', '/open', { symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 5000 }, 'v1')).body,
    );
    expect(tooHigh.extra).to.include({ requested: 5000 });
    expect(tooHigh.extra.max).to.be.a('number');
  });

  it("answers an unknown bot path 404 not_found with endpoints[], the version's bot routes (v1 flat, v2 in its error)", async () => {
    const { url } = fixture.api;
    const v1 = await botCall<Json>(url, trader, 'GET', '/nope', undefined, 'v1');
    expect(v1.status).to.equal(404);
    expect(v1.body.error).to.equal('not_found');
    const v1Endpoints = v1.body.endpoints as string[];
    expect(v1Endpoints).to.include.members([
      '/api/bot/v1/positions',
      'POST /api/bot/v1/open',
      'POST /api/bot/v1/close',
      '/api/bot/v1/orders',
      '/api/bot/v1/account',
    ]);
    expect(v1Endpoints.every((e) => e.replace(/^POST /, '').startsWith('/api/bot/v1/'))).to.equal(true);

    const v2 = await botCall<{ ok: boolean; error: Json }>(url, trader, 'POST', '/open_everything', {}, 'v2');
    expect(v2.status).to.equal(404);
    expect(v2.body.ok).to.equal(false);
    expect(v2.body.error.code).to.equal('not_found');
    // v2 has what v1 has, and the stream (v2 only)
    expect(v2.body.error.endpoints).to.have.members([
      ...v1Endpoints.map((e) => e.replace('/api/bot/v1/', '/api/bot/v2/')),
      '/api/bot/v2/stream',
    ]);
    expect(asClientError(v2.status, v2.body as unknown as Json)).to.include({ code: 'not_found', status: 404 });

    // the keyless data API's 404 stays as it was: no bot route list
    const data = await getJson<{ error: Json }>(`${url}/api/v1/nope`);
    expect(data.status).to.equal(404);
    expect(data.body.error).to.not.have.property('endpoints');
  });
});
