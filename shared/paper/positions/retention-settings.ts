/** How long closed trades stay in Redis (the prune job, trade-prune.ts), declared for the composed config (shared/config.ts). */
import Joi from 'joi';
import { LONGEST_HISTORY_DAYS } from '../plans.js';

export interface RetentionSettings {
  /** Closed trades older than this many days leave Redis (the prune job), folded into each book's compact counters. */
  tradeRetentionDays: number;
  /** Closed trades (and books visited) one run of the prune job handles at most; a backlog goes on at the next run. */
  tradePrunePerRun: number;
}

export function retentionSchema(): Record<string, Joi.Schema> {
  return {
    // no shorter than the longest window a plan reads (trades, report, equity): a prune must not change what a client sees
    TRADE_RETENTION_DAYS: Joi.number().integer().min(LONGEST_HISTORY_DAYS).default(LONGEST_HISTORY_DAYS),
    TRADE_PRUNE_PER_RUN: Joi.number().integer().min(1).default(20_000),
  };
}

export function retentionSettings(value: { TRADE_RETENTION_DAYS: number; TRADE_PRUNE_PER_RUN: number }): RetentionSettings {
  return { tradeRetentionDays: value.TRADE_RETENTION_DAYS, tradePrunePerRun: value.TRADE_PRUNE_PER_RUN };
}
