/** Client side of the push benchmarks: many stream sockets, a webhook receiver, and the latency summaries. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket } from 'ws';

export interface Percentiles {
  samples: number;
  medianMs: number;
  p99Ms: number;
  maxMs: number;
}

export function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
  return { samples: sorted.length, medianMs: at(50), p99Ms: at(99), maxMs: sorted[sorted.length - 1] ?? 0 };
}

interface Frame {
  type: string;
  ts: number;
  data?: Record<string, unknown>;
}

/** Opens sockets `batch` at a time; each is ready at its first message of type `readyType` (when open, for null). */
export async function connectMany(urls: string[], readyType: string | null, batch = 100): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  for (let i = 0; i < urls.length; i += batch) {
    const opened = await Promise.all(
      urls.slice(i, i + batch).map(
        (url) =>
          new Promise<WebSocket>((resolve, reject) => {
            const ws = new WebSocket(url, { perMessageDeflate: false });
            const onMessage = (data: Buffer): void => {
              if ((JSON.parse(data.toString()) as Frame).type !== readyType) return;
              ws.off('message', onMessage);
              resolve(ws);
            };
            if (readyType === null) ws.once('open', () => resolve(ws));
            else ws.on('message', onMessage);
            ws.once('error', reject);
            ws.once('close', (code, reason) => reject(new Error(`socket closed before ready: ${code} ${reason.toString()}`)));
          }),
      ),
    );
    sockets.push(...opened);
  }
  return sockets;
}

/** Ticks after the sockets connected that are not counted (the connection burst's tail). */
const WARM_UP_TICKS = 3;

/**
 * Price-tick fan-out: for each tick (its ts is the server's send time), the time until every socket
 * has it, i.e. the latest arrival. The first ticks seen are a warm-up and not counted.
 */
export function measureFanOut(sockets: WebSocket[], ticks: number, timeoutMs: number): Promise<number[]> {
  const ticksSeen = new Map<number, { count: number; latest: number }>();
  const complete: number[] = [];
  const warmUp = new Set<number>();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error(`fan-out: ${complete.length} of ${ticks} ticks reached every socket within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const listeners = sockets.map((ws) => {
      const listener = (data: Buffer): void => {
        const now = Date.now();
        const frame = JSON.parse(data.toString()) as Frame;
        if (frame.type !== 'prices') return;
        if (warmUp.size < WARM_UP_TICKS && !ticksSeen.has(frame.ts)) warmUp.add(frame.ts);
        if (warmUp.has(frame.ts)) return;
        const tick = ticksSeen.get(frame.ts) ?? { count: 0, latest: 0 };
        tick.count += 1;
        tick.latest = Math.max(tick.latest, now - frame.ts);
        ticksSeen.set(frame.ts, tick);
        if (tick.count === sockets.length) {
          complete.push(tick.latest);
          if (complete.length >= ticks) finish();
        }
      };
      ws.on('message', listener);
      return listener;
    });
    function finish(error?: Error): void {
      clearTimeout(timer);
      sockets.forEach((ws, i) => ws.off('message', listeners[i]));
      if (error) reject(error);
      else resolve(complete);
    }
  });
}

/** Collects position events on sockets: arrival minus the event's ts (its settlement time). */
export function collectPositionEvents(sockets: WebSocket[]): { latencies: number[]; arrivals: number[]; stop(): void } {
  const latencies: number[] = [];
  const arrivals: number[] = [];
  const listener = (data: Buffer): void => {
    const now = Date.now();
    const frame = JSON.parse(data.toString()) as Frame;
    if (frame.type !== 'position') return;
    latencies.push(now - frame.ts);
    arrivals.push(now);
  };
  for (const ws of sockets) ws.on('message', listener);
  return { latencies, arrivals, stop: () => sockets.forEach((ws) => ws.off('message', listener)) };
}

export interface BenchReceiver {
  url: string;
  latencies: number[];
  arrivals: number[];
  close(): Promise<void>;
}

/** A webhook receiver answering 204 at once; it notes arrival minus the body's ts (the event's settlement time). */
export async function startBenchReceiver(): Promise<BenchReceiver> {
  const latencies: number[] = [];
  const arrivals: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const now = Date.now();
      latencies.push(now - (JSON.parse(Buffer.concat(chunks).toString()) as { ts: number }).ts);
      arrivals.push(now);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    latencies,
    arrivals,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function closeAll(sockets: WebSocket[]): void {
  for (const ws of sockets) ws.terminate();
}
