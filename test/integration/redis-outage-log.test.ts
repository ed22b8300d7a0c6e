import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { duplicateClient, type RedisClient } from '../../shared/core/redis-client.js';
import { pino } from 'pino';
import { createSweepProducer, type SweepProducer } from '../../shared/queues/sweep-producer.js';
import { closeRedis, createBlockingRedis, createRedis, RedisOutageLog, redisOutages } from '../../shared/redis/connection.js';
import { freePort, waitForReady } from '../../shared/redis/embedded.js';
import { waitFor } from '../helpers/market-wait.js';

/** A Redis of this test's own, killed and started again on the same port. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitForReady(child);
  return child;
}

describe('a Redis outage is logged once, not once per reconnect', function () {
  this.timeout(30_000);
  const logged: Record<string, unknown>[] = [];
  const printed: string[] = [];
  const consoleError = console.error;
  let server: ChildProcess | undefined;
  let clients: RedisClient[] = [];
  let producer: SweepProducer | undefined;

  before(() => {
    redisOutages.useLogger(
      pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line) as Record<string, unknown>) }),
    );
    // ioredis prints "[ioredis] Unhandled error event" with console.error when a connection has no 'error' listener
    console.error = (...args: unknown[]) => void printed.push(args.map(String).join(' '));
  });
  after(async () => {
    console.error = consoleError;
    await producer?.close();
    await closeRedis(...clients);
    server?.kill('SIGKILL');
  });

  it('every connection (plain, blocking, a duplicate, a BullMQ queue) reports to one log: the first error and the recovery', async () => {
    const port = await freePort();
    server = await startRedis(port);
    const url = `redis://127.0.0.1:${port}`;
    const plain = createRedis(url);
    clients = [plain, createBlockingRedis(url), duplicateClient(plain)];
    producer = createSweepProducer(url);
    await producer.enqueue({ symbol: 'BTCUSDT', minute: 0, open: 1, high: 1, low: 1, close: 1 });
    await Promise.all(clients.map((client) => client.ping()));

    const errorsSeen = clients.map(() => 0);
    clients.forEach((client, i) => client.on('error', () => (errorsSeen[i] += 1)));
    server.kill('SIGKILL');
    await once(server, 'exit');
    // every connection retries and fails several times
    await waitFor(() => errorsSeen.every((n) => n >= 3), 20_000, 'three failed reconnects per connection');
    expect(logged.map((entry) => entry.msg)).to.deep.equal(['redis unreachable (retrying; logged again when it is back)']);
    expect(logged[0]).to.include({ code: 'ECONNREFUSED', level: 40 });
    expect(logged[0]).to.not.have.property('err');

    server = await startRedis(port);
    await waitFor(() => logged.length === 2, 10_000, 'the recovery line');
    expect(logged[1]).to.include({ msg: 'redis reachable again', level: 30 });
    expect(logged[1].downMs).to.be.a('number');
    await Promise.all(clients.map((client) => client.ping()));
    expect(logged).to.have.length(2);
    expect(printed).to.deep.equal([]);
  });

  it('a logger given during an outage starts with none: no recovery line for an outage it never heard begin', () => {
    const lines = (into: string[]) =>
      pino({ level: 'info' }, { write: (line: string) => void into.push((JSON.parse(line) as { msg: string }).msg) });
    const log = new RedisOutageLog();
    const first: string[] = [];
    const second: string[] = [];
    log.useLogger(lines(first));
    log.onError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }));
    log.useLogger(lines(second));
    log.onReady();
    expect(first).to.deep.equal(['redis unreachable (retrying; logged again when it is back)']);
    expect(second).to.deep.equal([]);
  });
});
