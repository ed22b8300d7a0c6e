import { expect } from 'chai';
import fc from 'fast-check';
import { closeFacts, computeClose } from '../../shared/engine/close-record.js';
import { wholeCloseJson } from '../../shared/paper/positions/close-service.js';
import { jsonAssigner, type JsonScalar } from '../../shared/paper/positions/position-json.js';
import { parsePosition, type Position } from '../../shared/paper/positions/position-types.js';

const assignJson = (json: string, fields: Record<string, JsonScalar>): string | null => jsonAssigner(Object.keys(fields))(json, fields);

// keys as positions have them: never array indices (those JSON.parse would move to the front)
const key = fc.stringMatching(/^[a-z_][a-z0-9_]{0,11}$/).filter((k) => k !== '__proto__');
const scalar: fc.Arbitrary<JsonScalar> = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('"', '\\', ',"v":1,', '}', '{"a":'),
);
const flat = fc.dictionary(key, scalar);

describe('assigning fields into a position JSON without parsing it (pure)', () => {
  it('gives exactly what parsing, assigning and serializing gives', () => {
    fc.assert(
      fc.property(flat, flat, (object, fields) => {
        const json = JSON.stringify(object);
        expect(assignJson(json, fields)).to.equal(JSON.stringify(Object.assign(JSON.parse(json) as object, fields)));
      }),
      { numRuns: 2000 },
    );
  });

  it('replaces held keys in place and appends new ones in order', () => {
    const json = JSON.stringify({ id: 'bp1', v: 1, status: 'open', note: 'a,"v":2}', fee: 1.1 });
    expect(assignJson(json, { status: 'closed', exit: 97, v: 2, fee: 1.09, liquidated: false })).to.equal(
      '{"id":"bp1","v":2,"status":"closed","note":"a,\\"v\\":2}","fee":1.09,"exit":97,"liquidated":false}',
    );
    expect(assignJson('{}', { a: 1, b: null })).to.equal('{"a":1,"b":null}');
    expect(assignJson('{"a":1}', { a: Number.NaN })).to.equal('{"a":null}');
  });

  it('answers null for what is not a JSON object', () => {
    expect(assignJson('[1]', { a: 1 })).to.equal(null);
    expect(assignJson('{"a":"unterminated}', { a: 1 })).to.equal(null);
  });

  it("writes a whole close exactly as serializing computeClose's record does (the sweep's closed records)", () => {
    const num = fc.double({ min: 0.001, max: 1e6, noNaN: true });
    const position = fc.record({
      side: fc.constantFrom<Position['side']>('long', 'short'),
      entry: num,
      qty: num,
      margin: num,
      fee_rate_pct: fc.double({ min: 0, max: 1, noNaN: true }),
      v: fc.integer({ min: 1, max: 1000 }),
      client_order_id: fc.option(fc.string(), { nil: null }),
      funding_carry_usd: fc.double({ min: -100, max: 100, noNaN: true }),
      trail_ts: fc.option(fc.integer({ min: 0 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(position, num, fc.double({ min: -50, max: 50, noNaN: true }), fc.boolean(), (over, exit, funding, liquidated) => {
        const p = {
          id: 'bp1',
          account: 'main',
          symbol: 'ETHUSDT',
          status: 'open',
          sl: null,
          tp: 1,
          trail_pct: null,
          trail_hwm: null,
          opened_ts: 5,
          ...over,
        } as unknown as Position;
        if (p.trail_ts === undefined) delete p.trail_ts;
        const closed = computeClose(p, exit, 100, funding, 7, 'stop_loss').closed;
        closed.liquidated = liquidated;
        const read = parsePosition(JSON.stringify(p));
        const { json, cents, facts } = wholeCloseJson(read, exit, funding, 7, 'stop_loss', liquidated);
        const expectedCents = computeClose(p, exit, 100, funding, 7, 'x').cents;
        expect({ json, cents }).to.deep.equal({ json: JSON.stringify(closed), cents: expectedCents });
        // the read models' facts are the closed record's own
        expect(facts).to.deep.equal(closeFacts(p, closed as Required<Position>, expectedCents));
      }),
    );
  });
});
