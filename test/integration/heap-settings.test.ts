import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

interface Probe {
  peakMb: number;
  fullCollections: number;
}

/** The same live set and garbage in a fresh process (test/helpers/heap-growth-probe.ts) with the given setting. */
async function probe(percent: string): Promise<Probe> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'test/helpers/heap-growth-probe.ts', percent]);
  return JSON.parse(stdout) as Probe;
}

describe('heap settings: HEAP_GROWING_PERCENT applied at start-up', () => {
  it('lets the old generation grow further before each full collection, so there are fewer of them', async function () {
    this.timeout(60_000);
    const [tight, roomy] = await Promise.all([probe('20'), probe('300')]);
    expect(roomy.peakMb).to.be.greaterThan(tight.peakMb * 2);
    expect(roomy.fullCollections * 3).to.be.lessThan(tight.fullCollections);
  });
});
