/**
 * The simulated exchange: one HTTP server, each venue under a path prefix, WebSockets upgraded on
 * the same port, and the /__sim control plane.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { ControlPlane, ProviderRegistry } from './control-plane.js';
import { PastDays } from './past-days.js';
import { SimLiquidations } from './liquidations/sim-liquidations.js';
import { floorMinute, MarketModel, MINUTE, type SimMode, type VenueId } from './market-model.js';
import { createSimProviders, PROVIDER_PATH } from './providers/index.js';
import type { LiquidationPublisher, RestReply, Venue, VenueDeps } from './sim-types.js';
import { BinanceVenue } from './venues/binance.js';
import { BitgetVenue } from './venues/bitget.js';
import { BybitVenue } from './venues/bybit.js';
import { OkxVenue } from './venues/okx.js';
import { parseJson } from './ws-hub.js';

export interface SimOptions {
  /** 0 = a free port. */
  port?: number;
  host?: string;
  mode?: SimMode;
  /** Stream push cadence in ms. */
  tickMs?: number;
  seed?: number;
  symbolCount?: number;
  /** Random mode: liquidations per second per exchange, on average (default 0.3). */
  liquidationRate?: number;
}

export interface SimHandle {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  close(): Promise<void>;
}

const VENUE_PATH = /^\/(binance|bybit|okx|bitget)(\/.*)?$/;
const MAX_BODY = 1024 * 1024;

