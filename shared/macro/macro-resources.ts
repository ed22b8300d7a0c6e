/**
 * The macro resources kept in Redis, how often the jobs refresh them, and how old a snapshot may be
 * before it is served as stale even though no attempt failed (the job has stopped running).
 */
const MINUTE = 60_000;

export const MACRO_RESOURCES = {
  fearGreed: 'fear-greed',
  coins: 'coins',
  global: 'global',
  trending: 'trending',
  defi: 'defi',
  categories: 'categories',
} as const;

/** The snapshot of one CoinGecko category's coins (fetched on demand by the API). */
export const categoryResource = (category: string): string => `coins:${category}`;

export const MACRO_JOBS = { fearGreed: 'fear-greed', coinGecko: 'coingecko', defiLlama: 'defillama' } as const;
export type MacroJob = (typeof MACRO_JOBS)[keyof typeof MACRO_JOBS];

export const FEAR_GREED_EVERY_MS = 10 * MINUTE;
export const COINGECKO_EVERY_MS = 5 * MINUTE;
export const DEFILLAMA_EVERY_MS = 15 * MINUTE;
/** The category list changes rarely: the CoinGecko job refetches it when older than this. */
export const CATEGORIES_REFRESH_MS = 6 * 60 * MINUTE;
/** A category fetched on demand is fresh this long... */
export const CATEGORY_FRESH_MS = 10 * MINUTE;
/** ...and kept this long as the stale fallback. */
export const CATEGORY_KEEP_MS = 24 * 60 * MINUTE;

/** Three missed refreshes make a snapshot stale. */
export const MAX_AGE_MS: Record<string, number> = {
  [MACRO_RESOURCES.fearGreed]: 3 * FEAR_GREED_EVERY_MS,
  [MACRO_RESOURCES.coins]: 3 * COINGECKO_EVERY_MS,
  [MACRO_RESOURCES.global]: 3 * COINGECKO_EVERY_MS,
  [MACRO_RESOURCES.trending]: 3 * COINGECKO_EVERY_MS,
  [MACRO_RESOURCES.defi]: 3 * DEFILLAMA_EVERY_MS,
  [MACRO_RESOURCES.categories]: 4 * CATEGORIES_REFRESH_MS,
};
