/**
 * The process's own settings, declared for the composed config (shared/config.ts): where it listens, which roles it
 * runs, its log, its shutdown and heap, the proxies it trusts and the operator's tokens. No feature's vocabulary.
 */
import Joi from 'joi';
import { parseTrustProxy, type TrustProxy } from './trust-proxy.js';

export type Role = 'all' | 'api' | 'feed' | 'worker';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface ServerSettings {
  port: number;
  host: string;
  role: Role;
}

export function serverSchema(): Record<string, Joi.Schema> {
  return {
    PORT: Joi.number().integer().min(0).max(65535).default(8080),
    HOST: Joi.string().default('0.0.0.0'),
    ROLE: Joi.string().valid('all', 'api', 'feed', 'worker').default('all'),
  };
}

export function serverSettings(value: { PORT: number; HOST: string; ROLE: Role }): ServerSettings {
  return { port: value.PORT, host: value.HOST, role: value.ROLE };
}

export function trustProxySchema(): Record<string, Joi.Schema> {
  return { TRUST_PROXY: Joi.string().default('false') };
}

export function trustProxySettings(value: { TRUST_PROXY: string }): { trustProxy: TrustProxy } {
  return { trustProxy: parseTrustProxy(value.TRUST_PROXY) };
}

export function logSchema(): Record<string, Joi.Schema> {
  return { LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info') };
}

export interface LifecycleSettings {
  shutdownGraceMs: number;
  /**
   * How far the heap's old generation may grow past what the last full collection kept, in
   * percent, before the next full collection; 0 leaves it to V8. Full collections stall the event
   * loop and take CPU from every thread, so fewer of them cut the API's tail latency.
   */
  heapGrowingPercent: number;
  /**
   * V8's allocation-site pretenuring: once most objects made at one place in the code outlived a
   * young collection, V8 makes the later ones straight in the old generation, where only a full
   * collection frees them. A request's objects live a few milliseconds; off, they die young.
   */
  heapPretenuring: boolean;
}

export function lifecycleSchema(): Record<string, Joi.Schema> {
  return {
    SHUTDOWN_GRACE_MS: Joi.number().integer().min(0).default(10_000),
    HEAP_GROWING_PERCENT: Joi.number().integer().min(0).max(1000).default(300),
    HEAP_PRETENURING: Joi.boolean().truthy('1').falsy('0').default(false),
  };
}

export function lifecycleSettings(value: {
  SHUTDOWN_GRACE_MS: number;
  HEAP_GROWING_PERCENT: number;
  HEAP_PRETENURING: boolean;
}): LifecycleSettings {
  return {
    shutdownGraceMs: value.SHUTDOWN_GRACE_MS,
    heapGrowingPercent: value.HEAP_GROWING_PERCENT,
    heapPretenuring: value.HEAP_PRETENURING,
  };
}

export interface OperatorSettings {
  /**
   * The operator token: the /ops routes (the queue dashboard) take it as a bearer token or as HTTP basic with user `ops`.
   * Unset: every /ops route answers 404, so nothing operator-only is exposed by default.
   */
  opsToken: string | undefined;
  /**
   * The scrape token (METRICS_TOKEN): GET /metrics takes it the same ways, and it opens nothing else, so Prometheus's
   * credentials cannot open the dashboard. Unset: the API's /metrics answers 404.
   */
  metricsToken: string | undefined;
  /** A listener of its own serving GET /metrics in this process (worker and feed processes); unset: none. */
  metricsPort: number | undefined;
}

export function operatorSchema(): Record<string, Joi.Schema> {
  return {
    // a token a person could guess or an empty one would open the dashboard: at least 16 characters
    OPS_TOKEN: Joi.string().allow('').min(16).pattern(/^\S+$/).messages({ 'string.pattern.base': 'must not contain whitespace' }),
    METRICS_TOKEN: Joi.string().allow('').min(16).pattern(/^\S+$/).messages({ 'string.pattern.base': 'must not contain whitespace' }),
    METRICS_PORT: Joi.number().integer().min(0).max(65535),
  };
}

export function operatorSettings(value: { OPS_TOKEN?: string; METRICS_TOKEN?: string; METRICS_PORT?: number }): OperatorSettings {
  return { opsToken: value.OPS_TOKEN || undefined, metricsToken: value.METRICS_TOKEN || undefined, metricsPort: value.METRICS_PORT };
}
