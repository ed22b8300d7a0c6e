import { expect } from 'chai';
import { ConfigError, configWith } from '../../shared/config.js';
import { metricsReadable } from '../../shared/metrics/metrics.js';

describe('config: METRICS_TOKEN and METRICS_PORT', () => {
  it('leaves both unset by default, so no metrics are gathered or served', () => {
    const config = configWith();
    expect(config.opsToken).to.equal(undefined);
    expect(config.metricsPort).to.equal(undefined);
    expect(metricsReadable(config)).to.equal(false);
  });

  it('takes an empty OPS_TOKEN or METRICS_TOKEN as unset', () => {
    expect(configWith({ OPS_TOKEN: '' }).opsToken).to.equal(undefined);
    expect(configWith({ METRICS_TOKEN: '' }).metricsToken).to.equal(undefined);
  });

  it('refuses a METRICS_TOKEN shorter than 16 characters or with whitespace, without printing it', () => {
    expect(() => configWith({ METRICS_TOKEN: 'short' })).to.throw(ConfigError, /^METRICS_TOKEN: /);
    expect(() => configWith({ METRICS_TOKEN: 'sixteen chars ok' })).to.throw(ConfigError, /^METRICS_TOKEN: must not contain whitespace$/);
  });

  it('gathers metrics when either can read them, and not for the dashboard token alone', () => {
    expect(metricsReadable(configWith({ METRICS_TOKEN: 'a-secret-of-16-chars' }))).to.equal(true);
    expect(metricsReadable(configWith({ OPS_TOKEN: 'a-secret-of-16-chars' }))).to.equal(false);
    expect(metricsReadable(configWith({ METRICS_PORT: '9464' }))).to.equal(true);
    expect(configWith({ METRICS_PORT: '0' }).metricsPort).to.equal(0);
  });

  it('refuses a METRICS_PORT that is not a port, by name', () => {
    for (const bad of ['-1', '65536', '1.5', 'metrics']) {
      expect(() => configWith({ METRICS_PORT: bad }), bad).to.throw(ConfigError, /^METRICS_PORT/);
    }
  });
});
