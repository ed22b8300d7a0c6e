/** The cost model: the per-side taker rate an open is stamped with and the funding multiplier it carries. Pure. */

/** The base per-side rate, percent: taker_bps when the profile sets one (1 bp = 0.01%), else the table's (class or venue). */
export function takerBasePct(tablePct: number, takerBps: number | null): number {
  return takerBps === null ? tablePct : takerBps / 100;
}

/** What funding a position pays or receives is multiplied by: 0 with funding off. */
export function fundingMultiplier(funding: boolean, mult: number): number {
  return funding ? mult : 0;
}
