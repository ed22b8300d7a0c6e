// @three-masters: BullMQ's scheduler keys and the release record in the {bull} slot, through the Cluster client
import { expect } from 'chai';
import { Queue } from 'bullmq';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { keys } from '../../shared/redis/keys.js';
import { compareReleases, retireSchedules } from '../../workers/retire-schedules.js';
import type { ScheduleDefinition } from '../../workers/schedules.js';
import { useFreshRedis } from '../helpers/redis.js';

const schedule = (id: string): ScheduleDefinition => ({ id, queue: QUEUES.macro, repeat: { every: 60_000 }, job: { name: id } });

describe('job schedulers a release removes are removed at start', function () {
  this.timeout(20_000);
  let redis: RedisClient;
  let queue: Queue;
  useFreshRedis((fresh) => (redis = fresh));
  beforeEach(() => {
    queue = new Queue(QUEUES.macro, { connection: redis, prefix: QUEUE_PREFIX });
  });
  afterEach(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
    await redis.del(keys.schedulerReleases());
  });

  const register = async (release: string, schedules: ScheduleDefinition[]): Promise<string[]> => {
    for (const s of schedules) await queue.upsertJobScheduler(s.id, s.repeat, s.job);
    return retireSchedules(redis, schedules, release);
  };
  const ids = async (): Promise<string[]> => (await queue.getJobSchedulers()).map((s) => s.key).sort();

  it('removes a scheduler the new release dropped, so it stops adding jobs, and keeps the ones it still has', async () => {
    await register('2.9.0', [schedule('kept'), schedule('dropped')]);
    expect(await ids()).to.deep.equal(['dropped', 'kept']);
    expect(await register('2.10.0', [schedule('kept')])).to.deep.equal(['dropped']);
    expect(await ids()).to.deep.equal(['kept']);
  });

  it('removes a scheduler registered before releases were recorded', async () => {
    await queue.upsertJobScheduler('from-long-ago', { every: 60_000 }, { name: 'old' });
    expect(await register('2.9.1', [schedule('kept')])).to.deep.equal(['from-long-ago']);
    expect(await ids()).to.deep.equal(['kept']);
  });

  it("leaves a later release's scheduler alone when a worker of the earlier release starts during the roll", async () => {
    await register('2.9.1', [schedule('kept')]);
    await register('2.10.0', [schedule('kept'), schedule('added-in-2.10')]);
    // an old worker restarts mid-roll: it does not know the new scheduler, and must not remove it
    expect(await register('2.9.1', [schedule('kept')])).to.deep.equal([]);
    expect(await ids()).to.deep.equal(['added-in-2.10', 'kept']);
  });

  it('orders releases by number, not as text', () => {
    expect(compareReleases('2.10.0', '2.9.1')).to.be.greaterThan(0);
    expect(compareReleases('2.9.1', '2.9.1')).to.equal(0);
    expect(compareReleases('1.99.99', '2.0.0')).to.be.lessThan(0);
  });
});
