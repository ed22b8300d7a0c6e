import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { createLogger } from '../../shared/core/logger.js';
import type { VenueTick } from '../../shared/market/types.js';
import { createBybitTickerState, parseBybitMessage } from '../../shared/market/venues/bybit-format.js';
import { ReconnectingSocket, type SocketProtocol } from '../../workers/streams/reconnecting-socket.js';
import { frameHandler } from '../../workers/streams/venue-connector.js';
import { fixture } from '../helpers/fixtures.js';
import { waitFor } from '../helpers/market-wait.js';

const logger = createLogger({ logLevel: 'silent' });

interface TestServer {
  url: string;
  /** Text frames received, per connection in order of arrival. */
  received: string[][];
  sockets: WebSocket[];
  close(): Promise<void>;
}

async function startServer(onConnection?: (ws: WebSocket) => void): Promise<TestServer> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const received: string[][] = [];
  const sockets: WebSocket[] = [];
  wss.on('connection', (ws) => {
    const frames: string[] = [];
    received.push(frames);
    sockets.push(ws);
    ws.on('message', (data) => frames.push(data.toString()));
    onConnection?.(ws);
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    received,
    sockets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close(() => resolve());
      }),
  };
}

const protocol: SocketProtocol = {
  subscribe: (topics) => [JSON.stringify({ op: 'subscribe', args: topics })],
  unsubscribe: (topics) => [JSON.stringify({ op: 'unsubscribe', args: topics })],
  ping: { kind: 'text', text: 'ping' },
  isPong: (text) => text === 'pong',
};

function socket(url: string, onText: (text: string) => void = () => undefined, silenceMs = 60_000): ReconnectingSocket {
  return new ReconnectingSocket({
    name: 'test#0',
    url,
    logger,
    protocol,
    silenceMs,
    pingIntervalMs: 100,
    reconnectMinMs: 50,
    reconnectMaxMs: 200,
    sendGapMs: 5,
    onText,
  });
}

describe('reconnecting exchange socket', () => {
  let server: TestServer | undefined;
  let client: ReconnectingSocket | undefined;
  afterEach(async () => {
    await client?.stop();
    await server?.close();
    client = server = undefined;
  });

  it('treats a connection that stays silent as down, reconnects and resubscribes', async () => {
    server = await startServer();
    client = socket(server.url, undefined, 300);
    client.setTopics(['a', 'b']);
    client.start();
    await waitFor(() => server!.received.length >= 3, 5_000, 'two reconnects after silence');
    for (const frames of server.received.slice(0, 2)) {
      expect(frames[0]).to.equal(JSON.stringify({ op: 'subscribe', args: ['a', 'b'] }));
      expect(
        frames.slice(1).every((f) => f === 'ping'),
        'then only keep-alive pings',
      ).to.equal(true);
    }
  });

  it('stays connected while the venue answers pings, even with no data', async () => {
    server = await startServer((ws) => ws.on('message', (d) => d.toString() === 'ping' && ws.send('pong')));
    client = socket(server.url, undefined, 300);
    client.start();
    await waitFor(() => (server!.received[0]?.filter((f) => f === 'ping').length ?? 0) >= 10, 5_000, 'ten pings answered');
    expect(server.received).to.have.length(1);
    expect(client.connected).to.equal(true);
  });

  it('reconnects after the server drops it, subscribing everything again, and sends only differences while up', async () => {
    server = await startServer();
    const data = (i: number): string[] => (server!.received[i] ?? []).filter((f) => f !== 'ping');
    client = socket(server.url);
    client.setTopics(['a', 'b']);
    client.start();
    await waitFor(() => data(0).length === 1, 2_000, 'first subscribe');
    client.setTopics(['b', 'c']);
    await waitFor(() => data(0).length === 3, 2_000, 'the diff');
    expect(data(0).slice(1)).to.deep.equal([
      JSON.stringify({ op: 'unsubscribe', args: ['a'] }),
      JSON.stringify({ op: 'subscribe', args: ['c'] }),
    ]);
    server.sockets[0].terminate();
    await waitFor(() => data(1).length === 1, 3_000, 'resubscribe after the drop');
    expect(data(1)[0]).to.equal(JSON.stringify({ op: 'subscribe', args: ['b', 'c'] }));
    expect(client.connects).to.equal(2);
  });

  it('logs and skips malformed frames and keeps delivering the good ones', async () => {
    const ticks: VenueTick[] = [];
    const state = createBybitTickerState();
    const handler = frameHandler('bybit', logger, (msg) => parseBybitMessage(msg, state), {
      onTicks: (t) => ticks.push(...t),
      onCandles: () => undefined,
    });
    server = await startServer((ws) => {
      ws.send('not json at all');
      ws.send('{"topic":"tickers.BTCUSDT","type":"snapshot","data":"oops","ts":1}');
      ws.send('[1,2,3]');
      ws.send(Buffer.from([0xff, 0xfe, 0x00]));
      ws.send(JSON.stringify(fixture('bybit-v5/ws-tickers-linear.json')));
    });
    client = socket(server.url, handler);
    client.start();
    await waitFor(() => ticks.length > 0, 3_000, 'the good tick');
    expect(ticks).to.have.length(1);
    expect(ticks[0]).to.include({ symbol: 'BTCUSDT', price: 66666.6 });
    expect(client.connected).to.equal(true);
  });

  it('keeps retrying a server that is not there, and stops cleanly', async () => {
    server = await startServer();
    const url = server.url;
    await server.close();
    server = undefined;
    const failures: string[] = [];
    client = new ReconnectingSocket({
      name: 'test#0',
      url,
      logger,
      protocol,
      silenceMs: 60_000,
      pingIntervalMs: 100,
      reconnectMinMs: 20,
      reconnectMaxMs: 100,
      sendGapMs: 5,
      onText: () => undefined,
      onDisconnect: (reason) => failures.push(reason),
    });
    client.start();
    await waitFor(() => failures.length >= 3, 3_000, 'three failed attempts');
    expect(failures[0]).to.match(/ECONNREFUSED/);
    expect(client.connected).to.equal(false);
    await client.stop();
  });
});
