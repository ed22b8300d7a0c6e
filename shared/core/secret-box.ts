/**
 * Secrets the server must use again, at rest (webhook signing secrets, the HMAC secrets of exchange-dialect keys):
 * AES-256-GCM under the server's key (WEBHOOK_SECRETS_KEY), bound to the account and the owner's id (the associated
 * data; hook ids `wh...` and key ids `key_...` never collide), so a sealed secret copied onto another hook or key does
 * not open. Someone who can read Redis but not the key cannot sign as the service nor as a bot. Pure.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** The sealed form's version prefix: a later key or cipher gets its own. */
const PREFIX = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the secrets key must be 32 bytes');
  }

  seal(secret: string, accountId: string, ownerId: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(`${accountId}/${ownerId}`));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  /** The secret; throws when the sealed text was made under another key or for another owner, or was altered. */
  open(sealed: string, accountId: string, ownerId: string): string {
    if (!sealed.startsWith(PREFIX)) throw new Error('not a sealed secret');
    const bytes = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES))
      .setAAD(Buffer.from(`${accountId}/${ownerId}`))
      .setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
