/**
 * The typed client (clients/typescript) against a running service over loopback: open, positions with their ETag
 * (304 while nothing changed), close, and the service's named errors surfaced as PerpdeskError with a typed code.
 */
import { expect } from 'chai';
import {
  createPerpdeskClient,
  PerpdeskError,
  readPositions,
  unwrap,
  type ErrorCode,
  type PerpdeskClient,
} from '../../clients/typescript/src/index.js';
import { accountServices, createTrader, useTradingFixture } from '../helpers/trading.js';

/** The PerpdeskError a call throws; a call that succeeds fails the test. */
async function failure(call: () => Promise<unknown>): Promise<PerpdeskError> {
  try {
    await call();
  } catch (error) {
    if (error instanceof PerpdeskError) return error;
    throw error;
  }
  throw new Error('expected a PerpdeskError');
}

describe('the typed client against a running service', () => {
  const fixture = useTradingFixture({ BTCUSDT: 65_000 });
  let client: PerpdeskClient;

  beforeEach(async () => {
    const trader = await createTrader(accountServices(fixture.redis));
    client = createPerpdeskClient({ baseUrl: fixture.api.url, apiKey: trader.apiKey });
  });

  it('opens, reads positions with an ETag (304 while unchanged), closes, and reads the change', async () => {
    const opened = unwrap(await client.POST('/api/bot/v2/open', { body: { symbol: 'BTC', side: 'long', leverage: 10, margin_usd: 100 } }));
    const { position } = opened.data;
    if (position === undefined || !('id' in position)) throw new Error('a market open answers its position');
    // 100 USD at 10x is 1000 USD of BTC at 65000: 1000 / 65000 = 0.0153846... BTC
    expect(position).to.include({ symbol: 'BTC', side: 'long', status: 'open', entry: 65_000, leverage: 10 });
    expect(position.qty).to.be.closeTo(1000 / 65_000, 1e-9);

    const first = await readPositions(client);
    if (first.notModified) throw new Error('a read without an ETag answers the positions');
    expect(first.positions.map((row) => row.id)).to.deep.equal([position.id]);
    expect(first.etag).to.be.a('string');
    const etag = first.etag!;
    // nothing changed: the same ETag answers 304, no body
    expect(await readPositions(client, { etag })).to.deep.equal({ notModified: true, etag });

    const closed = unwrap(await client.POST('/api/bot/v2/close', { body: { id: position.id } }));
    expect(closed.data.closed).to.include({ id: position.id, status: 'closed' });

    // the close changed the positions: the old ETag no longer holds
    const after = await readPositions(client, { etag });
    expect(after.notModified).to.equal(false);
    expect(after).to.have.property('positions').that.deep.equals([]);
    expect((await readPositions(client, { query: { status: 'closed' } })).notModified).to.equal(false);
  });

  it('surfaces a named error as a PerpdeskError with a typed code, from v2 and v1 error bodies alike', async () => {
    const opened = unwrap(await client.POST('/api/bot/v2/open', { body: { symbol: 'BTC', side: 'short', leverage: 5, margin_usd: 50 } }));
    const id = opened.data.position && 'id' in opened.data.position ? opened.data.position.id : undefined;
    if (id === undefined) throw new Error('a market open answers its position');
    unwrap(await client.POST('/api/bot/v2/close', { body: { id } }));

    const twice = await failure(async () => unwrap(await client.POST('/api/bot/v2/close', { body: { id } })));
    // ErrorCode is the union of the service's codes: a misspelt code would not compile here
    const expected: ErrorCode = 'already_closed';
    expect(twice).to.include({ status: 409, code: expected });
    // bot v1 keeps the flat body { error, message }: the same code
    const v1 = await failure(async () => unwrap(await client.POST('/api/bot/v1/close', { body: { id } })));
    expect(v1).to.include({ status: 409, code: 'already_closed' });

    const keyless = createPerpdeskClient({ baseUrl: fixture.api.url });
    const noKey = await failure(async () => unwrap(await keyless.GET('/api/bot/v2/account')));
    expect(noKey).to.include({ status: 401, code: 'missing_api_key' });

    const badBody = { symbol: 'BTC', side: 'long', leverage: 10, margin_usd: 'lots' };
    // @ts-expect-error margin_usd is a number in the document: the client refuses this at compile time, the service at run time
    const refused = await failure(async () => unwrap(await client.POST('/api/bot/v2/open', { body: badBody })));
    expect(refused.status).to.equal(400);
    expect(refused.message).to.match(/margin_usd/);
  });
});
