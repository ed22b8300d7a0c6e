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
