/**
 * Runs tasks one after another per key, and tasks of different keys side by side: a task starts
 * once every task given earlier for its key has settled, whether it succeeded or failed.
 */
export class InOrderByKey {
  /** The last task given for each key, settled or not; gone once it settles with nothing after it. */
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a task not yet settled. */
  get busyKeys(): number {
    return this.tails.size;
  }
}
