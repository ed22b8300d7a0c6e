import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A probe script (test/helpers) in a fresh process with the given setting; answers what it printed. */
async function probe<T>(script: string, setting: string, v8Flags: string[] = []): Promise<T> {
  const { stdout } = await run(process.execPath, [...v8Flags, '--import', 'tsx', `test/helpers/${script}`, setting]);
  return JSON.parse(stdout) as T;
}

interface Growth {
  peakMb: number;
  fullCollections: number;
}

describe('heap settings applied at start-up', () => {
  it('HEAP_GROWING_PERCENT: the old generation grows further before each full collection, so there are fewer of them', async function () {
    this.timeout(60_000);
    const [tight, roomy] = await Promise.all([probe<Growth>('heap-growth-probe.ts', '20'), probe<Growth>('heap-growth-probe.ts', '300')]);
    expect(roomy.peakMb).to.be.greaterThan(tight.peakMb * 2);
    expect(roomy.fullCollections * 3).to.be.lessThan(tight.fullCollections);
  });

  it('HEAP_PRETENURING off (the default): objects that die at once stay out of the old generation, even from a place whose earlier objects lived', async function () {
    this.timeout(60_000);
    // V8 decides on pretenuring at collections; with its background threads (concurrent marking and
    // compilation) that decision depends on thread timing and came in only some runs, so the probe
    // runs single-threaded, where on pretenures in every run
    const gains = async (setting: string): Promise<number[]> => {
      const runs = await Promise.all([1, 2].map(() => probe<{ gainedMb: number }>('pretenuring-probe.ts', setting, ['--single-threaded'])));
      return runs.map((r) => r.gainedMb);
    };
    const [off, on] = await Promise.all([gains('0'), gains('1')]);
    expect(Math.max(...off), `off: ${off.join(', ')}`).to.be.lessThan(1);
    expect(Math.min(...on), `on: ${on.join(', ')}`).to.be.greaterThan(10);
  });
});
