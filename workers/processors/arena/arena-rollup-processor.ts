/** The arena queue's processor: ranks the season's books and stores the board GET /api/arena serves (scheduled, once per cluster). */
import { QUEUES } from '../../../shared/queues/queue-names.js';
import type { ProcessorDefinition } from '../registry.js';

/** How often the board is ranked again: the route's cache is as long, so a board is at most about two minutes old. */
export const ARENA_ROLLUP_EVERY_MS = 60_000;

export const arenaRollupProcessor: ProcessorDefinition = {
  queue: QUEUES.arena,
  create: ({ domain }) => ({ process: () => domain.arena.rollup.run() }),
};
