import { MarketModel } from '../../ops/sim/market-model.js';

/** The simulator's market model on a fixed clock: its venue formatters produce the sim's exact frames. */
export const SIM_NOW = Date.UTC(2025, 0, 15, 12, 30, 20);

export function simModel(): MarketModel {
  return new MarketModel({ now: () => SIM_NOW, seed: 7, symbolCount: 50, mode: 'scripted' });
}
