/** The shutdown deadline: every process exits within SHUTDOWN_GRACE_MS plus a margin, naming what hung. */

/**
 * Time past SHUTDOWN_GRACE_MS (which in-flight requests may use) for the rest of a shutdown:
 * closing workers, streams and connections takes milliseconds while Redis answers.
 */
export const SHUTDOWN_MARGIN_MS = 5_000;

/** The steps of a shutdown that have begun and not finished, for the line the deadline prints. */
export class ShutdownSteps {
  private readonly running = new Map<string, number>();

  async run<T>(name: string, work: () => Promise<T>): Promise<T> {
    this.running.set(name, (this.running.get(name) ?? 0) + 1);
    try {
      return await work();
    } finally {
      const left = (this.running.get(name) ?? 1) - 1;
      if (left > 0) this.running.set(name, left);
      else this.running.delete(name);
    }
  }

  unfinished(): string[] {
    return [...this.running.keys()];
  }
}

export interface ShutdownPlan {
  /** SHUTDOWN_GRACE_MS: the deadline is this plus SHUTDOWN_MARGIN_MS after the first signal. */
  graceMs: number;
  /** Stops everything; `steps` names each part while it is stopping. */
  stop(steps: ShutdownSteps): Promise<void>;
  /** Writes one line (the process exits 1 right after). */
  report(level: 'info' | 'error' | 'fatal', message: string, fields: Record<string, unknown>): void;
}

/**
 * The handler of SIGINT and SIGTERM: the first signal runs stop() and exits 0 when it is done (1
 * if it threw); the deadline or a second signal exits 1 at once with one line naming the steps
 * still running.
 */
export function shutdownOnSignal(plan: ShutdownPlan): (signal: string) => void {
  const steps = new ShutdownSteps();
  let stopping = false;
  const missed = (why: string): void => {
    const unfinished = steps.unfinished();
    plan.report('fatal', `${why}; still stopping: ${unfinished.join(', ') || 'nothing named'}`, { unfinished });
    process.exit(1);
  };
  return (signal) => {
    if (stopping) return missed(`${signal} during shutdown: exiting now`);
    stopping = true;
    plan.report('info', 'shutting down', { signal });
    const deadlineMs = plan.graceMs + SHUTDOWN_MARGIN_MS;
    setTimeout(() => missed(`shutdown did not finish within ${deadlineMs} ms (SHUTDOWN_GRACE_MS + ${SHUTDOWN_MARGIN_MS})`), deadlineMs);
    plan.stop(steps).then(
      () => process.exit(0),
      (error: unknown) => {
        plan.report('error', 'shutdown failed', { err: error });
        process.exit(1);
      },
    );
  };
}
