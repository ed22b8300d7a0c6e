/**
 * A signal that aborts when any of its sources does, and a release that unhooks it from them.
 *
 * Not `AbortSignal.any`: on Node 20 that adds a reference to every signal it makes to each source's set of dependants,
 * and only a source's abort empties the set; combining a long-lived source (a role's closing signal, a refresher's stop)
 * with a signal per job or per request therefore grows the heap by one entry per call for the life of the process.
 */
export interface LinkedSignal {
  signal: AbortSignal;
  /** Removes the listeners on the sources; call it when the work the signal guards has ended. */
  release(): void;
}

export function linkedSignal(...sources: (AbortSignal | undefined)[]): LinkedSignal {
  const controller = new AbortController();
  const present = sources.filter((source): source is AbortSignal => source !== undefined);
  const aborted = present.find((source) => source.aborted);
  if (aborted) {
    controller.abort(aborted.reason);
    return { signal: controller.signal, release: () => undefined };
  }
  const release = (): void => {
    for (const source of present) source.removeEventListener('abort', onAbort);
  };
  function onAbort(this: AbortSignal): void {
    release();
    controller.abort(this.reason);
  }
  for (const source of present) source.addEventListener('abort', onAbort, { once: true });
  return { signal: controller.signal, release };
}
