import { startSim, type SimHandle } from '../../ops/sim/sim-server.js';

export type { SimHandle };

/** The simulated exchange on a free port, prices moving only when told. */
export function startScriptedSim(): Promise<SimHandle> {
  return startSim({ port: 0, host: '127.0.0.1', mode: 'scripted', tickMs: 100 });
}

/** POST /__sim/<path>; throws on a refusal so a typo in a test fails loudly. */
export async function simControl(sim: SimHandle, path: string, body: Record<string, unknown>): Promise<unknown> {
  const response = await fetch(`${sim.url}/__sim/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as unknown;
  if (!response.ok) throw new Error(`sim ${path} refused: ${JSON.stringify(json)}`);
  return json;
}

/** Prices of one scripted candle. */
export interface CandlePrices {
  symbol: string;
  open: number;
  high: number;
  low: number;
  close: number;
}

/**
 * Sets the candle of the sim's current minute and answers that minute: the sim closes it with these
 * prices at the minute's end, however long the caller takes meanwhile. A minute that ended just
 * before the call is closed already (the sim answers 'past'): the next one is set instead.
 */
export async function scriptCurrentCandle(sim: SimHandle, candle: CandlePrices): Promise<number> {
  for (;;) {
    const minute = Date.now() - (Date.now() % 60_000);
    const reply = (await simControl(sim, 'candle', { ...candle, minute })) as { kind: 'current' | 'past' };
    if (reply.kind === 'current') return minute;
  }
}
