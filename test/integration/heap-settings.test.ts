import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A probe script (test/helpers) in a fresh process with the given setting; answers what it printed. */
async function probe<T>(script: string, setting: string): Promise<T> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', `test/helpers/${script}`, setting]);
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
    this.timeout(120_000);
    // V8 decides to pretenure that place in about 6 runs of 10 (the rest gain nothing either way),
    // so six runs of each: every run off gains nothing, and some run on shows what off prevents
    const gains = async (setting: string): Promise<number[]> => {
      const out: number[] = [];
      for (let pair = 0; pair < 3; pair += 1) {
        const runs = await Promise.all([probe<{ gainedMb: number }>('pretenuring-probe.ts', setting), probe<{ gainedMb: number }>('pretenuring-probe.ts', setting)]);
        out.push(...runs.map((r) => r.gainedMb));
      }
      return out;
    };
    const off = await gains('0');
    const on = await gains('1');
    expect(Math.max(...off), `off: ${off.join(', ')}`).to.be.lessThan(1);
    expect(Math.max(...on), `on: ${on.join(', ')}`).to.be.greaterThan(10);
  });
});
