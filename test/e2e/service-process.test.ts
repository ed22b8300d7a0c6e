import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiUrlFrom, DEMO_ENTRY, portIsClosed, spawnService } from '../helpers/process.js';
import { freePort } from '../../shared/redis/embedded.js';
import { waitFor } from '../helpers/market-wait.js';
import { testRedisUrl } from '../helpers/redis.js';

describe('the service process', () => {
  it('refuses a bad variable with one line naming it, and exits 1', async () => {
    const service = spawnService({ PORT: 'eighty', REDIS_URL: testRedisUrl() });
    const code = await service.exit;
    expect(code).to.equal(1);
    expect(service.lines).to.have.length(1);
    expect(service.lines[0]).to.match(/^config error: PORT: /);
  });

  it('names a malformed TRUST_PROXY', async () => {
    const service = spawnService({ TRUST_PROXY: 'some proxy', REDIS_URL: testRedisUrl() });
    expect(await service.exit).to.equal(1);
    expect(service.lines[0]).to.contain('TRUST_PROXY');
  });

  it("the demo's entry starts every role and its own simulated exchange, serves prices, and exits 0 on SIGTERM", async () => {
    const simPort = await freePort();
    const service = spawnService(
      { PORT: '0', HOST: '127.0.0.1', REDIS_URL: testRedisUrl(), ROLE: 'all', MARKET_SOURCE: 'sim', SIM_PORT: String(simPort) },
      DEMO_ENTRY,
    );
    const url = apiUrlFrom(await service.waitForLine((line) => line.includes('api listening')));
    await service.waitForLine((line) => line.startsWith('Perpdesk is up at http://'));
    const response = await fetch(`${url}/api/v1/calc/risk-reward?entry=10&stop=9&tp=13`);
    expect(response.status).to.equal(200);
    const prices = await waitFor(
      async () => {
        const r = (await (await fetch(`${url}/api/v1/prices`)).json()) as { data?: { pairs: unknown[] } };
        return r.data && r.data.pairs.length === 8 ? r.data.pairs : undefined;
      },
      15_000,
      'the eight majors',
    );
    expect(prices).to.have.length(8);
    service.child.kill('SIGTERM');
    expect(await service.exit).to.equal(0);
    expect(service.lines.some((line) => line.includes('"msg":"stopped"'))).to.equal(true);
  });

  it('starts a private redis-server with an append-only file when REDIS_URL is unset, and stops it on SIGINT', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-redis-'));
    try {
      const service = spawnService({ PORT: '0', HOST: '127.0.0.1', ROLE: 'api', REDIS_DATA_DIR: dataDir });
      const redisLine = await service.waitForLine((line) => line.includes('private redis-server started'));
      const redisPort = (JSON.parse(redisLine) as { port: number }).port;
      const url = apiUrlFrom(await service.waitForLine((line) => line.includes('api listening')));
      const ready = (await (await fetch(`${url}/readyz`)).json()) as { redis: string };
      expect(ready.redis).to.equal('up');
      expect(existsSync(dataDir) && readdirSync(dataDir).some((name) => name.startsWith('appendonly'))).to.equal(true);
      service.child.kill('SIGINT');
      expect(await service.exit).to.equal(0);
      expect(await portIsClosed(`redis://127.0.0.1:${redisPort}`)).to.equal(true);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
