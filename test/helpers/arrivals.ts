/** Items that arrive over time (log lines, stream messages) and waits for the first that matches. */
export class Arrivals<T> {
  private readonly waiters = new Set<() => void>();

  /** `items` reads what has arrived so far; `describe` says what was there when a wait times out. */
  constructor(
    private readonly items: () => readonly T[],
    private readonly describe: () => string,
  ) {}

  /** Call after each arrival: wakes every wait. */
  arrived(): void {
    for (const wake of this.waiters) wake();
  }

  /** The first item from index `from` on, arrived already or to come, that matches; rejects after `timeoutMs`. */
  next(match: (item: T) => boolean, timeoutMs: number, from = 0): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = this.items().slice(from).find(match);
        if (found === undefined) return false;
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve(found);
        return true;
      };
      const wake = (): void => void check();
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        reject(new Error(`nothing matching within ${timeoutMs} ms: ${this.describe()}`));
      }, timeoutMs);
      if (!check()) this.waiters.add(wake);
    });
  }
}
