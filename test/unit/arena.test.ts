import { expect } from 'chai';
import fc from 'fast-check';
import { publicHandle } from '../../shared/arena/arena-handle.js';
import { seasonCloseOf } from '../../shared/arena/arena-recorder.js';
import { boardRow } from '../../shared/arena/arena-rollup.js';
import {
  answerableSeasons,
  SEASON_ANCHOR_MS,
  SEASON_MS,
  seasonBounds,
  seasonExpiresAt,
  seasonOf,
  SEASONS_KEPT,
} from '../../shared/engine/arena-season.js';
import {
  avgRoePct,
  MIN_CLOSES,
  rankBooks,
  realismLabel,
  returnPct,
  winRatePct,
  type SeasonTally,
} from '../../shared/engine/arena-stats.js';

const tally = (over: Partial<SeasonTally>): SeasonTally => ({
  closes: 5,
  wins: 0,
  pnlCents: 0,
  roeSumBp: 0,
  liquidations: 0,
  slippageCloses: 0,
  tieredCloses: 0,
  ...over,
});

describe('arena: seasons, statistics, ranking, handles (pure)', () => {
  describe('seasons', () => {
    it('counts 14-day UTC seasons from Monday 2026-01-05 00:00 UTC (season 1); a boundary millisecond belongs to the new season', () => {
      expect(new Date(SEASON_ANCHOR_MS).toISOString()).to.equal('2026-01-05T00:00:00.000Z');
      expect(new Date(SEASON_ANCHOR_MS).getUTCDay()).to.equal(1);
      expect(SEASON_MS).to.equal(14 * 86_400_000);
      expect(seasonOf(SEASON_ANCHOR_MS)).to.equal(1);
      expect(seasonOf(SEASON_ANCHOR_MS - 1)).to.equal(0);
      // season 2 starts 2026-01-19 00:00 UTC: its first millisecond is season 2, the one before still season 1
      const second = Date.parse('2026-01-19T00:00:00.000Z');
      expect(seasonOf(second - 1)).to.equal(1);
      expect(seasonOf(second)).to.equal(2);
      // 2026-11-26 is 325 days after the anchor: 325 / 14 = 23.2, season 24, 2026-11-23 to 2026-12-07
      expect(seasonOf(Date.parse('2026-11-26T17:00:00Z'))).to.equal(24);
      expect(seasonBounds(24)).to.deep.equal({
        season: 24,
        start: Date.parse('2026-11-23T00:00:00Z'),
        end: Date.parse('2026-12-07T00:00:00Z'),
      });
    });

    it('keeps a season answerable through the 6 that follow it; its keys expire when the 6th after it ends', () => {
      expect(SEASONS_KEPT).to.equal(6);
      // season 24's data lives until season 30 ends: 24 is the oldest answerable all through season 30
      expect(seasonExpiresAt(24)).to.equal(seasonBounds(30).end);
      expect(answerableSeasons(seasonBounds(30).end - 1)).to.deep.equal({ oldest: 24, current: 30 });
      expect(answerableSeasons(seasonBounds(31).start)).to.deep.equal({ oldest: 25, current: 31 });
      expect(answerableSeasons(seasonBounds(3).start)).to.deep.equal({ oldest: 1, current: 3 });
      fc.assert(
        fc.property(fc.integer({ min: SEASON_ANCHOR_MS, max: SEASON_ANCHOR_MS + 100 * SEASON_MS }), (now) => {
          const { start, end } = seasonBounds(seasonOf(now));
          const { oldest, current } = answerableSeasons(now);
          return start <= now && now < end && current - oldest <= SEASONS_KEPT && seasonExpiresAt(oldest) > now;
        }),
      );
    });
  });

  describe('statistics', () => {
    it('computes a worked example by hand', () => {
      // six closes: +12.34 (ROE 12.34%), -5.00 (-5%), +0.01 (0.01%), 0.00 (0%), -20.50 (-20.5%), +8.15 (8.15%)
      // P&L: 1234 - 500 + 1 + 0 - 2050 + 815 = -500 cents; wins: three above zero (0.00 is a loss, as the book counters count)
      // win rate 3 / 6 = 50%; return -5 / 10,000 = -0.05%; mean ROE (1234 - 500 + 1 + 0 - 2050 + 815) / 6 / 100 = -0.8333 -> -0.83%
      const t = tally({ closes: 6, wins: 3, pnlCents: -500, roeSumBp: -500 });
      expect(winRatePct(t)).to.equal(50);
      expect(returnPct(t, 10_000)).to.equal(-0.05);
      expect(avgRoePct(t)).to.equal(-0.83);
      // 2 wins of 3: 66.666% -> 66.67; +1,234.56 on 10,000: 12.3456% -> 12.35
      expect(winRatePct(tally({ closes: 3, wins: 2 }))).to.equal(66.67);
      expect(returnPct(tally({ pnlCents: 123_456 }), 10_000)).to.equal(12.35);
      expect(winRatePct(tally({ closes: 0 }))).to.equal(null);
      expect(avgRoePct(tally({ closes: 0 }))).to.equal(null);
    });

    it('labels realism off while every close used the engine defaults, on when all used both, partial between', () => {
      expect(realismLabel(tally({ closes: 7 }))).to.equal('off');
      expect(realismLabel(tally({ closes: 7, slippageCloses: 7, tieredCloses: 7 }))).to.equal('on');
      expect(realismLabel(tally({ closes: 7, slippageCloses: 7 }))).to.equal('partial');
      expect(realismLabel(tally({ closes: 7, tieredCloses: 1 }))).to.equal('partial');
    });

    it('shapes a row as the spec lists it, with open-book fields added to the realized P&L', () => {
      const row = boardRow(
        3,
        'acc_x',
        'alpha',
        tally({ closes: 6, wins: 3, pnlCents: -500, roeSumBp: -500, liquidations: 1, slippageCloses: 2 }),
        {
          positions: 2,
          marginCents: 25_000,
          unrealizedCents: 1_234,
        },
      );
      expect(Object.keys(row)).to.deep.equal([
        'rank',
        'who',
        'account',
        'closes',
        'wins',
        'win_rate_pct',
        'pnl_usd',
        'return_pct',
        'avg_roe_pct',
        'liquidations',
        'open_positions',
        'open_margin_usd',
        'open_unrealized_usd',
        'pnl_incl_open_usd',
        'realism',
      ]);
      // -5.00 realized + 12.34 open = 7.34
      expect(row).to.deep.include({
        rank: 3,
        who: publicHandle('acc_x'),
        account: 'alpha',
        pnl_usd: -5,
        open_positions: 2,
        open_margin_usd: 250,
        open_unrealized_usd: 12.34,
        pnl_incl_open_usd: 7.34,
        realism: { slippage_closes: 2, tiered_closes: 0, label: 'partial' },
      });
    });
  });

  describe('ranking', () => {
    it('ranks books with at least 5 closes by realized P&L; equal P&L shares a rank, more wins first', () => {
      expect(MIN_CLOSES).to.equal(5);
      const books = [
        { id: 'a|main', tally: tally({ pnlCents: 10_000, wins: 2 }) },
        { id: 'b|main', tally: tally({ pnlCents: 25_000 }) },
        { id: 'c|main', tally: tally({ pnlCents: 10_000, wins: 4 }) },
        // the best P&L, but only 4 closes: not ranked
        { id: 'd|main', tally: tally({ closes: 4, pnlCents: 40_000 }) },
        { id: 'e|main', tally: tally({ pnlCents: -5_000 }) },
      ];
      const ranked = rankBooks(books, MIN_CLOSES, 10);
      expect(ranked.map((r) => [r.rank, r.entry.id])).to.deep.equal([
        [1, 'b|main'],
        [2, 'c|main'],
        [2, 'a|main'],
        [4, 'e|main'],
      ]);
      expect(rankBooks(books, MIN_CLOSES, 2).map((r) => r.entry.id)).to.deep.equal(['b|main', 'c|main']);
    });

    it('holds for any books: only eligible ones, P&L never rising, competition ranks, at most the limit, independent of input order', () => {
      const book = fc.record({
        id: fc.string({ minLength: 1, maxLength: 6 }),
        tally: fc.record({
          closes: fc.integer({ min: 0, max: 12 }),
          wins: fc.integer({ min: 0, max: 12 }),
          pnlCents: fc.integer({ min: -5, max: 5 }),
          roeSumBp: fc.integer(),
          liquidations: fc.nat(),
          slippageCloses: fc.nat(),
          tieredCloses: fc.nat(),
        }),
      });
      fc.assert(
        fc.property(fc.uniqueArray(book, { selector: (b) => b.id, maxLength: 40 }), fc.integer({ min: 0, max: 50 }), (books, limit) => {
          const ranked = rankBooks(books, MIN_CLOSES, limit);
          const eligible = books.filter((b) => b.tally.closes >= MIN_CLOSES);
          expect(ranked).to.have.length(Math.min(limit, eligible.length));
          ranked.forEach(({ rank, entry }, i) => {
            expect(entry.tally.closes).to.be.at.least(MIN_CLOSES);
            if (i > 0) expect(entry.tally.pnlCents).to.be.at.most(ranked[i - 1].entry.tally.pnlCents);
            expect(rank).to.equal(1 + eligible.filter((b) => b.tally.pnlCents > entry.tally.pnlCents).length);
          });
          const reversed = rankBooks([...books].reverse(), MIN_CLOSES, limit);
          expect(reversed.map((r) => r.entry.id)).to.deep.equal(ranked.map((r) => r.entry.id));
        }),
      );
    });
  });

  describe('handles', () => {
    it('derives a stable public handle from the account that shows neither the account id nor anything sent in', () => {
      expect(publicHandle('acc_ABCDEFGHIJKLMNOP')).to.equal(publicHandle('acc_ABCDEFGHIJKLMNOP'));
      expect(publicHandle('acc_ABCDEFGHIJKLMNOP')).to.not.equal(publicHandle('acc_ABCDEFGHIJKLMNOQ'));
      fc.assert(
        fc.property(fc.string({ minLength: 4 }), (accountId) => {
          const handle = publicHandle(accountId);
          expect(handle).to.match(/^[a-z]+-[a-z]+-[0-9a-f]{4}$/);
          expect(handle).to.not.contain(accountId);
        }),
      );
    });
  });

  describe('closes carried by outbox entries', () => {
    const entry = (event: string, record: Record<string, unknown>, id = '1767571200000-0') => ({
      id,
      fields: { event, book: 'alpha', ts: '1767571200000', position: JSON.stringify(record) },
    });

    it('reads a close, its season from its close time, and its realism stamp; skips replays and other events', () => {
      const record = { id: 'bp1', closed_ts: seasonBounds(2).start, pnl_usd: -12.5, roe_pct: -12.346, liquidated: true };
      expect(seasonCloseOf('acc_x', entry('position.liquidated', record))).to.deep.equal({
        season: 2,
        close: {
          member: 'acc_x|alpha',
          entryId: '1767571200000-0',
          facts: { pnlCents: -1250, roeBp: -1235, liquidated: true, slippage: false, tiered: false },
        },
      });
      const stamped = { ...record, realism: { slippage: true, margin_tiers: true, margin_venue: 'binance' } };
      expect(seasonCloseOf('acc_x', entry('position.closed', stamped))?.close.facts).to.include({ slippage: true, tiered: true });
      expect(seasonCloseOf('acc_x', entry('position.closed', { ...record, src: 'replay' }))).to.equal(null);
      expect(seasonCloseOf('acc_x', entry('position.opened', record))).to.equal(null);
      expect(seasonCloseOf('acc_x', entry('book.reset', record))).to.equal(null);
      expect(
        seasonCloseOf('acc_x', { id: '1-0', fields: { event: 'position.closed', book: 'main', ts: '1', position: '{not json' } }),
      ).to.equal(null);
    });
  });
});
