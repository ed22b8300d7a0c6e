import { expect } from 'chai';
import { getTasks, type ScheduledTask } from 'node-cron';
import { RefreshingTable } from '../../workers/streams/liquidations/liquidation-connector.js';
import { captureLog } from '../helpers/log-capture.js';

/** The node-cron task a table scheduled, found by the table's name. */
function scheduled(name: string): ScheduledTask | undefined {
  return [...getTasks().values()].find((task) => task.name === name);
}

describe('a refreshing contract table (node-cron)', () => {
  it('loads on start, then reloads at a check only while it has no good load', async () => {
    const answers = [Promise.reject(new Error('venue down')), Promise.resolve(2), Promise.resolve(3)];
    let loads = 0;
    const table = new RefreshingTable('table-retry', () => answers[loads++], 0, captureLog().logger);
    await table.start();
    try {
      expect([table.value, loads]).to.deep.equal([0, 1]);
      const task = scheduled('table-retry');
      expect(task?.getPattern()).to.equal('*/30 * * * * *');
      // the checks node-cron runs every 30 s, run now
      await task?.execute();
      expect([table.value, loads]).to.deep.equal([2, 2]);
      await task?.execute();
      expect([table.value, loads], 'loaded less than an hour ago').to.deep.equal([2, 2]);
    } finally {
      table.stop();
    }
    expect(scheduled('table-retry')).to.equal(undefined);
  });

  it('schedules nothing when stopped during its first load', async () => {
    let loaded: (value: number) => void = () => undefined;
    const table = new RefreshingTable('table-stopped', () => new Promise<number>((resolve) => (loaded = resolve)), 0, captureLog().logger);
    const started = table.start();
    table.stop();
    loaded(1);
    await started;
    expect(scheduled('table-stopped')).to.equal(undefined);
  });
});