class BodyError extends Error {}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) reject(new BodyError('body too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, reply: RestReply): void {
  const text = JSON.stringify(reply.body);
  res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', ...reply.headers });
  res.end(text);
}

function rejectUpgrade(socket: Duplex, status: number, text: string): void {
  socket.on('error', () => undefined);
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

export async function startSim(opts: SimOptions = {}): Promise<SimHandle> {
  const tickMs = Math.max(20, opts.tickMs ?? 500);
  // the sim's clock: the wall clock, moved on by POST /__sim/close-minute (never back)
  let ahead = 0;
  const now = (): number => Date.now() + ahead;
  const model = new MarketModel({ now, seed: opts.seed, symbolCount: opts.symbolCount, mode: opts.mode ?? 'random', tickMs });
  const pastDays = new PastDays();
  const deps: VenueDeps = { model, now, pastDays };
  const venues = new Map<VenueId, Venue>([
    ['binance', new BinanceVenue(deps)],
    ['bybit', new BybitVenue(deps)],
    ['okx', new OkxVenue(deps)],
    ['bitget', new BitgetVenue(deps)],
  ]);
  const publishers = new Map<string, LiquidationPublisher>(venues);
  const providers = new ProviderRegistry();
  // macro and regional-quote data providers, each under /<provider>/ with its real paths
  const dataProviders = createSimProviders(deps);
  // liquidation formats of the liquidation-only exchanges (and Bitget's v3 socket), random ones in random mode
  const liquidations = new SimLiquidations(deps, providers, opts.seed, opts.liquidationRate);
  for (const publisher of liquidations.publishers()) publishers.set(publisher.exchange, publisher);
  const sync = (): void => {
    for (const { symbol, candle } of model.advance()) for (const v of venues.values()) v.pushClosedCandle(symbol, candle);
  };
  const closeMinute = (): number => {
    const closed = floorMinute(now());
    ahead += closed + MINUTE - now();
    sync();
    // the timer was set for the old minute's end: set it for the new one's
    clearTimeout(minuteTimer);
    scheduleMinute();
    return closed;
  };
  const control = new ControlPlane({ model, venues, publishers, providers, now, sync, closeMinute, liquidations, pastDays });
  // REST requests each venue path was sent ('binance /fapi/v1/klines'), for tests that count what a client costs the exchanges
  const restHits = new Map<string, number>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://sim');
    const method = req.method ?? 'GET';
    if (url.pathname === '/__sim/hits' && method === 'GET')
      return send(res, { status: 200, body: { ok: true, hits: Object.fromEntries(restHits) } });
    if (url.pathname.startsWith('/__sim/')) {
      let body: unknown;
      if (method === 'POST') {
        const text = await readBody(req);
        body = text.trim() === '' ? {} : parseJson(text);
        if (body === undefined) return send(res, { status: 400, body: { ok: false, error: 'body is not valid JSON' } });
      }
      const reply = control.handle(method, url.pathname.slice('/__sim'.length), url.searchParams, body);
      return send(res, reply ?? { status: 404, body: { ok: false, error: `no such control endpoint ${method} ${url.pathname}` } });
    }
    const liquidationReply = liquidations.handleRest(method, url.pathname, url.searchParams, req.headers);
    if (liquidationReply) return send(res, liquidationReply);
    const provider = PROVIDER_PATH.exec(url.pathname);
    const dataProvider = provider ? dataProviders.get(provider[1]) : undefined;
    if (dataProvider) {
      if (providers.isDown(dataProvider.name)) return send(res, { status: 503, body: { error: 'Service Unavailable' } });
      const reply = dataProvider.handle({ path: provider?.[2] ?? '/', query: url.searchParams });
      return send(res, reply ?? { status: 404, body: { error: `no such endpoint ${url.pathname}` } });
    }
    const m = VENUE_PATH.exec(url.pathname);
    const venue = m ? venues.get(m[1] as VenueId) : undefined;
    if (!venue) {
      if (url.pathname === '/' || url.pathname === '/health')
        return send(res, { status: 200, body: { ok: true, venues: [...venues.keys()] } });
      return send(res, { status: 404, body: { ok: false, error: 'not found' } });
    }
    const hit = `${venue.id} ${m?.[2] ?? '/'}`;
    restHits.set(hit, (restHits.get(hit) ?? 0) + 1);
    if (providers.isDown(venue.id)) return send(res, { status: 503, body: { code: 503, msg: 'Service Unavailable' } });
    sync();
    const reply = venue.handleRest({ method, path: m?.[2] ?? '/', query: url.searchParams, headers: req.headers });
    send(res, reply ?? { status: 404, body: { code: 404, msg: `no such endpoint ${url.pathname}` } });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      const status = e instanceof BodyError ? 413 : 500;
      if (!res.headersSent) send(res, { status, body: { ok: false, error: e instanceof Error ? e.message : String(e) } });
      else res.destroy();
    });
  });

  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (liquidations.handleUpgrade(req, socket, head, wss, (status, text) => rejectUpgrade(socket, status, text))) return;
    const url = new URL(req.url ?? '/', 'http://sim');
    const m = VENUE_PATH.exec(url.pathname);
    const venue = m ? venues.get(m[1] as VenueId) : undefined;
    const sub = m?.[2] ?? '/';
    if (!venue || !venue.acceptsWs(sub)) return rejectUpgrade(socket, 404, 'Not Found');
    // a venue that is down refuses new sockets until it is set back up
    if (providers.isDown(venue.id)) return rejectUpgrade(socket, 503, 'Service Unavailable');
    wss.handleUpgrade(req, socket, head, (ws) => venue.onConnection(ws, sub, url.searchParams));
  });

  const tick = setInterval(() => {
    sync();
    model.step();
    for (const v of venues.values()) v.pushTick();
    liquidations.tick(publishers, tickMs);
  }, tickMs);
  tick.unref();

  // close candles right at the minute boundary instead of up to one tick late
  let minuteTimer: NodeJS.Timeout | undefined;
  const scheduleMinute = (): void => {
    const wait = MINUTE - (now() % MINUTE) + 5;
    minuteTimer = setTimeout(() => {
      sync();
      scheduleMinute();
    }, wait);
    minuteTimer.unref();
  };
  scheduleMinute();

  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const publicHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      clearInterval(tick);
      clearTimeout(minuteTimer);
      for (const v of venues.values()) v.dropAll();
      liquidations.drop();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    })();
    return closed;
  };

  return { url: `http://${publicHost}:${port}`, port, close };
}
