/**
 * The OpenAPI document types what the routes answer: named response components, every $ref
 * resolving, each keyed bot route's 200 built on them, and live answers that match them field for
 * field (an object may hold only the properties its schema declares, and must hold the required ones).
 */
import { expect } from 'chai';
import { keys } from '../../shared/redis/keys.js';
import { getJson, useApiFixture } from '../helpers/app.js';
import { startReceiver, type TestReceiver } from '../helpers/push.js';
import { accountServices, botCall, createTrader, TestPrices, type Trader } from '../helpers/trading.js';

type Schema = Record<string, unknown>;
interface Operation {
  security?: unknown[];
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: Schema }> } } }>;
  components: { schemas: Record<string, Schema> };
}

/** Every value under `node` with its JSON path, depth first. */
function* walk(node: unknown, path = '#'): Generator<[string, unknown]> {
  yield [path, node];
  if (node !== null && typeof node === 'object') for (const [key, child] of Object.entries(node)) yield* walk(child, `${path}/${key}`);
}

function resolve(doc: unknown, pointer: string): unknown {
  if (!pointer.startsWith('#/')) throw new Error(`${pointer}: only local references`);
  return pointer
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>(
      (node, part) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined),
      doc,
    );
}

const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;

/**
 * The ways `value` fails `schema` (none: it conforms). Strict where the document declares an object's
 * properties: the object may hold only those (with its allOf parts'), and must hold the required ones.
 * Covers what the document uses: $ref, type, const, enum, properties, required, items, anyOf, allOf.
 */
function mismatches(doc: OpenApiDoc, schema: Schema, value: unknown, at = '$', strict = true): string[] {
  if (typeof schema.$ref === 'string')
    return mismatches(doc, { ...(resolve(doc, schema.$ref) as Schema), ...omit(schema, '$ref') }, value, at, strict);
  const errors: string[] = [];
  if (schema.anyOf && !(schema.anyOf as Schema[]).some((option) => mismatches(doc, option, value, at).length === 0))
    errors.push(`${at}: matches none of anyOf`);
  const parts = (schema.allOf as Schema[] | undefined) ?? [];
  for (const part of parts) errors.push(...mismatches(doc, part, value, at, false));
  if (schema.type !== undefined) {
    const types = ([] as string[]).concat(schema.type as string | string[]);
    const actual = typeOf(value);
    if (!types.includes(actual) && !(actual === 'integer' && types.includes('number')))
      errors.push(`${at}: ${actual}, not ${types.join('|')}`);
  }
  if ('const' in schema && value !== schema.const) errors.push(`${at}: ${JSON.stringify(value)}, not ${JSON.stringify(schema.const)}`);
  if (schema.enum && !(schema.enum as unknown[]).includes(value)) errors.push(`${at}: ${JSON.stringify(value)} not in enum`);
  if (Array.isArray(value) && schema.items)
    value.forEach((item, i) => errors.push(...mismatches(doc, schema.items as Schema, item, `${at}[${i}]`)));
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
    for (const name of (schema.required as string[] | undefined) ?? [])
      if (!(name in object)) errors.push(`${at}.${name}: required, absent`);
    for (const [name, child] of Object.entries(properties))
      if (name in object) errors.push(...mismatches(doc, child, object[name], `${at}.${name}`));
    const declared = new Set([...Object.keys(properties), ...parts.flatMap((part) => Object.keys(propertiesOf(doc, part)))]);
    if (strict && declared.size > 0)
      for (const name of Object.keys(object)) if (!declared.has(name)) errors.push(`${at}.${name}: not declared`);
  }
  return errors;
}

function omit(schema: Schema, key: string): Schema {
  const { [key]: _dropped, ...rest } = schema;
  return rest;
}

function propertiesOf(doc: OpenApiDoc, schema: Schema): Record<string, Schema> {
  const target = typeof schema.$ref === 'string' ? (resolve(doc, schema.$ref) as Schema) : schema;
  return (target.properties as Record<string, Schema> | undefined) ?? {};
}

