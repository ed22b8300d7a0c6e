import { expect } from 'chai';
import { InOrderByKey } from '../../shared/core/in-order-by-key.js';
import type { SweepJob } from '../../shared/queues/job-types.js';
import { candleRunner, EarlierMinutePending, type CandleStep } from '../../workers/processors/sweep/candle-sweep-processor.js';

/** A promise settled from outside. */
function gate<T = void>(): { promise: Promise<T>; open(value: T): void; fail(error: Error): void } {
  let open!: (value: T) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<T>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

/** Lets every promise reaction that is already due run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('tasks in order by key', () => {
  it("starts a key's task only once the one before it settled, and runs other keys meanwhile", async () => {
    const order = new InOrderByKey();
    const started: string[] = [];
    const first = gate<string>();
    const a1 = order.run('a', () => (started.push('a1'), first.promise));
    const a2 = order.run('a', async () => (started.push('a2'), 'a2 done'));
    const b1 = order.run('b', async () => (started.push('b1'), 'b1 done'));
    await settle();
    expect(started).to.deep.equal(['a1', 'b1']);
    expect(await b1).to.equal('b1 done');
    first.open('a1 done');
    expect(await a1).to.equal('a1 done');
    expect(await a2).to.equal('a2 done');
    expect(started).to.deep.equal(['a1', 'b1', 'a2']);
  });

  it('runs the next task after a failed one, and the failure reaches only its own caller', async () => {
    const order = new InOrderByKey();
    const first = gate();
    const failed = order.run('a', () => first.promise);
    const next = order.run('a', async () => 'ran');
    first.fail(new Error('down'));
    let error: unknown;
    await failed.catch((e: unknown) => (error = e));
    expect(error).to.be.an('error').with.property('message', 'down');
    expect(await next).to.equal('ran');
  });

  it('forgets a key once its tasks have settled', async () => {
    const order = new InOrderByKey();
    const first = gate();
    const runs = [order.run('a', () => first.promise), order.run('a', async () => undefined), order.run('b', async () => undefined)];
    expect(order.busyKeys).to.equal(2);
    first.open();
    await Promise.all(runs);
    await settle();
    expect(order.busyKeys).to.equal(0);
  });
});

describe("the sweep processor's candle runner", () => {
  const candle = (symbol: string, minute: number): SweepJob => ({ symbol, minute, open: 100, high: 101, low: 99, close: 100 });

  it("runs a symbol's later minute after its earlier one, each candle's steps in order, other symbols side by side", async () => {
    const events: string[] = [];
    const held = gate();
    const steps: CandleStep[] = [
      {
        name: 'orders',
        run: async (c) => {
          events.push(`orders ${c.symbol} ${c.minute}`);
          if (c.symbol === 'BTCUSDT' && c.minute === 0) await held.promise;
          return `orders of ${c.minute}`;
        },
      },
      { name: 'positions', run: async (c) => (events.push(`positions ${c.symbol} ${c.minute}`), `positions of ${c.minute}`) },
    ];
    const run = candleRunner(steps);
    const earlier = run(candle('BTCUSDT', 0));
    const later = run(candle('BTCUSDT', 60_000));
    const other = run(candle('ETHUSDT', 60_000));
    expect(await other).to.deep.equal({ orders: 'orders of 60000', positions: 'positions of 60000' });
    expect(events).to.deep.equal(['orders BTCUSDT 0', 'orders ETHUSDT 60000', 'positions ETHUSDT 60000']);
    held.open();
    expect(await earlier).to.deep.equal({ orders: 'orders of 0', positions: 'positions of 0' });
    expect(await later).to.deep.equal({ orders: 'orders of 60000', positions: 'positions of 60000' });
    expect(events.slice(3)).to.deep.equal(['positions BTCUSDT 0', 'orders BTCUSDT 60000', 'positions BTCUSDT 60000']);
  });

  it("asks the gate before a candle's steps and tells it only of a candle swept to the end", async () => {
    const events: string[] = [];
    const waiting = new Set(['BTCUSDT 60000']);
    const gate = {
      mustWait: async (c: SweepJob) => (events.push(`asked ${c.symbol} ${c.minute}`), waiting.has(`${c.symbol} ${c.minute}`)),
      swept: (c: SweepJob) => void events.push(`swept ${c.symbol} ${c.minute}`),
    };
    const steps: CandleStep[] = [
      {
        name: 'positions',
        run: async (c) => {
          events.push(`positions ${c.symbol} ${c.minute}`);
          if (c.symbol === 'SOLUSDT') throw new Error('down');
          return 'done';
        },
      },
    ];
    const run = candleRunner(steps, gate);
    let held: unknown;
    await run(candle('BTCUSDT', 60_000)).catch((e: unknown) => (held = e));
    expect(held).to.be.instanceOf(EarlierMinutePending);
    expect(events).to.deep.equal(['asked BTCUSDT 60000']);
    let failed: unknown;
    await run(candle('SOLUSDT', 0)).catch((e: unknown) => (failed = e));
    expect(failed).to.be.an('error').with.property('message', 'down');
    waiting.clear();
    expect(await run(candle('BTCUSDT', 60_000))).to.deep.equal({ positions: 'done' });
    expect(events.slice(1)).to.deep.equal([
      'asked SOLUSDT 0',
      'positions SOLUSDT 0',
      'asked BTCUSDT 60000',
      'positions BTCUSDT 60000',
      'swept BTCUSDT 60000',
    ]);
  });
});
