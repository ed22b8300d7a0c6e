import { expect } from 'chai';
import fc from 'fast-check';
import { checkSignedRequest, requestParams, signParams, totalParams } from '../../shared/binance/signed-request.js';
import { decimal, symbolPrecision } from '../../shared/binance/market-shapes.js';

const NOW = 1_767_225_600_000;
const SECRET = 'S'.repeat(64);
const param = fc.tuple(fc.stringMatching(/^[a-zA-Z]{1,8}$/), fc.string({ maxLength: 12 }));

/** A request as a client sends it: some parameters in the query, the rest in the body, the signature last. */
function signed(query: [string, string][], body: [string, string][], timestamp: number, secret = SECRET) {
  const q = new URLSearchParams([...query, ['timestamp', String(timestamp)]]).toString();
  const b = new URLSearchParams(body).toString();
  const signature = signParams(q + b, secret);
  return body.length === 0 ? { query: `${q}&signature=${signature}`, body: '' } : { query: q, body: `${b}&signature=${signature}` };
}

describe('Binance signed requests (pure)', () => {
  it('passes any parameters signed with the secret, split between query and body, within recvWindow', () => {
    fc.assert(
      fc.property(
        fc.array(param, { maxLength: 6 }),
        fc.array(param, { maxLength: 6 }),
        fc.integer({ min: 0, max: 4_999 }),
        (query, body, age) => {
          const clean = (list: [string, string][]) => list.filter(([name]) => !['timestamp', 'recvWindow', 'signature'].includes(name));
          const parts = signed(clean(query), clean(body), NOW - age);
          expect(checkSignedRequest(parts, requestParams(parts), SECRET, NOW)).to.equal(null);
        },
      ),
    );
  });

  it('refuses another secret (-1022), an altered parameter, and a timestamp out of its window (-1021)', () => {
    const parts = signed([['symbol', 'BTCUSDT']], [], NOW);
    expect(checkSignedRequest(parts, requestParams(parts), 'T'.repeat(64), NOW)?.code).to.equal('bad_signature');
    const altered = { ...parts, query: parts.query.replace('BTCUSDT', 'ETHUSDT') };
    expect(checkSignedRequest(altered, requestParams(altered), SECRET, NOW)?.code).to.equal('bad_signature');
    const old = signed([], [], NOW - 5_001);
    expect(checkSignedRequest(old, requestParams(old), SECRET, NOW)?.code).to.equal('stale_timestamp');
    const ahead = signed([], [], NOW + 1_000);
    expect(checkSignedRequest(ahead, requestParams(ahead), SECRET, NOW)?.code).to.equal('stale_timestamp');
  });

  it('never throws on hostile input: it names a refusal', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.string({ maxLength: 200 }), (query, body) => {
        const parts = { query, body };
        const refusal = checkSignedRequest(parts, requestParams(parts), SECRET, NOW);
        expect(refusal?.code).to.be.oneOf(['missing_param', 'invalid_param', 'stale_timestamp', 'bad_signature']);
      }),
    );
  });

  it('leaves the signature out of totalParams wherever it is sent', () => {
    expect(totalParams({ query: 'a=1&signature=x', body: 'b=2' })).to.equal('a=1b=2');
    expect(totalParams({ query: 'a=1', body: 'b=2&signature=x' })).to.equal('a=1b=2');
  });
});

describe('Binance number shapes (pure)', () => {
  it('writes plain decimals without float noise or exponents', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-9, max: 1e9, noNaN: true }), (value) => {
        const text = decimal(value);
        expect(text).to.match(/^\d+(\.\d+)?$/);
        expect(Math.abs(Number(text) - value)).to.be.at.most(Math.max(1e-12, value * 1e-12));
      }),
    );
    expect(decimal(64999.95)).to.equal('64999.95');
  });

  it('gives every price a power-of-ten tick of six significant digits and a step of about a cent', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1e7, noNaN: true }), (price) => {
        const { tickSize, stepSize } = symbolPrecision(price);
        expect(price / tickSize).to.be.within(1e5 - 1e-6, 1e6);
        expect(price * stepSize).to.be.within(0.01 - 1e-12, 0.1);
      }),
    );
  });
});
