import { expect } from 'chai';
import fc from 'fast-check';
import { settleCents, type SettleInput } from '../../shared/engine/settlement.js';
import {
  auditBook,
  prunedTrades,
  recomputeBook,
  tradeCents,
  type LedgerTrade,
  type StoredBookMoney,
} from '../../shared/paper/audit/ledger-audit.js';

const fresh = (): StoredBookMoney => ({
  starting_balance: 10_000,
  realized_cents: 0,
  closed: 0,
  wins: 0,
  losses: 0,
  liquidations: 0,
  best_cents: null,
  life_realized_cents: 0,
  life_closed: 0,
  life_wins: 0,
  life_losses: 0,
});

/** The counter writes of position-close.lua for one settled close of `cents`. */
function applyClose(counters: StoredBookMoney, cents: number, liquidated: boolean): StoredBookMoney {
  return {
    ...counters,
    realized_cents: counters.realized_cents + cents,
    closed: counters.closed + 1,
    wins: counters.wins + (cents > 0 ? 1 : 0),
    losses: counters.losses + (cents > 0 ? 0 : 1),
    liquidations: counters.liquidations + (liquidated ? 1 : 0),
    best_cents: counters.best_cents === null || cents > counters.best_cents ? cents : counters.best_cents,
    life_realized_cents: counters.life_realized_cents + cents,
    life_closed: counters.life_closed + 1,
    life_wins: counters.life_wins + (cents > 0 ? 1 : 0),
    life_losses: counters.life_losses + (cents > 0 ? 0 : 1),
  };
}

/** The counter writes of book-reset.lua: the life_* counters are kept. */
const applyReset = (counters: StoredBookMoney): StoredBookMoney => {
  const { life_realized_cents, life_closed, life_wins, life_losses } = counters;
  return { ...fresh(), life_realized_cents, life_closed, life_wins, life_losses };
};

const settleArb: fc.Arbitrary<SettleInput> = fc.record({
  side: fc.constantFrom('long' as const, 'short' as const),
  qty: fc.double({ min: 0.0001, max: 50, noNaN: true }),
  entry: fc.double({ min: 0.01, max: 100_000, noNaN: true }),
  exit: fc.double({ min: 0.01, max: 100_000, noNaN: true }),
  ratePct: fc.constantFrom(0.055, 0.02, 0.015, 0.008, 0.01),
  fundingUsd: fc.double({ min: -50, max: 50, noNaN: true }),
  margin: fc.double({ min: 1, max: 100_000, noNaN: true }),
});

type Step = { kind: 'close'; input: SettleInput; liquidated: boolean } | { kind: 'reset' };
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ kind: fc.constant('close' as const), input: settleArb, liquidated: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reset' as const }) },
);

