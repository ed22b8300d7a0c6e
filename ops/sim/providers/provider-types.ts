/** The simulated data providers (macro and regional quotes): one module each, mounted under /<name>/ with the real paths. */
import type { MarketModel } from '../market-model.js';
import type { RestReply } from '../sim-types.js';

export interface ProviderDeps {
  readonly model: MarketModel;
  readonly now: () => number;
}

export interface ProviderRequest {
  /** Path below the provider prefix, e.g. /api/v3/global. */
  path: string;
  query: URLSearchParams;
}

export interface SimProvider {
  /** Path prefix and the name /__sim/provider switches. */
  readonly name: string;
  /** undefined: no such endpoint (404). */
  handle(req: ProviderRequest): RestReply | undefined;
}

export const json = (body: unknown, status = 200): RestReply => ({ status, body });

/** FNV-1a: stable pseudo-random numbers from a text, so every run serves the same shapes. */
export function hashOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** A number in [0, 1) from a text. */
export const unit = (text: string): number => hashOf(text) / 4294967296;

export const DAY_MS = 86_400_000;
