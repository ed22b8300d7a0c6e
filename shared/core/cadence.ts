/** Work run on a fixed period in a process: the stream's price tick and heartbeat, the connected-book sweep. */

/** Runs `run` every `everyMs` after `offsetMs`; a run that overruns the period skips the next one rather than piling up. */
export class Cadence {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly run: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(everyMs: number, offsetMs: number): void {
    const fire = (): void => {
      this.running ??= this.run()
        .catch(this.onError)
        .finally(() => (this.running = undefined));
    };
    this.timer = setTimeout(() => {
      this.timer = setInterval(fire, everyMs);
      fire();
    }, offsetMs);
  }

  /** Stops the timer and waits for a run in progress. */
  async stop(): Promise<void> {
    clearTimeout(this.timer);
    clearInterval(this.timer);
    await this.running;
  }
}
