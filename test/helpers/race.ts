import { expect } from 'chai';

/**
 * Outcomes of one client_order_id raced from several pods: exactly one of kind `winner`, and every outcome names the
 * same record (so none was refused). Returns the winner's id.
 */
export function expectOneWinner<R extends { kind: string }>(
  results: readonly R[],
  winner: R['kind'],
  idOf: (outcome: R) => string | undefined,
): string | undefined {
  const won = results.filter((r) => r.kind === winner);
  expect(won).to.have.length(1);
  const id = idOf(won[0]);
  for (const r of results) expect(idOf(r)).to.equal(id);
  return id;
}
