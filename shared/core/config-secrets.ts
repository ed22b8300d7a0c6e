/**
 * The configuration's secrets: which variables hold one (their values never appear in a config error,
 * which is printed), the checks that would otherwise fail later with the value in the error (a Redis
 * URL that does not parse), and the key webhook secrets are stored under. Pure.
 */

/** Variables whose value is, or may carry, a secret (a URL's password, a token, a key). */
export const SECRET_VARIABLES: ReadonlySet<string> = new Set([
  'REDIS_URL',
  'SMTP_URL',
  'OPS_TOKEN',
  'METRICS_TOKEN',
  'AI_BASE_URL',
  'AI_API_KEY',
  'WEBHOOK_SECRETS_KEY',
]);

const WITHHELD = '[withheld]';

/** A config error's text for a variable: a secret variable's value (as given, or JSON-quoted) is never in it. */
export function withoutSecretValue(name: string, message: string, value: unknown): string {
  if (!SECRET_VARIABLES.has(name) || typeof value !== 'string' || value === '') return message;
  return [value, JSON.stringify(value).slice(1, -1)].reduce((text, form) => text.split(form).join(WITHHELD), message);
}

/** REDIS_URL's seeds each parse as a URL with a valid port (the client would throw on it at connect, printing the URL). */
export function redisUrlParses(value: string): boolean {
  return value
    .replace(/^cluster:/, '')
    .split(',')
    .every((seed) => URL.canParse(seed.trim()));
}

/**
 * Outside production only: the key webhook secrets are stored under when WEBHOOK_SECRETS_KEY is unset, fixed so that
 * the demo's and the tests' stored hooks outlive a restart. Public, so it protects nothing: production refuses to start
 * without a key of its own.
 */
const DEVELOPMENT_WEBHOOK_KEY = Buffer.from('perpdesk development webhook key', 'utf8');

/** WEBHOOK_SECRETS_KEY: 32 bytes as 64 hex characters or base64; null when it is neither. */
function parseKey(raw: string): Buffer | null {
  const text = raw.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  const bytes = /^[A-Za-z0-9+/_-]{43}=?$/.test(text) ? Buffer.from(text, 'base64') : null;
  return bytes?.length === 32 ? bytes : null;
}

/** The webhook secrets' key, or a message for the ConfigError (never the value). */
export function webhookSecretsKey(raw: string | undefined, production: boolean): Buffer | string {
  if (raw === undefined || raw.trim() === '') {
    if (production)
      return 'required with NODE_ENV=production: 32 random bytes as hex (openssl rand -hex 32), the key webhook secrets are stored under';
    return DEVELOPMENT_WEBHOOK_KEY;
  }
  return parseKey(raw) ?? 'must be 32 bytes as 64 hex characters or base64 (openssl rand -hex 32)';
}
