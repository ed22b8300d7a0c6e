/** alternative.me Fear and Greed: GET /fng/?limit=N, newest first, every value a string (fixtures/alternative-me). */
import { DAY_MS, json, unit, type ProviderDeps, type SimProvider } from './provider-types.js';

export function classify(value: number): string {
  if (value <= 24) return 'Extreme Fear';
  if (value <= 44) return 'Fear';
  if (value <= 55) return 'Neutral';
  if (value <= 75) return 'Greed';
  return 'Extreme Greed';
}

/** The index of a UTC day: a slow wave plus a little noise, 5..95. */
export function fearGreedOfDay(day: number): number {
  const wave = 50 + 35 * Math.sin(day / 9);
  return Math.max(5, Math.min(95, Math.round(wave + (unit(`fng:${day}`) - 0.5) * 10)));
}

export function alternativeMe(deps: ProviderDeps): SimProvider {
  return {
    name: 'alternative-me',
    handle: ({ path, query }) => {
      if (path !== '/fng/' && path !== '/fng') return undefined;
      const asked = Number(query.get('limit') ?? '1');
      const limit = Number.isInteger(asked) && asked >= 0 ? Math.min(asked === 0 ? 365 : asked, 365) : 1;
      const now = deps.now();
      const today = Math.floor(now / DAY_MS);
      const data = Array.from({ length: limit }, (_, i) => {
        const day = today - i;
        const value = fearGreedOfDay(day);
        const row: Record<string, string> = {
          value: String(value),
          value_classification: classify(value),
          timestamp: String((day * DAY_MS) / 1000),
        };
        if (i === 0) row.time_until_update = String(Math.round(((today + 1) * DAY_MS - now) / 1000));
        return row;
      });
      return json({ name: 'Fear and Greed Index', data, metadata: { error: null } });
    },
  };
}
