/**
 * What the soak records of each process under test: its resident memory read every second (a window keeps its lowest
 * reading), and from the process's own /metrics (prom-client's process metrics, METRICS_PORT) its JS heap in use, its
 * event-loop delay p99 since the previous scrape (prom-client resets the histogram at each) and its open handles.
 */
import { readFileSync } from 'node:fs';

export interface SampledProcess {
  /** 'api', 'worker', 'feed' or 'all'. */
  label: string;
  pid: number;
  /** Its /metrics listener; without one only the resident memory is read. */
  metricsUrl: string | undefined;
}

export interface ProcessSample {
  /** The lowest resident memory read in the window, MB. */
  rssMb: number;
  /** JS heap in use at the end of the window, MB (NaN without metrics). */
  heapUsedMb: number;
  /** Event-loop delay p99 over the window, ms (NaN without metrics). */
  eventLoopP99Ms: number;
  /** Open handles (sockets, servers, timers with a handle), at the end of the window (NaN without metrics). */
  activeHandles: number;
}

export function rssMb(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** One unlabelled gauge of a Prometheus text exposition (NaN when absent). */
function gauge(text: string, name: string): number {
  const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return match ? Number(match[1]) : NaN;
}

const round1 = (value: number): number => Math.round(value * 10) / 10;

export class ProcessSampler {
  private readonly lowest = new Map<number, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(readonly processes: readonly SampledProcess[]) {
    this.read();
    this.timer = setInterval(() => this.read(), 1_000);
  }

  private read(): void {
    for (const { pid } of this.processes) {
      const mb = rssMb(pid);
      if (mb > 0) this.lowest.set(pid, Math.min(this.lowest.get(pid) ?? Infinity, mb));
    }
  }

  /** Each process's sample for the window that ends now; the next window starts afresh. */
  async sample(): Promise<Record<string, ProcessSample>> {
    this.read();
    const entries = await Promise.all(
      this.processes.map(async ({ label, pid, metricsUrl }): Promise<[string, ProcessSample]> => {
        const text = metricsUrl ? await fetch(metricsUrl).then((r) => r.text()) : '';
        const sample = {
          rssMb: round1(this.lowest.get(pid) ?? 0),
          heapUsedMb: round1(gauge(text, 'nodejs_heap_size_used_bytes') / 1e6),
          eventLoopP99Ms: round1(gauge(text, 'nodejs_eventloop_lag_p99_seconds') * 1000),
          activeHandles: gauge(text, 'nodejs_active_handles_total'),
        };
        this.lowest.delete(pid);
        return [label, sample];
      }),
    );
    return Object.fromEntries(entries);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
