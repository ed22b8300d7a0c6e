import { expect } from 'chai';
import fc from 'fast-check';
import type { Side } from '../../shared/engine/side.js';
import { effectiveStop, ratchetHwm, ratchetTrail, tighterStop, trailingStop } from '../../shared/engine/trailing.js';
import {
  CLOSE_REASONS,
  decide,
  findTrigger,
  levelsChange,
  levelsInForce,
  type PriceWindow,
  type SweepDecision,
  type SweepState,
} from '../../shared/engine/triggers.js';

const side = fc.constantFrom<Side>('long', 'short');
const price = fc.double({ min: 0.01, max: 1e6, noNaN: true, noDefaultInfinity: true });
const pct = fc.double({ min: 0.05, max: 50, noNaN: true, noDefaultInfinity: true });
const MINUTE = 60_000;

/** A long at 100, 10x (liquidation 90.5), opened long before the windows below. */
function position(over: Partial<SweepState> = {}): SweepState {
  return { side: 'long', sl: null, tp: null, liq_price: 90.5, trail_pct: null, trail_hwm: null, opened_ts: 0, ...over };
}

const candle = (low: number, high: number, minute = 10 * MINUTE): PriceWindow => ({ low, high, from: minute, to: minute + MINUTE });

describe('sweep triggers and trailing stops (pure)', () => {
  describe('trailing stops', () => {
    it('puts the stop trail_pct from the high-water mark on the losing side', () => {
      expect(trailingStop('long', 110, 5)).to.equal(104.5);
      expect(trailingStop('short', 90, 5)).to.equal(94.5);
      fc.assert(
        fc.property(side, price, pct, (s, hwm, p) => {
          const stop = trailingStop(s, hwm, p);
          const distance = s === 'long' ? hwm - stop : stop - hwm;
          return Math.abs(distance - (hwm * p) / 100) <= hwm * 1e-9;
        }),
      );
    });

    it('never loosens: over any price path the mark only improves and the stop only tightens, long and short alike', () => {
      fc.assert(
        fc.property(side, price, pct, fc.array(price, { maxLength: 60 }), (s, entry, p, path) => {
          let hwm = entry;
          let stop = trailingStop(s, hwm, p);
          for (const px of path) {
            const nextHwm = ratchetHwm(s, hwm, px);
            const nextStop = trailingStop(s, nextHwm, p);
            if (s === 'long' ? nextHwm < hwm || nextStop < stop : nextHwm > hwm || nextStop > stop) return false;
            hwm = nextHwm;
            stop = nextStop;
          }
          return true;
        }),
      );
    });

    it('mirrors the mark between long and short (negated prices)', () => {
      fc.assert(fc.property(price, price, (hwm, px) => ratchetHwm('short', hwm, px) === -ratchetHwm('long', -hwm, -px)));
    });

    it('ratchets only when the price improves the mark, and remembers the newest price time', () => {
      const p = { side: 'long' as const, trail_pct: 5, trail_hwm: 100 };
      expect(ratchetTrail(p, 99, 5)).to.equal(null);
      expect(ratchetTrail(p, 100, 5)).to.equal(null);
      expect(ratchetTrail(p, 104, 7)).to.deep.equal({ trail_hwm: 104, trail_ts: 7, trail_prev_hwm: 100, trail_prev_ts: 0 });
      expect(ratchetTrail({ ...p, trail_ts: 9 }, 104, 7)).to.deep.equal({
        trail_hwm: 104,
        trail_ts: 9,
        trail_prev_hwm: 100,
        trail_prev_ts: 9,
      });
      expect(ratchetTrail({ side: 'long', trail_pct: null, trail_hwm: null }, 200, 1)).to.equal(null);
    });

    it('the stop in force is the tighter of the stop-loss and the trailing stop', () => {
      expect(tighterStop('long', 95, 96)).to.equal(96);
      expect(tighterStop('short', 105, 104)).to.equal(104);
      expect(tighterStop('long', null, 96)).to.equal(96);
      expect(tighterStop('long', null, null)).to.equal(null);
      expect(effectiveStop({ side: 'long', sl: 90, trail_pct: 5, trail_hwm: 100 })).to.equal(95);
      expect(effectiveStop({ side: 'long', sl: 97, trail_pct: 5, trail_hwm: 100 })).to.equal(97);
      expect(effectiveStop({ side: 'short', sl: null, trail_pct: 1.5, trail_hwm: 60000 })).to.equal(60900);
      expect(effectiveStop({ side: 'short', sl: null, trail_pct: null, trail_hwm: null })).to.equal(null);
    });
  });

  describe('which level a candle crosses', () => {
    it('settles a long stop, target and liquidation at their levels; a short likewise', () => {
      const long = position({ sl: 95, tp: 110 });
      expect(findTrigger(long, { low: 94, high: 101 }, true)).to.deep.equal({ reason: 'stop_loss', price: 95 });
      expect(findTrigger(long, { low: 99, high: 111 }, true)).to.deep.equal({ reason: 'take_profit', price: 110 });
      expect(findTrigger(long, { low: 96, high: 109 }, true)).to.equal(null);
      expect(findTrigger(position(), { low: 89, high: 100 }, true)).to.deep.equal({ reason: 'liquidation', price: 90.5 });
      const short = position({ side: 'short', sl: 105, tp: 90, liq_price: 109.5 });
      expect(findTrigger(short, { low: 99, high: 106 }, true)).to.deep.equal({ reason: 'stop_loss', price: 105 });
      expect(findTrigger(short, { low: 89, high: 101 }, true)).to.deep.equal({ reason: 'take_profit', price: 90 });
      expect(findTrigger(position({ side: 'short', liq_price: 109.5 }), { low: 100, high: 110 }, true)).to.deep.equal({
        reason: 'liquidation',
        price: 109.5,
      });
    });

    it('picks the stop when one candle crosses both the stop and the target (conservative)', () => {
      expect(findTrigger(position({ sl: 95, tp: 110 }), { low: 94, high: 111 }, true)).to.deep.equal({ reason: 'stop_loss', price: 95 });
      expect(findTrigger(position({ side: 'short', sl: 105, tp: 90, liq_price: 109.5 }), { low: 89, high: 106 }, true)).to.deep.equal({
        reason: 'stop_loss',
        price: 105,
      });
    });

    it('between a stop and the liquidation takes the level the falling price reaches first', () => {
      // long: a stop above the liquidation price fires first; below it, the liquidation does
      expect(findTrigger(position({ sl: 92 }), { low: 89, high: 100 }, true)).to.deep.equal({ reason: 'stop_loss', price: 92 });
      expect(findTrigger(position({ sl: 88 }), { low: 87, high: 100 }, true)).to.deep.equal({ reason: 'liquidation', price: 90.5 });
      expect(findTrigger(position({ sl: 90.5 }), { low: 87, high: 100 }, true)).to.deep.equal({ reason: 'stop_loss', price: 90.5 });
      const short = position({ side: 'short', liq_price: 109.5 });
      expect(findTrigger({ ...short, sl: 108 }, { low: 100, high: 111 }, true)).to.deep.equal({ reason: 'stop_loss', price: 108 });
      expect(findTrigger({ ...short, sl: 112 }, { low: 100, high: 113 }, true)).to.deep.equal({ reason: 'liquidation', price: 109.5 });
    });

    it('names a trailing stop that is tighter than the stop-loss as trailing_stop', () => {
      const p = position({ sl: 90, trail_pct: 5, trail_hwm: 110 });
      expect(findTrigger(p, { low: 104, high: 106 }, true)).to.deep.equal({ reason: 'trailing_stop', price: 104.5 });
      expect(findTrigger(p, { low: 104, high: 106 }, false)).to.equal(null);
      expect(findTrigger({ ...p, sl: 104.5 }, { low: 104, high: 106 }, true)).to.deep.equal({ reason: 'stop_loss', price: 104.5 });
    });

    it('decides a short exactly as the mirrored long (prices negated)', () => {
      const level = fc.option(price, { nil: null });
      fc.assert(
        fc.property(level, level, price, price, price, (sl, tp, liq, a, b) => {
          const [low, high] = a <= b ? [a, b] : [b, a];
          const long = findTrigger(position({ sl, tp, liq_price: liq }), { low, high }, true);
          const short = findTrigger(
            position({ side: 'short', sl: sl === null ? null : -sl, tp: tp === null ? null : -tp, liq_price: -liq }),
            { low: -high, high: -low },
            true,
          );
          return long === null ? short === null : short !== null && short.reason === long.reason && short.price === -long.price;
        }),
      );
    });

    it('never prefers the target when a losing level is crossed too', () => {
      fc.assert(
        fc.property(side, price, price, price, price, price, (s, sl, tp, liq, a, b) => {
          const [low, high] = a <= b ? [a, b] : [b, a];
          const p = position({ side: s, sl, tp, liq_price: liq });
          const losingCrossed = s === 'long' ? low <= sl || low <= liq : high >= sl || high >= liq;
          const t = findTrigger(p, { low, high }, true);
          return !losingCrossed || (t !== null && t.reason !== CLOSE_REASONS.takeProfit);
        }),
      );
    });
  });

  describe('deciding a position against a window', () => {
    it('does not apply a window that starts at or before the open (its extremes may predate the position)', () => {
      const p = position({ sl: 95, opened_ts: 10 * MINUTE + 30_000 });
      expect(decide(p, candle(80, 120), true).kind).to.equal('none');
      expect(decide(p, candle(80, 120, 11 * MINUTE), true)).to.deep.equal({ kind: 'settle', trigger: { reason: 'stop_loss', price: 95 } });
      expect(decide({ ...p, opened_ts: 10 * MINUTE }, candle(80, 120), true).kind).to.equal('none');
    });

    it('moves a trailing stop by a candle extreme only after checking the candle against the stop in force', () => {
      // entry 100, 5%: stop 95. The candle's own high (110) would put the stop at 104.5, above its low (97)
      const p = position({ trail_pct: 5, trail_hwm: 100 });
      const first = decide(p, candle(97, 110), true);
      expect(first).to.deep.equal({ kind: 'ratchet', trail_hwm: 110, trail_ts: 11 * MINUTE, trail_prev_hwm: 100, trail_prev_ts: 0 });
      const moved = { ...p, trail_hwm: 110, trail_ts: 11 * MINUTE, trail_prev_hwm: 100, trail_prev_ts: 0 };
      // the same candle again (a retried job): nothing, the stop it moved is newer than it
      expect(decide(moved, candle(97, 110), true).kind).to.equal('none');
      // the next candle is checked against the moved stop
      expect(decide(moved, candle(104, 106, 11 * MINUTE), true)).to.deep.equal({
        kind: 'settle',
        trigger: { reason: 'trailing_stop', price: 104.5 },
      });
      // a live price after the candle too
      expect(decide(moved, { low: 103, high: 103, from: 11 * MINUTE + 5, to: 11 * MINUTE + 5 }, false)).to.deep.equal({
        kind: 'settle',
        trigger: { reason: 'trailing_stop', price: 104.5 },
      });
    });

    it('never fires a trailing stop at a level its own window moved, and a retried window changes nothing', () => {
      fc.assert(
        fc.property(side, price, pct, price, price, (s, entry, p, a, b) => {
          const [low, high] = a <= b ? [a, b] : [b, a];
          const pos = position({ side: s, liq_price: s === 'long' ? 0 : Infinity, trail_pct: p, trail_hwm: entry });
          const w = candle(low, high);
          const d = decide(pos, w, true);
          if (d.kind === 'settle') return d.trigger.price === trailingStop(s, entry, p);
          if (d.kind === 'none') return true;
          return (
            decide(
              { ...pos, trail_hwm: d.trail_hwm, trail_ts: d.trail_ts, trail_prev_hwm: d.trail_prev_hwm, trail_prev_ts: d.trail_prev_ts },
              w,
              true,
            ).kind === 'none'
          );
        }),
      );
    });

    it('keeps the mark a minute began with while reads move it within that minute', () => {
      const p = { side: 'long' as const, trail_pct: 5, trail_hwm: 100, trail_ts: 9 * MINUTE };
      const first = ratchetTrail(p, 104, 10 * MINUTE + 20_000)!;
      expect(first).to.deep.equal({ trail_hwm: 104, trail_ts: 10 * MINUTE + 20_000, trail_prev_hwm: 100, trail_prev_ts: 9 * MINUTE });
      const second = ratchetTrail({ ...p, ...first }, 106, 10 * MINUTE + 40_000)!;
      expect(second).to.deep.equal({ trail_hwm: 106, trail_ts: 10 * MINUTE + 40_000, trail_prev_hwm: 100, trail_prev_ts: 9 * MINUTE });
      // the next minute began with 106
      expect(ratchetTrail({ ...p, ...second }, 107, 11 * MINUTE + 5_000)).to.deep.equal({
        trail_hwm: 107,
        trail_ts: 11 * MINUTE + 5_000,
        trail_prev_hwm: 106,
        trail_prev_ts: 10 * MINUTE + 40_000,
      });
    });

    it('checks the candle of a minute whose mark a read moved against the stop that minute began with', () => {
      /** A 5% trailing stop whose mark reads moved to `hwm` at `ts`, in a minute that began with `prevHwm` (marked at `prevTs`). */
      const trailing5 = (hwm: number, ts: number, prevHwm: number, prevTs: number, over: Partial<SweepState> = {}): SweepState =>
        position({ trail_pct: 5, trail_hwm: hwm, trail_ts: ts, trail_prev_hwm: prevHwm, trail_prev_ts: prevTs, ...over });
      // long at 100, 5%: the minute began with the stop at 95; a read at :20 moved the mark to 110 (stop 104.5)
      const long = trailing5(110, 10 * MINUTE + 20_000, 100, 9 * MINUTE);
      expect(decide(long, candle(94, 110), true)).to.deep.equal({ kind: 'settle', trigger: { reason: 'trailing_stop', price: 95 } });
      // a low between the two stops may have come before the move: not fired by this candle, fired by the next one
      expect(decide(long, candle(100, 110), true).kind).to.equal('none');
      expect(decide(long, candle(104, 108, 11 * MINUTE), true)).to.deep.equal({
        kind: 'settle',
        trigger: { reason: 'trailing_stop', price: 104.5 },
      });
      const short = trailing5(90, 10 * MINUTE + 20_000, 100, 9 * MINUTE, { side: 'short', liq_price: 109.5 });
      expect(decide(short, candle(90, 106), true)).to.deep.equal({ kind: 'settle', trigger: { reason: 'trailing_stop', price: 105 } });
      expect(decide(short, candle(90, 100), true).kind).to.equal('none');
      // a previous mark from within the candle's minute is no older than the candle: no trailing check at all
      const twice = trailing5(110, 11 * MINUTE + 5_000, 106, 10 * MINUTE + 40_000);
      expect(decide(twice, candle(99, 105), true).kind).to.equal('none');
    });

    it('in general: after reads moved the mark within a minute, its candle fires the trailing stop exactly when it crosses the stop the minute began with, at that stop', () => {
      fc.assert(
        fc.property(side, price, pct, fc.array(price, { minLength: 1, maxLength: 5 }), price, price, (s, entry, p, reads, a, b) => {
          const start = 10 * MINUTE;
          let pos: SweepState = position({
            side: s,
            liq_price: s === 'long' ? 0 : Infinity,
            trail_pct: p,
            trail_hwm: entry,
            trail_ts: start - MINUTE,
          });
          reads.forEach((px, i) => {
            const moved = ratchetTrail(pos, px, start + 1 + i);
            if (moved) pos = { ...pos, ...moved };
          });
          // the reads' prices are within the minute's range
          const low = Math.min(a, ...reads);
          const high = Math.max(b, ...reads);
          const began = trailingStop(s, entry, p);
          const crossed = s === 'long' ? low <= began : high >= began;
          const d = decide(pos, candle(low, high, start), true);
          return crossed ? d.kind === 'settle' && d.trigger.reason === 'trailing_stop' && d.trigger.price === began : d.kind !== 'settle';
        }),
      );
    });

    it('leaves trailing stops alone on live windows (candle false) and positions that trigger do not ratchet', () => {
      const p = position({ trail_pct: 5, trail_hwm: 100, tp: 108 });
      expect(decide(p, { low: 107, high: 107, from: MINUTE, to: MINUTE }, false).kind).to.equal('none');
      expect(decide(p, candle(99, 109), true)).to.deep.equal({ kind: 'settle', trigger: { reason: 'take_profit', price: 108 } });
    });
  });

  describe("levels set within a candle's minute", () => {
    const start = 10 * MINUTE;
    const live = (px: number, at: number): PriceWindow => ({ low: px, high: px, from: at, to: at });

    it('does not fire a stop set mid-minute on a low that may predate it; the next candle and live prices do', () => {
      // long at 100; the minute's low (95) came at :10, the stop (97) was set at :30 with the price at 99
      const p = position({ sl: 97, levels_ts: start + 30_000 });
      expect(decide(p, candle(95, 100), true).kind).to.equal('none');
      expect(decide(p, candle(96, 99, start + MINUTE), true)).to.deep.equal({
        kind: 'settle',
        trigger: { reason: 'stop_loss', price: 97 },
      });
      expect(decide(p, live(96.5, start + 40_000), false)).to.deep.equal({ kind: 'settle', trigger: { reason: 'stop_loss', price: 97 } });
    });

    it('holds a target and a trailing stop set mid-minute the same way, long and short', () => {
      const at = start + 1;
      expect(decide(position({ tp: 103, levels_ts: at }), candle(99, 104), true).kind).to.equal('none');
      expect(decide(position({ side: 'short', tp: 97, liq_price: 109.5, levels_ts: at }), candle(96, 101), true).kind).to.equal('none');
      expect(decide(position({ side: 'short', sl: 103, liq_price: 109.5, levels_ts: at }), candle(99, 104), true).kind).to.equal('none');
      expect(decide(position({ trail_pct: 2, trail_hwm: 100, levels_ts: at }), candle(97, 100), true).kind).to.equal('none');
      expect(decide(position({ trail_pct: 2, trail_hwm: 100, levels_ts: at }), candle(97, 100, start + MINUTE), true)).to.deep.equal({
        kind: 'settle',
        trigger: { reason: 'trailing_stop', price: 98 },
      });
    });

    it("fires levels set at or before the candle's start, and liquidates whenever they were set", () => {
      expect(decide(position({ sl: 97, levels_ts: start }), candle(95, 100), true)).to.deep.equal({
        kind: 'settle',
        trigger: { reason: 'stop_loss', price: 97 },
      });
      expect(decide(position({ sl: 97, levels_ts: start - 1 }), candle(95, 100), true)).to.deep.equal({
        kind: 'settle',
        trigger: { reason: 'stop_loss', price: 97 },
      });
      // positions stored before levels_ts existed: their open time stands in
      expect(decide(position({ sl: 97 }), candle(95, 100), true).kind).to.equal('settle');
      expect(decide(position({ sl: 97, levels_ts: start + 30_000 }), candle(89, 100), true)).to.deep.equal({
        kind: 'settle',
        trigger: { reason: 'liquidation', price: 90.5 },
      });
    });

    it('still ratchets a trailing stop it holds off (the mark is the best price since entry)', () => {
      const p = position({ trail_pct: 5, trail_hwm: 100, levels_ts: start + 30_000 });
      expect(decide(p, candle(90.6, 110), true)).to.deep.equal({
        kind: 'ratchet',
        trail_hwm: 110,
        trail_ts: start + MINUTE,
        trail_prev_hwm: 100,
        trail_prev_ts: 0,
      });
    });

    it('in general: a candle that started before the stamp settles only what it would with no stop, target or trail (a liquidation)', () => {
      const level = fc.option(price, { nil: null });
      const settled = (d: SweepDecision) => (d.kind === 'settle' ? d.trigger : null);
      fc.assert(
        fc.property(side, level, level, price, price, price, fc.integer({ min: 1, max: MINUTE }), (s, sl, tp, liq, a, b, after) => {
          const [low, high] = a <= b ? [a, b] : [b, a];
          const w = candle(low, high);
          const p = position({ side: s, sl, tp, liq_price: liq, trail_pct: 1, trail_hwm: (low + high) / 2, levels_ts: w.from + after });
          const bare = { ...p, sl: null, tp: null, trail_pct: null, trail_hwm: null };
          expect(settled(decide(p, w, true))).to.deep.equal(settled(decide(bare, w, true)));
        }),
      );
    });

    it("in general: a stamp at or before the window's start, or any live price, decides as if there were no stamp", () => {
      const level = fc.option(price, { nil: null });
      fc.assert(
        fc.property(
          side,
          level,
          level,
          price,
          price,
          price,
          fc.integer({ min: -MINUTE, max: MINUTE }),
          fc.boolean(),
          (s, sl, tp, liq, a, b, offset, isCandle) => {
            const [low, high] = a <= b ? [a, b] : [b, a];
            const w = isCandle ? candle(low, high) : { low: a, high: a, from: start, to: start };
            const stamped = position({ side: s, sl, tp, liq_price: liq, levels_ts: w.from + offset });
            const applies = levelsInForce(stamped, w, isCandle);
            if (applies !== (!isCandle || offset <= 0)) return false;
            return (
              !applies ||
              JSON.stringify(decide(stamped, w, isCandle)) === JSON.stringify(decide({ ...stamped, levels_ts: undefined }, w, isCandle))
            );
          },
        ),
      );
    });
  });
  describe("levels changed within a candle's minute: the levels the minute began with", () => {
    const start = 10 * MINUTE;
    const settles = (price: number, reason: string = CLOSE_REASONS.stopLoss) => ({ kind: 'settle', trigger: { reason, price } });
    /** A long at 100 whose levels the minute began with were `prior` (set an hour before), changed at :30 to `now`. */
    const changed = (prior: Partial<SweepState>, now: Partial<SweepState>, side: Side = 'long'): SweepState => {
      const began = position({ side, liq_price: side === 'long' ? 90.5 : 109.5, ...prior, levels_ts: start - 60 * MINUTE });
      return { ...began, ...now, ...levelsChange(began, start + 30_000) };
    };

    it('keeps the levels a minute began with through every change within it, and takes the new ones in the next minute', () => {
      const p = position({ sl: 95, tp: 110, levels_ts: 5 * MINUTE });
      const first = levelsChange(p, start + 20_000);
      expect(first).to.deep.equal({ levels_ts: start + 20_000, levels_prev: { sl: 95, tp: 110, trail_pct: null, ts: 5 * MINUTE } });
      const second = levelsChange({ ...p, sl: 97, ...first }, start + 40_000);
      expect(second).to.deep.equal({ levels_ts: start + 40_000, levels_prev: { sl: 95, tp: 110, trail_pct: null, ts: 5 * MINUTE } });
      expect(levelsChange({ ...p, sl: 98, ...second }, start + MINUTE + 5_000)).to.deep.equal({
        levels_ts: start + MINUTE + 5_000,
        levels_prev: { sl: 98, tp: 110, trail_pct: null, ts: start + 40_000 },
      });
      // a position opened within the minute has no levels from its start: none are kept
      expect(levelsChange(position({ sl: 95, opened_ts: start + 1_000, levels_ts: start + 1_000 }), start + 30_000)).to.deep.equal({
        levels_ts: start + 30_000,
      });
      // positions stored before levels_ts existed: their open time stands in
      expect(levelsChange(position({ sl: 95 }), start + 30_000).levels_prev).to.deep.equal({ sl: 95, tp: null, trail_pct: null, ts: 0 });
    });

    it('fires a stop that stayed through the change: a target set at :30 does not hide the low at :10', () => {
      expect(decide(changed({ sl: 95 }, { tp: 110 }), candle(94, 100), true)).to.deep.equal(settles(95));
      expect(decide(changed({ sl: 105, tp: 90 }, { tp: 95 }, 'short'), candle(99, 106), true)).to.deep.equal(settles(105));
      // an old trailing stop the same way (the mark never moved: the stop is 95)
      expect(decide(changed({ trail_pct: 5, trail_hwm: 100 }, { tp: 110 }), candle(94, 100), true)).to.deep.equal(
        settles(95, CLOSE_REASONS.trailingStop),
      );
    });

    it('a tightened stop: a low past both settles at the older, looser level; a low between them may predate the change and waits', () => {
      expect(decide(changed({ sl: 95 }, { sl: 97 }), candle(94, 100), true)).to.deep.equal(settles(95));
      expect(decide(changed({ sl: 95 }, { sl: 97 }), candle(96, 100), true).kind).to.equal('none');
      expect(decide(changed({ sl: 105 }, { sl: 103 }, 'short'), candle(98, 106), true)).to.deep.equal(settles(105));
      expect(decide(changed({ sl: 105 }, { sl: 103 }, 'short'), candle(98, 104), true).kind).to.equal('none');
    });

    it('a stop removed or loosened, or a target moved, at :30 does not fire on an extreme that may have come after it; a liquidation always does', () => {
      expect(decide(changed({ sl: 95 }, { sl: null }), candle(94, 100), true).kind).to.equal('none');
      expect(decide(changed({ sl: 95 }, { sl: 92 }), candle(94, 100), true).kind).to.equal('none');
      // the low may be after the stop went, the high before the target came
      expect(decide(changed({ sl: 95 }, { sl: null, tp: 105 }), candle(94, 106), true).kind).to.equal('none');
      expect(decide(changed({ tp: 110 }, { tp: 105 }), candle(99, 106), true).kind).to.equal('none');
      expect(decide(changed({ tp: 110 }, { tp: 105 }), candle(99, 111), true)).to.deep.equal(settles(105, CLOSE_REASONS.takeProfit));
      expect(decide(changed({ sl: 95 }, { sl: null }), candle(89, 100), true)).to.deep.equal(settles(90.5, CLOSE_REASONS.liquidation));
      // a candle older than the levels kept: the liquidation alone, as before
      expect(decide(changed({ sl: 95 }, { tp: 110 }), candle(94, 100, start - 61 * MINUTE), true).kind).to.equal('none');
    });

    it('in general: a settlement happened whatever came before the change, and at no better a level than the one that did', () => {
      const level = fc.option(price, { nil: null });
      const range = fc.tuple(price, price);
      fc.assert(
        fc.property(side, level, level, level, level, price, price, range, range, (s, sl0, tp0, sl1, tp1, liq, at, a, b) => {
          // the price at the change (at) is in both parts; the candle is their union
          const before = { low: Math.min(at, ...a), high: Math.max(at, ...a) };
          const after = { low: Math.min(at, ...b), high: Math.max(at, ...b) };
          const w = candle(Math.min(before.low, after.low), Math.max(before.high, after.high));
          const p = changed({ side: s, sl: sl0, tp: tp0, liq_price: liq }, { sl: sl1, tp: tp1 }, s);
          const truth = findTrigger({ ...p, sl: sl0, tp: tp0 }, before, false) ?? findTrigger(p, after, false);
          const d = decide(p, w, true);
          if (d.kind !== 'settle') return true;
          return truth !== null && (s === 'long' ? d.trigger.price <= truth.price : d.trigger.price >= truth.price);
        }),
        { numRuns: 2000 },
      );
    });

    it('in general: a stop the change kept fires when the candle crosses it, at a level no better than it', () => {
      fc.assert(
        fc.property(
          side,
          price,
          fc.option(price, { nil: null }),
          fc.option(price, { nil: null }),
          price,
          price,
          (s, sl, tp0, tp1, a, b) => {
            const [low, high] = a <= b ? [a, b] : [b, a];
            const p = changed({ side: s, sl, tp: tp0, liq_price: s === 'long' ? 0 : Infinity }, { tp: tp1 }, s);
            const crossed = s === 'long' ? low <= sl : high >= sl;
            const d = decide(p, candle(low, high), true);
            if (!crossed) return true;
            return d.kind === 'settle' && (s === 'long' ? d.trigger.price <= sl : d.trigger.price >= sl);
          },
        ),
        { numRuns: 1000 },
      );
    });
  });
});
