import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHUTDOWN_MARGIN_MS } from '../../shared/core/shutdown.js';
import { freePort, waitForReady } from '../../shared/redis/embedded.js';
import { getJson } from '../helpers/app.js';
import { waitFor } from '../helpers/market-wait.js';
import { portIsClosed, spawnDemo, spawnService, type ServiceProcess } from '../helpers/process.js';

function exitWithin(service: ServiceProcess, ms: number): Promise<number | null> {
  return Promise.race([
    service.exit,
    new Promise<never>((_resolve, reject) =>
      setTimeout(() => reject(new Error(`still running ${ms} ms later; output:\n${service.lines.slice(-40).join('\n')}`)), ms).unref(),
    ),
  ]);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function jsonLine(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

describe('shutdown', function () {
  this.timeout(120_000);

  // Ctrl-C in a terminal is SIGINT to the foreground process group, closing the terminal SIGHUP; an orchestrator may TERM the group
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`${signal} to the demo's process group stops the roles, then its Redis, and exits 0 within seconds`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-demo-'));
      const demo = spawnDemo({
        PORT: '0',
        HOST: '127.0.0.1',
        SIM_PORT: String(await freePort()),
        REDIS_DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
      });
      const groupId = demo.child.pid;
      let redisPid: number | undefined;
      try {
        const started = jsonLine(await demo.waitForLine((line) => line.includes('private redis-server started'), 60_000)) as {
          url: string;
          pid: number;
          dataDir: string;
        };
        redisPid = started.pid;
        expect(started.dataDir).to.equal(dataDir);
        const url = (await demo.waitForLine((line) => line.startsWith('Perpdesk is up at '), 60_000)).split(' ')[4].replace(/,$/, '');
        // the banner says where the demo's Redis is and how to reach it with the CLI
        expect(await demo.waitForLine((line) => line.includes('Redis: '))).to.contain(
          `Redis: ${started.url} (a private redis-server, data in ${dataDir};`,
        );
        expect(await demo.waitForLine((line) => line.includes('npm run cli'))).to.equal(
          `  try REDIS_URL=${started.url} npm run cli -- keys list --email demo@perpdesk.local`,
        );
        // every role busy: the feed writing prices, the workers sweeping, the API answering
        await waitFor(
          async () => ((await getJson<{ data?: { pairs: unknown[] } }>(`${url}/api/v1/prices`)).body.data?.pairs.length ?? 0) === 8,
          30_000,
          'the eight majors',
        );

        const signalled = Date.now();
        process.kill(-(groupId as number), signal);
        expect(await exitWithin(demo, 15_000)).to.equal(0);
        // on failure, what each step took: the log lines from the signal on, ms after it
        const steps = () =>
          demo.lines
            .map((line) => jsonLine(line))
            .filter((line): line is Record<string, unknown> => typeof line?.time === 'number' && (line.time as number) >= signalled)
            .map((line) => `+${(line.time as number) - signalled} ms ${String(line.role ?? '')} ${String(line.msg)}`)
            .join('\n');
        const tookMs = Date.now() - signalled;
        expect(tookMs, `stopped in ${tookMs} ms:\n${steps()}`).to.be.below(5_000);

        const from = demo.lines.findIndex((line) => line.includes('"msg":"shutting down"'));
        expect(from).to.be.greaterThan(-1);
        const after = demo.lines.slice(from);
        // one JSON object a line: no raw stacks, no ioredis console output, no reconnect flood
        expect(after.filter((line) => jsonLine(line) === undefined)).to.deep.equal([]);
        expect(demo.lines.filter((line) => /ECONNREFUSED|Unhandled error event|^\s+at /.test(line))).to.deep.equal([]);
        const messages = after.map((line) => jsonLine(line)?.msg);
        // Redis last, after every role
        expect(messages.filter((msg) => typeof msg === 'string' && /role stopped|redis-server stopped/.test(msg))).to.deep.equal([
          'feed role stopped',
          'worker role stopped',
          'private redis-server stopped',
        ]);
        expect(messages).to.include('stopped');
        expect(isAlive(started.pid)).to.equal(false);
        expect(await portIsClosed(started.url)).to.equal(true);
      } finally {
        if (demo.child.exitCode === null && demo.child.signalCode === null) process.kill(-(groupId as number), 'SIGKILL');
        if (redisPid !== undefined && isAlive(redisPid)) process.kill(redisPid, 'SIGKILL');
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }

  it('a signal while starting stops the service once it is up, its private Redis included', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-start-'));
    const service = spawnService({ PORT: '0', HOST: '127.0.0.1', ROLE: 'api', REDIS_DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    let redisPid: number | undefined;
    try {
      const started = jsonLine(await service.waitForLine((line) => line.includes('private redis-server started'))) as { pid: number };
      redisPid = started.pid;
      // Redis is up, the API not yet
      service.child.kill('SIGINT');
      expect(await exitWithin(service, 15_000)).to.equal(0);
      expect(service.lines.some((line) => line.includes('"msg":"api listening"'))).to.equal(true);
      expect(isAlive(started.pid)).to.equal(false);
    } finally {
      if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
      if (redisPid !== undefined && isAlive(redisPid)) process.kill(redisPid, 'SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  describe('with a Redis that stopped answering', () => {
    const graceMs = 300;
    let redis: ReturnType<typeof spawn>;
    let redisUrl: string;

    beforeEach(async () => {
      const port = await freePort();
      redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      await waitForReady(redis);
      redisUrl = `redis://127.0.0.1:${port}`;
    });
    afterEach(() => {
      redis.kill('SIGCONT');
      redis.kill('SIGKILL');
    });

    const startFrozen = async (): Promise<ServiceProcess> => {
      // the worker role (its providers on a closed port: nothing leaves the machine)
      const service = spawnService({
        ROLE: 'worker',
        REDIS_URL: redisUrl,
        MARKET_SOURCE: 'sim',
        SIM_URL: 'http://127.0.0.1:1',
        SHUTDOWN_GRACE_MS: String(graceMs),
        LOG_LEVEL: 'info',
      });
      await service.waitForLine((line) => line.includes('"msg":"worker role started"'));
      // the connections stay open and nothing answers: BullMQ's close waits for ever
      redis.kill('SIGSTOP');
      return service;
    };

    it('exits 1 after SHUTDOWN_GRACE_MS plus the margin with one line naming what did not finish', async () => {
      const service = await startFrozen();
      const signalled = Date.now();
      service.child.kill('SIGTERM');
      const deadline = graceMs + SHUTDOWN_MARGIN_MS;
      expect(await exitWithin(service, deadline + 10_000)).to.equal(1);
      expect(Date.now() - signalled).to.be.within(deadline, deadline + 3_000);
      const missed = service.lines.map(jsonLine).filter((entry) => entry?.level === 60);
      expect(missed).to.have.length(1);
      expect(missed[0]).to.deep.include({ unfinished: ['worker role'] });
      expect(missed[0]?.msg).to.equal(
        `shutdown did not finish within ${deadline} ms (SHUTDOWN_GRACE_MS + ${SHUTDOWN_MARGIN_MS}); still stopping: worker role`,
      );
    });

    it('a second signal exits at once, naming what was still stopping', async () => {
      const service = await startFrozen();
      service.child.kill('SIGTERM');
      await service.waitForLine((line) => line.includes('"msg":"shutting down"'));
      service.child.kill('SIGINT');
      expect(await exitWithin(service, 2_000)).to.equal(1);
      expect(
        service.lines.some((line) => jsonLine(line)?.msg === 'SIGINT during shutdown: exiting now; still stopping: worker role'),
      ).to.equal(true);
    });
  });
});
