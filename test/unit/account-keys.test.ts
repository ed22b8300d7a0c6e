import { expect } from 'chai';
import fc from 'fast-check';
import { checkBookName, checkKeyName, normalizeEmail } from '../../shared/paper/accounts/account-rules.js';
import {
  apiKeyDigest,
  generateApiKey,
  isKeyId,
  looksLikeApiKey,
  newAccountId,
  newKeyId,
  randomBase62,
} from '../../shared/paper/accounts/api-key-format.js';
import { AppError } from '../../shared/core/errors.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof AppError ? error.code : 'not an AppError';
  }
}

describe('API key format and digest', () => {
  it('makes keys of pd_ and 40 base62 characters, all different', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i += 1) {
      const key = generateApiKey();
      expect(key).to.match(/^pd_[0-9A-Za-z]{40}$/);
      expect(looksLikeApiKey(key)).to.equal(true);
      seen.add(key);
    }
    expect(seen.size).to.equal(2000);
  });

  it('draws every base62 character with about the same frequency (no modulo bias)', () => {
    const counts = new Map<string, number>();
    const text = randomBase62(62 * 2000);
    for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).to.equal(62);
    for (const count of counts.values()) expect(count).to.be.within(1700, 2300);
  });

  it('drops bytes of 248 and above, so a source of only such bytes never yields a character from them', () => {
    let call = 0;
    // first call: all bytes unusable; afterwards bytes 0..: '0123...'
    const source = (size: number): Buffer =>
      call++ === 0 ? Buffer.alloc(size, 250) : Buffer.from(Array.from({ length: size }, (_, i) => i % 62));
    expect(randomBase62(5, source)).to.equal('01234');
  });

  it('digests with SHA-256 hex, the same for the same key and different for another', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(apiKeyDigest(a)).to.match(/^[0-9a-f]{64}$/);
        expect(apiKeyDigest(a)).to.equal(apiKeyDigest(a));
        if (a !== b) expect(apiKeyDigest(a)).to.not.equal(apiKeyDigest(b));
      }),
    );
    expect(apiKeyDigest('abc')).to.equal('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('refuses anything that does not look like a key before any lookup', () => {
    const a = (n: number): string => 'a'.repeat(n);
    for (const text of ['', 'pd_', 'pd_short', `pd_${a(31)}`, `xx_${a(40)}`, `pd_${a(39)}!`, `pd_${a(200)}`, ` pd_${a(40)}`]) {
      expect(looksLikeApiKey(text), text).to.equal(false);
    }
    expect(looksLikeApiKey(`pd_${'a'.repeat(32)}`)).to.equal(true);
  });

  it('makes prefixed random ids', () => {
    expect(newAccountId()).to.match(/^acc_[0-9A-Za-z]{16}$/);
    const keyId = newKeyId();
    expect(keyId).to.match(/^key_[0-9A-Za-z]{16}$/);
    expect(isKeyId(keyId)).to.equal(true);
    expect(isKeyId(`${keyId}x`)).to.equal(false);
  });
});

describe('account input rules', () => {
  it('normalizes e-mails to lowercase and trimmed, and refuses what is not one', () => {
    expect(normalizeEmail('  Alice@Example.COM ')).to.equal('alice@example.com');
    for (const bad of ['', 'alice', 'a@', '@b.c', 'a b@c.d', 'a@b@c.d', 'a\u0000@b.c', `${'a'.repeat(250)}@b.co`]) {
      expect(
        codeOf(() => normalizeEmail(bad)),
        JSON.stringify(bad),
      ).to.equal('invalid_param');
    }
  });

  it('accepts book names of 1-32 characters of A-Za-z0-9_- except main, and answers bad_book otherwise', () => {
    for (const good of ['a', 'bot-1', 'Scalper_2', 'x'.repeat(32), 'mainly']) expect(checkBookName(good)).to.equal(good);
    for (const bad of ['', 'main', 'MAIN', 'Main', 'a b', 'x'.repeat(33), 'bot.1', 'émile', '💥', '../x']) {
      expect(
        codeOf(() => checkBookName(bad)),
        bad,
      ).to.equal('bad_book');
    }
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (name) => {
        const valid = /^[A-Za-z0-9_-]{1,32}$/.test(name) && name.toLowerCase() !== 'main';
        expect(codeOf(() => checkBookName(name))).to.equal(valid ? undefined : 'bad_book');
      }),
    );
  });

  it('trims key names and refuses empty, over-long or control-character names', () => {
    expect(checkKeyName('  my bot ')).to.equal('my bot');
    expect(checkKeyName('ключ 🔑')).to.equal('ключ 🔑');
    for (const bad of ['', '   ', 'x'.repeat(65), 'a\u0007b', 'a\nb', 'a\u2028b'])
      expect(
        codeOf(() => checkKeyName(bad)),
        JSON.stringify(bad),
      ).to.equal('invalid_param');
  });
});
