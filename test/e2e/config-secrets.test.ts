/**
 * A configuration error names the variable and never prints its value when that value may hold a secret (a Redis or
 * SMTP URL's password, a token, a key); and production refuses to start without a key for the webhook secrets.
 */
import { expect } from 'chai';
import { ConfigError, configWith } from '../../shared/config.js';
import { spawnService } from '../helpers/process.js';

const SECRET = 'hunter2-Sup3rSecret';

/** The message loadConfig throws for these variables. */
function configError(env: Record<string, string>): string {
  try {
    configWith(env);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`no config error for ${JSON.stringify(env)}`);
}

describe('configuration errors and secrets', () => {
  const malformed: [string, string][] = [
    ['REDIS_URL', `redis://:${SECRET}@redis.internal:6379 /0`],
    ['REDIS_URL', `http://default:${SECRET}@redis.internal:6379`],
    ['REDIS_URL', `redis://default:${SECRET}@redis.internal:99999`],
    ['REDIS_URL', `redis://default:${SECRET}@[redis.internal`],
    ['REDIS_URL', `cluster:redis://:${SECRET}@a:6379,redis://:${SECRET}@b:70000`],
    ['SMTP_URL', `smtp://mailer:${SECRET}@smtp example.com:587`],
    ['SMTP_URL', `http://mailer:${SECRET}@smtp.example.com`],
    ['OPS_TOKEN', `${SECRET} with spaces`],
    ['OPS_TOKEN', SECRET.slice(0, 12)],
    ['METRICS_TOKEN', `${SECRET} with spaces`],
    ['METRICS_TOKEN', SECRET.slice(0, 12)],
    ['AI_API_KEY', `${SECRET}${'x'.repeat(600)}`],
    ['AI_BASE_URL', `ftp://user:${SECRET}@ai.example.com`],
    ['WEBHOOK_SECRETS_KEY', SECRET],
  ];
  for (const [name, value] of malformed) {
    it(`names ${name} without printing its value (${value.slice(0, 24)}...)`, () => {
      const message = configError({ [name]: value });
      expect(message.startsWith(`${name}: `), message).to.equal(true);
      expect(message).to.not.contain(SECRET.slice(0, 12));
    });
  }

  it('prints neither a password nor the URL when the process is started with a REDIS_URL that does not parse', async function () {
    this.timeout(90_000);
    const service = spawnService({ PORT: '0', REDIS_URL: `redis://default:${SECRET}@127.0.0.1:99999` });
    expect(await service.exit).to.equal(1);
    expect(service.lines).to.have.length(1);
    expect(service.lines[0]).to.match(/^config error: REDIS_URL: /);
    expect(service.lines.join('\n')).to.not.contain(SECRET);
  });

  it('refuses to start in production without WEBHOOK_SECRETS_KEY; elsewhere a development key is used', () => {
    expect(configError({ NODE_ENV: 'production' })).to.match(/^WEBHOOK_SECRETS_KEY: required with NODE_ENV=production/);
    expect(configWith({ NODE_ENV: 'production', WEBHOOK_SECRETS_KEY: 'ab'.repeat(32) }).webhookSecretsKey).to.deep.equal(
      Buffer.alloc(32, 0xab),
    );
    expect(
      configWith({ NODE_ENV: 'production', WEBHOOK_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') }).webhookSecretsKey,
    ).to.deep.equal(Buffer.alloc(32, 7));
    expect(configError({ WEBHOOK_SECRETS_KEY: 'ab'.repeat(31) })).to.match(/^WEBHOOK_SECRETS_KEY: must be 32 bytes/);
    expect(configWith({}).webhookSecretsKey).to.have.length(32);
  });
});
