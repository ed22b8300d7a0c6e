import { expect } from 'chai';
import { AppError } from '../../shared/core/errors.js';
import { BUSY_RETRY_AFTER_S, ChangeGate, STALE } from '../../shared/paper/change-gate.js';

describe('the change gate of positions and orders', () => {
  it('runs the changes of one key one at a time and of different keys side by side', async () => {
    const gate = new ChangeGate({ attempts: 3, firstPauseMs: 1 });
    const running = new Map<string, number>();
    let overlap = 0;
    let sideBySide = false;
    const change = (key: string) =>
      gate.run(key, key, async () => {
        running.set(key, (running.get(key) ?? 0) + 1);
        if (running.get(key)! > 1) overlap++;
        if ([...running.values()].filter((n) => n > 0).length > 1) sideBySide = true;
        await new Promise((resolve) => setImmediate(resolve));
        running.set(key, running.get(key)! - 1);
        return key;
      });
    const results = await Promise.all([...Array.from({ length: 10 }, () => change('a')), ...Array.from({ length: 10 }, () => change('b'))]);
    expect(results.filter((r) => r === 'a')).to.have.length(10);
    expect(overlap).to.equal(0);
    expect(sideBySide).to.equal(true);
  });

  it('tries a stale change again until it applies', async () => {
    const gate = new ChangeGate({ attempts: 5, firstPauseMs: 1 });
    let tries = 0;
    expect(await gate.run('k', 'position p1', async () => (++tries < 4 ? STALE : 'applied'))).to.equal('applied');
    expect(tries).to.equal(4);
  });

  it('answers 409 busy with retry_after once every attempt lost, and the next change of the key still runs', async () => {
    const gate = new ChangeGate({ attempts: 4, firstPauseMs: 1 });
    let tries = 0;
    const error = await gate
      .run('k', 'position p1', async () => (tries++, STALE))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(tries).to.equal(4);
    expect(error).to.be.instanceOf(AppError);
    expect(error).to.include({ code: 'busy', status: 409 });
    expect((error as AppError).details).to.deep.equal({ retry_after: BUSY_RETRY_AFTER_S });
    expect((error as AppError).message).to.contain('position p1');
    expect(await gate.run('k', 'position p1', async () => 'next')).to.equal('next');
  });

  it('passes an error of an attempt on without trying again', async () => {
    const gate = new ChangeGate({ attempts: 4, firstPauseMs: 1 });
    let tries = 0;
    const refused = new AppError('already_closed', 'closed');
    const error = await gate
      .run('k', 'p', async () => {
        tries++;
        throw refused;
      })
      .catch((e: unknown) => e);
    expect(error).to.equal(refused);
    expect(tries).to.equal(1);
  });
});
