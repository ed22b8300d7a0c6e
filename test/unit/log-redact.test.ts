import { expect } from 'chai';
import fc from 'fast-check';
import { REDACTED, redactSecrets } from '../../shared/core/log-redact.js';
import { captureLog } from '../helpers/log-capture.js';

/** A line as pino writes it: the object JSON-serialized (a value's quotes and control characters escaped). */
const line = (fields: Record<string, unknown>): string => `${JSON.stringify({ level: 30, ...fields, msg: 'request completed' })}\n`;

/** Secrets of 8+ characters a URL can carry in a query value (no & or #, no white space), JSON's escapes included. */
const secret = fc.stringMatching(/^[A-Za-z0-9._~%+\-"\\\u0001]{8,60}$/);
/** How a client may spell a secret parameter's name: the service reads api_key, key and token, decoded. */
const secretName = fc.constantFrom('api_key', 'key', 'token', 'API_KEY', 'Token', 'api%5Fkey', 'api%5fkey', '%6Bey', 'to%6Ben');

describe('secrets out of log lines (redactSecrets)', () => {
  it('redacts the value of every spelling of api_key, key and token, wherever it sits in the query, and keeps the rest', () => {
    fc.assert(
      fc.property(secret, secretName, fc.boolean(), (value, name, first) => {
        const query = first ? `?${name}=${value}&symbol=BTC` : `?symbol=BTC&${name}=${value}`;
        const out = redactSecrets(line({ url: `/api/bot/v1/usage${query}` }));
        expect(out).to.not.contain(value).and.not.contain(JSON.stringify(value).slice(1, -1));
        expect(JSON.parse(out).url).to.equal(
          `/api/bot/v1/usage${first ? `?${name}=${REDACTED}&symbol=BTC` : `?symbol=BTC&${name}=${REDACTED}`}`,
        );
      }),
    );
  });

  it("redacts a whsink path's token (any case, with a query or not), and an API key anywhere", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9_-]{16,128}$/),
        fc.constantFrom('/api/whsink/', '/API/WhSink/'),
        fc.constantFrom('', '?x=1', '/'),
        (token, prefix, tail) => {
          const out = redactSecrets(line({ url: `${prefix}${token}${tail}`, path: `${prefix}${token}` }));
          expect(out).to.not.contain(token);
          expect(JSON.parse(out)).to.include({ url: `${prefix}${REDACTED}${tail}`, path: `${prefix}${REDACTED}` });
        },
      ),
    );
    const key = 'pd_0123456789abcdefghijABCDEFGHIJ0123456789';
    const out = redactSecrets(line({ err: { message: `no such key ${key}` }, url: `/api/v1/price?symbol=${key}` }));
    expect(out).to.not.contain(key);
    for (const url of ['/api/v1/price?symbol=BTC&interval=60', '/x?monkey=1&keys=2&key=&tokens=3'])
      expect(redactSecrets(line({ url }))).to.equal(line({ url }));
  });

  it('is applied by the logger to every line it writes, whatever logged it', () => {
    const log = captureLog();
    const key = 'pd_0123456789abcdefghijABCDEFGHIJ0123456789';
    log.logger.info({ url: `/x?token=${key}` }, 'one');
    log.logger.error({ err: new Error(`failed at /api/whsink/abcdefghijklmnopqrst with ${key}`) }, 'two');
    expect(log.lines().map((l) => l.msg)).to.deep.equal(['one', 'two']);
    expect(log.text()).to.contain('/api/whsink/[redacted]').and.not.contain(key).and.not.contain('abcdefghijklmnopqrst');
  });
});