describe('OpenAPI: named response components, matched against live answers', function () {
  this.timeout(30_000);
  const fixture = useApiFixture({ PUBLIC_RATE_LIMIT: '1000000', WEBHOOK_ALLOW_PRIVATE: 'true' });
  let doc: OpenApiDoc;
  let trader: Trader;
  let receiver: TestReceiver;

  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  beforeEach(async () => {
    doc = (await getJson<OpenApiDoc>(`${fixture.api.url}/api/openapi.json`)).body;
    await new TestPrices(fixture.redis).set({ BTCUSDT: 60000, ETHUSDT: 3000 });
    trader = await createTrader(accountServices(fixture.redis));
  });

  const success = (path: string, method: string): Schema => {
    const schema = doc.paths[path]?.[method]?.responses['200'].content?.['application/json'].schema;
    expect(schema, `${method} ${path} has a 200 schema`).to.be.an('object');
    return schema!;
  };

  it('declares the entities as components, and every $ref resolves', () => {
    expect(doc.components.schemas).to.include.keys([
      'Position',
      'Order',
      'Trade',
      'Account',
      'Balance',
      'Webhook',
      'WebhookDelivery',
      'Market',
      'Fees',
      'Error',
      'BotV1Error',
    ]);
    const refs = [...walk(doc)].filter(([path, value]) => path.endsWith('/$ref') && typeof value === 'string');
    expect(refs.length).to.be.greaterThan(40);
    for (const [path, ref] of refs) expect(resolve(doc, ref as string), `${path} -> ${String(ref)}`).to.be.an('object');
    expect(doc.webhooks.event.post.requestBody.content['application/json'].schema).to.deep.equal({
      $ref: '#/components/schemas/WebhookDelivery',
    });
  });

  it("references a component from each keyed bot route's 200, in v1 and v2", () => {
    const keyed = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        // the stream never answers 200: a valid key gets 426, or the upgrade
        .filter(
          ([, op]) => op.security !== undefined && path.startsWith('/api/bot/') && !path.endsWith('/usage') && !path.endsWith('/stream'),
        )
        .map(([method]) => [path, method] as const),
    );
    expect(keyed.length).to.be.greaterThan(30);
    for (const [path, method] of keyed) {
      const refs = [...walk(success(path, method))].filter(([p]) => p.endsWith('/$ref'));
      expect(refs, `${method} ${path}`).to.have.length.greaterThan(0);
    }
    // a v1 failure is flat, a v2 one the envelope
    const failure = (path: string) => doc.paths[path].get.responses.default.content?.['application/json'].schema;
    expect(failure('/api/bot/v1/positions')).to.deep.equal({ $ref: '#/components/schemas/BotV1Error' });
    expect(failure('/api/bot/v2/positions')).to.deep.equal({ $ref: '#/components/schemas/Error' });
  });

  it('matches live answers of the trading routes field for field, v1 and v2 (Position as /positions returns it)', async () => {
    const { url } = fixture.api;
    const call = async (version: 'v1' | 'v2', method: 'GET' | 'POST', path: string, body?: unknown) => {
      const r = await botCall<Record<string, unknown>>(url, trader, method, path, body, version);
      expect(r.status, `${method} ${path} ${JSON.stringify(r.body)}`).to.equal(200);
      const problems = mismatches(doc, success(`/api/bot/${version}${path.split('?')[0]}`, method.toLowerCase()), r.body);
      expect(problems, `${version} ${method} ${path}: ${JSON.stringify(r.body)}`).to.deep.equal([]);
      return r.body;
    };
    const opened = await call('v1', 'POST', '/open', {
      symbol: 'BTC',
      side: 'long',
      margin_usd: 100,
      leverage: 10,
      sl: 50000,
      trail_pct: 2,
      client_order_id: 'c1',
    });
    const id = (opened.position as { id: string }).id;
    await call('v2', 'POST', '/open', { symbol: 'ETH', side: 'short', margin_usd: 50, leverage: 5, tp: 2000 });
    await call('v1', 'POST', '/open', { symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10, client_order_id: 'c1' });
    await call('v1', 'POST', '/open', { symbol: 'BTC', side: 'short', margin_usd: 100, leverage: 10, dry_run: true });
    const placed = await call('v1', 'POST', '/open', {
      symbol: 'ETH',
      side: 'long',
      margin_usd: 20,
      leverage: 3,
      type: 'limit',
      limit_price: 2500,
    });
    const orderId = (placed.order as { order_id: string }).order_id;
    await call('v2', 'POST', '/modify_order', { order_id: orderId, limit_price: 2400 });
    for (const v of ['v1', 'v2'] as const) {
      const live = await call(v, 'GET', '/positions');
      const rows = (v === 'v1' ? live.positions : (live.data as { positions: unknown[] }).positions) as Record<string, unknown>[];
      expect(rows).to.have.length(2);
      // the Position component names every field a live row has (checked above), and a row has every required one
      const position = doc.components.schemas.Position as { properties: Record<string, unknown>; required: string[] };
      for (const row of rows) expect(Object.keys(position.properties)).to.include.members(Object.keys(row));
      // and the check above would see a field the component lacks, or a required one missing
      const { id: _id, ...withoutId } = rows[0];
      expect(mismatches(doc, { $ref: '#/components/schemas/Position' }, { ...rows[0], bogus: 1 })).to.deep.equal(['$.bogus: not declared']);
      expect(mismatches(doc, { $ref: '#/components/schemas/Position' }, withoutId)).to.deep.equal(['$.id: required, absent']);
      await call(v, 'GET', '/orders');
      await call(v, 'GET', '/account');
      await call(v, 'GET', '/balance');
      await call(v, 'GET', '/markets');
      await call(v, 'GET', '/fees');
      await call(v, 'GET', '/accounts');
    }
    await call('v1', 'POST', '/sltp', { id, tp: 70000 });
    await call('v2', 'POST', '/close', { id, pct: 50 });
    await call('v1', 'POST', '/close', { id });
    await call('v1', 'GET', '/positions?status=closed');
    await call('v2', 'GET', '/trades');
    await call('v1', 'POST', '/cancel_order', { order_id: orderId });
    await call('v2', 'GET', '/orders');
    await call('v1', 'POST', '/fees', { venue: 'binance' });
    await call('v2', 'POST', '/fees', { venue: null });
    await call('v1', 'POST', '/close_all', {});
    await call('v2', 'POST', '/reset', { confirm: true });
    await call('v1', 'GET', '/webhooks');
    const added = await call('v1', 'POST', '/webhooks', { act: 'add', url: `${receiver.url}/hook` });
    const hookId = (added.webhook as { id: string }).id;
    const tested = await call('v2', 'POST', '/webhooks', { act: 'test', id: hookId });
    expect(tested.data).to.include({ delivered: true, status: 200 });
    // the ping the receiver got is a WebhookDelivery
    const ping = JSON.parse(receiver.received.at(-1)!.body) as unknown;
    expect(mismatches(doc, doc.webhooks.event.post.requestBody.content['application/json'].schema, ping)).to.deep.equal([]);
    await call('v2', 'GET', '/webhooks');
    await call('v1', 'POST', '/webhooks', { act: 'delete', id: hookId });
  });

  it('matches the live answer of /api/status, with a held feed lease and a sampled day', async () => {
    const now = Date.now();
    await fixture.redis.set(keys.feedLease('binance'), 'pod-x', 'PX', 60_000);
    await fixture.redis.hset(keys.feedLastMessage(), 'binance', now);
    await fixture.redis.hset(keys.statusDay(new Date(now).toISOString().slice(0, 10)), 'redis:n', 2, 'redis:up', 2, 'feed:binance:n', 2);
    const r = await getJson<{ now: { feeds: Record<string, unknown> }; days: unknown[] }>(`${fixture.api.url}/api/status`);
    expect(r.status).to.equal(200);
    expect(r.body.now.feeds.binance).to.include({ state: 'up', holder: 'pod-x' });
    expect(r.body.days.at(-1)).to.deep.include({ samples: 2, availability: { redis: 100, 'feed:binance': 0 } });
    expect(mismatches(doc, success('/api/status', 'get'), r.body)).to.deep.equal([]);
  });

  it('matches the live answers of the changelog and the plan catalogue (with and without a key)', async () => {
    const changelog = await getJson<unknown>(`${fixture.api.url}/api/changelog.json`);
    expect(mismatches(doc, success('/api/changelog.json', 'get'), changelog.body)).to.deep.equal([]);
    for (const headers of [{}, { 'x-api-key': trader.apiKey }] as Record<string, string>[]) {
      const plans = await getJson<{ current: string | null }>(`${fixture.api.url}/api/apiplan`, { headers });
      expect(mismatches(doc, success('/api/apiplan', 'get'), plans.body)).to.deep.equal([]);
    }
    const feed = doc.paths['/api/changelog.xml'].get.responses['200'].content;
    expect(feed).to.have.keys(['application/rss+xml']);
  });
});
