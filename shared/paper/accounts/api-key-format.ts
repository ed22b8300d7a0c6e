/** API keys and random ids: their format and the digest they are stored as. Pure: no Redis, no clock. */
import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 62 * 4 = 248: bytes at or above it are dropped, so every character is equally likely. */
const UNBIASED_LIMIT = 248;

export const API_KEY_PREFIX = 'pd_';
/** Random characters after the prefix: 40 base62 characters are about 238 bits. */
export const API_KEY_RANDOM_CHARS = 40;
/** The longest key the service will even look up; anything longer is not one of ours. */
export const API_KEY_MAX_LENGTH = 128;

const API_KEY_SHAPE = /^pd_[0-9A-Za-z]{32,125}$/;

export type RandomBytes = (size: number) => Buffer;

/** `length` base62 characters from a cryptographic source (rejection sampling, no modulo bias). */
export function randomBase62(length: number, random: RandomBytes = randomBytes): string {
  let out = '';
  while (out.length < length) {
    for (const byte of random(length - out.length + 16)) {
      if (byte >= UNBIASED_LIMIT) continue;
      out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A new API key: `pd_` and 40 random base62 characters. Shown once; only its digest is stored. */
export function generateApiKey(random: RandomBytes = randomBytes): string {
  return `${API_KEY_PREFIX}${randomBase62(API_KEY_RANDOM_CHARS, random)}`;
}

/** True when the text has the shape of one of our keys (worth a lookup). */
export function looksLikeApiKey(text: string): boolean {
  return text.length <= API_KEY_MAX_LENGTH && API_KEY_SHAPE.test(text);
}

/** SHA-256 of the key, lowercase hex: the only form of a key that is ever stored. */
export function apiKeyDigest(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** Account ids: `acc_` and 16 base62 characters. */
export function newAccountId(random: RandomBytes = randomBytes): string {
  return `acc_${randomBase62(16, random)}`;
}

/** Key ids (not secret; used in listings, rate-limit scopes and logs): `key_` and 16 base62 characters. */
export function newKeyId(random: RandomBytes = randomBytes): string {
  return `key_${randomBase62(16, random)}`;
}

const KEY_ID_SHAPE = /^key_[0-9A-Za-z]{16}$/;

export function isKeyId(text: string): boolean {
  return KEY_ID_SHAPE.test(text);
}
