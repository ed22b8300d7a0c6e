/**
 * An open-loop load at a fixed rate: requests are sent on an even schedule (one every 1000/rate ms,
 * whatever the answers do) and each latency is taken from the moment the request was due, not
 * from when it went out, so a stalled server is charged for the requests queued behind it
 * (coordinated omission). autocannon's overallRate paces each connection on its own timer, which
 * releases the connections in lock-step bursts; its p99 then measures the bursts, not the server.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Pool } from 'undici';

export interface PacedRequest {
  path: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface PacedResult {
  sent: number;
  /** Every request's latency, ms, ascending (for a p50 and p99 pooled over several runs). */
  latenciesMs: number[];
  ok: number;
  failed: number;
  /** This run's own p99, ms. */
  p99Ms: number;
  /**
   * The load generator's own event-loop delay during the run, p99, ms: a request due while the
   * generator itself was stalled is charged to the server, so this is the floor under its p99.
   */
  generatorDelayP99Ms: number;
}

export interface PacedOptions {
  url: string;
  rate: number;
  seconds: number;
  connections: number;
  /** The i-th request; called when it is due. */
  next(i: number): PacedRequest;
  /** Sees each answer (e.g. to remember an opened position for a later close). */
  onAnswer?(i: number, status: number, body: string): void;
}

/** The q-quantile of ascending values (the value at rank floor(q x n)). */
export const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

export async function pacedLoad(options: PacedOptions): Promise<PacedResult> {
  const pool = new Pool(options.url, { connections: options.connections });
  const latencies: number[] = [];
  let ok = 0;
  let failed = 0;
  const send = async (i: number, dueAt: number): Promise<void> => {
    try {
      const request = options.next(i);
      const response = await pool.request({ path: request.path, method: request.method, headers: request.headers, body: request.body });
      const body = await response.body.text();
      latencies.push(performance.now() - dueAt);
      if (response.statusCode >= 200 && response.statusCode < 300) ok += 1;
      else failed += 1;
      options.onAnswer?.(i, response.statusCode, body);
    } catch {
      latencies.push(performance.now() - dueAt);
      failed += 1;
    }
  };
  const total = Math.round(options.rate * options.seconds);
  const intervalMs = 1000 / options.rate;
  const inFlight: Promise<void>[] = [];
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const start = performance.now();
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const due = Math.min(total, Math.floor((performance.now() - start) / intervalMs) + 1);
      for (; sent < due; sent += 1) inFlight.push(send(sent, start + sent * intervalMs));
      if (sent >= total) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  await Promise.all(inFlight);
  delay.disable();
  await pool.close();
  latencies.sort((a, b) => a - b);
  return { sent, latenciesMs: latencies, ok, failed, p99Ms: quantile(latencies, 0.99), generatorDelayP99Ms: delay.percentile(99) / 1e6 };
}
