/**
 * Base URLs of the outside services a process reads: the live hosts by default, or a path of the
 * simulated exchange (`${SIM_URL}/<name>`) with MARKET_SOURCE=sim, and one environment variable each
 * to point anywhere else. The feature modules name their services; this holds the rule they share.
 */
import Joi from 'joi';

export type MarketSource = 'live' | 'sim';

/** Base URLs of one exchange: REST origin and WebSocket origin (paths like /fapi/v1/... and /stream are appended). */
export interface VenueUrls {
  rest: string;
  ws: string;
}

const withoutTrailingSlash = (url: string): string => url.replace(/\/+$/, '');

/** A set override from the validated environment, or undefined. */
function override(value: Record<string, unknown>, name: string): string | undefined {
  const url = value[name];
  return typeof url === 'string' && url !== '' ? withoutTrailingSlash(url) : undefined;
}

/** BINANCE_REST_URL and BINANCE_WS_URL, ... */
const restEnv = (venue: string): string => `${venue.toUpperCase()}_REST_URL`;
const wsEnv = (venue: string): string => `${venue.toUpperCase()}_WS_URL`;

/** The Joi keys of each exchange's two URL variables, for the config schema. */
export function venueUrlSchema(venues: readonly string[]): Record<string, Joi.StringSchema> {
  return Object.fromEntries(
    venues.flatMap((venue) => [
      [restEnv(venue), Joi.string().uri({ scheme: ['http', 'https'] })],
      [wsEnv(venue), Joi.string().uri({ scheme: ['ws', 'wss'] })],
    ]),
  );
}

/** The live hosts, or `${simUrl}/<venue>` (http -> ws for the WebSocket side), with any override applied. */
export function venueUrlsFrom<V extends string>(
  venues: readonly V[],
  live: Record<V, VenueUrls>,
  value: Record<string, unknown>,
  source: MarketSource,
  simUrl: string,
): Record<V, VenueUrls> {
  const base = withoutTrailingSlash(simUrl);
  const wsBase = base.replace(/^http/, 'ws');
  const out = {} as Record<V, VenueUrls>;
  for (const venue of venues) {
    const fallback = source === 'live' ? live[venue] : { rest: `${base}/${venue}`, ws: `${wsBase}/${venue}` };
    out[venue] = { rest: override(value, restEnv(venue)) ?? fallback.rest, ws: override(value, wsEnv(venue)) ?? fallback.ws };
  }
  return out;
}

/** One base URL per service: the live host, or `${simUrl}/<sim path>`, or the `envName` override. */
export function serviceUrlsFrom<S extends string>(
  services: readonly S[],
  place: { live: Record<S, string>; simPath: Record<S, string>; envName: (service: S) => string },
  value: Record<string, unknown>,
  source: MarketSource,
  simUrl: string,
): Record<S, string> {
  const base = withoutTrailingSlash(simUrl);
  const out = {} as Record<S, string>;
  for (const service of services) {
    const fallback = source === 'live' ? place.live[service] : `${base}/${place.simPath[service]}`;
    out[service] = override(value, place.envName(service)) ?? fallback;
  }
  return out;
}