describe('ledger audit (pure): counters recomputed from the closed trades', () => {
  it('property: any sequence of settled closes and resets, as the scripts count it, equals the recomputation from the trades since the last reset and the archived ones', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 60 }), (steps) => {
        let counters = fresh();
        let ledger: LedgerTrade[] = [];
        const archived: LedgerTrade[] = [];
        for (const step of steps) {
          if (step.kind === 'reset') {
            counters = applyReset(counters);
            archived.push(...ledger);
            ledger = [];
            continue;
          }
          const cents = settleCents(step.input);
          counters = applyClose(counters, cents, step.liquidated);
          ledger.push({ pnl_usd: cents / 100, ...(step.liquidated ? { liquidated: true } : {}) });
        }
        expect(auditBook(counters, ledger, archived)).to.deep.equal([]);
        const recomputed = recomputeBook(ledger, archived);
        expect(recomputed.balance_cents).to.equal(1_000_000 + counters.realized_cents);
        expect(Number(recomputed.wins) + Number(recomputed.losses)).to.equal(ledger.length);
      }),
      { numRuns: 300 },
    );
  });

  it('property: with the oldest trades pruned into the compact counters (as trades-prune.lua keeps them), the audit still adds up', () => {
    /** The pruned counters hash as trades-prune.lua writes it: period fields named by their reset, life_* of every trade. */
    type Pruned = Record<string, string>;
    const add = (h: Pruned, field: string, n: number) => (h[field] = String(Number(h[field] ?? 0) + n));
    const fold = (h: Pruned, trades: LedgerTrade[], current: boolean) => {
      for (const trade of trades) {
        const cents = tradeCents(trade);
        add(h, 'life_realized_cents', cents);
        add(h, 'life_closed', 1);
        add(h, 'life_wins', cents > 0 ? 1 : 0);
        if (!current) continue;
        add(h, 'realized_cents', cents);
        add(h, 'closed', 1);
        add(h, 'wins', cents > 0 ? 1 : 0);
        add(h, 'liquidations', trade.liquidated === true ? 1 : 0);
        if (h.best_cents === undefined || cents > Number(h.best_cents)) h.best_cents = String(cents);
      }
    };
    const pruneStep = fc.record({ kind: fc.constant('prune' as const), count: fc.integer({ min: 1, max: 8 }) });
    const steps = fc.array(fc.oneof({ weight: 6, arbitrary: stepArb }, { weight: 1, arbitrary: pruneStep }), { maxLength: 80 });
    fc.assert(
      fc.property(steps, (all) => {
        let counters = fresh();
        let resetTs = 0;
        let ledger: LedgerTrade[] = [];
        let archived: LedgerTrade[] = [];
        const pruned: Pruned = {};
        all.forEach((step, i) => {
          if (step.kind === 'reset') {
            counters = applyReset(counters);
            resetTs = i + 1;
            archived = [...archived, ...ledger];
            ledger = [];
          } else if (step.kind === 'prune') {
            if (Number(pruned.reset_ts ?? 0) !== resetTs) {
              Object.assign(pruned, { reset_ts: String(resetTs), realized_cents: '0', closed: '0', wins: '0', liquidations: '0' });
              delete pruned.best_cents;
            }
            // the archives' trades first (the oldest), then the live ones
            const fromArchive = archived.slice(0, step.count);
            archived = archived.slice(fromArchive.length);
            const fromLedger = ledger.slice(0, step.count - fromArchive.length);
            ledger = ledger.slice(fromLedger.length);
            fold(pruned, fromArchive, false);
            fold(pruned, fromLedger, true);
          } else {
            const cents = settleCents(step.input);
            counters = applyClose(counters, cents, step.liquidated);
            ledger.push({ pnl_usd: cents / 100, ...(step.liquidated ? { liquidated: true } : {}) });
          }
        });
        expect(auditBook(counters, ledger, archived, prunedTrades(pruned, resetTs))).to.deep.equal([]);
      }),
      { numRuns: 300 },
    );
  });

  it('names each field that differs, stored against recomputed', () => {
    const trades: LedgerTrade[] = [{ pnl_usd: 12.34 }, { pnl_usd: -5 }, { pnl_usd: 0 }, { pnl_usd: -100, liquidated: true }];
    let counters = fresh();
    for (const trade of trades) counters = applyClose(counters, Math.round(trade.pnl_usd * 100), trade.liquidated === true);
    expect(counters).to.include({ realized_cents: -9266, wins: 1, losses: 3, liquidations: 1, best_cents: 1234 });
    expect(auditBook(counters, trades)).to.deep.equal([]);

    expect(auditBook({ ...counters, realized_cents: counters.realized_cents + 1 }, trades)).to.deep.equal([
      { field: 'balance_cents', stored: 1_000_000 - 9265, recomputed: 1_000_000 - 9266 },
      { field: 'realized_cents', stored: -9265, recomputed: -9266 },
    ]);
    expect(auditBook({ ...counters, starting_balance: 20_000 }, trades)).to.deep.equal([
      { field: 'balance_cents', stored: 2_000_000 - 9266, recomputed: 1_000_000 - 9266 },
    ]);
    expect(auditBook({ ...counters, wins: 2, best_cents: null }, trades)).to.deep.equal([
      { field: 'wins', stored: 2, recomputed: 1 },
      { field: 'best_cents', stored: null, recomputed: 1234 },
    ]);
    expect(auditBook(fresh(), [])).to.deep.equal([]);
    expect(auditBook(fresh(), trades.slice(0, 1)).map((d) => d.field)).to.deep.equal([
      'balance_cents',
      'realized_cents',
      'closed',
      'wins',
      'best_cents',
      'life_realized_cents',
      'life_closed',
      'life_wins',
    ]);
    // the lifetime counters also count what the resets archived
    const reset = applyReset(counters);
    expect(auditBook(reset, [], trades)).to.deep.equal([]);
    expect(auditBook(reset, [], trades.slice(1)).map((d) => d.field)).to.deep.equal(['life_realized_cents', 'life_closed', 'life_wins']);
  });
});
