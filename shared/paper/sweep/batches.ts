/** Work on many items in pipelines of a bounded size, a few in flight: Redis runs one while the client builds the next. */

/**
 * Items per pipeline: large enough to save round trips, small enough that what is in flight stays
 * small (each young-generation collection copies it: bench/README.md, design figures).
 */
export const BATCH_SIZE = 200;
/** Pipelines in flight at once: Redis always has one to run while the client works on another. */
export const BATCH_LANES = 4;

/** Runs `run` on consecutive batches of the items, `lanes` at a time; the results in the order of the items. */
export async function inBatches<T, R>(
  items: readonly T[],
  run: (batch: readonly T[]) => Promise<R[]>,
  size = BATCH_SIZE,
  lanes = BATCH_LANES,
): Promise<R[]> {
  const out: R[][] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const start = next;
      next += size;
      out[start / size] = await run(items.slice(start, start + size));
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, Math.ceil(items.length / size)) }, lane));
  return out.flat();
}
