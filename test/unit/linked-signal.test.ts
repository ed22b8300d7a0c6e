import { expect } from 'chai';
import { getEventListeners } from 'node:events';
import { linkedSignal } from '../../shared/core/linked-signal.js';

describe('a linked signal', () => {
  it('aborts when any source aborts, with that source reason', () => {
    const job = new AbortController();
    const closing = new AbortController();
    const linked = linkedSignal(job.signal, undefined, closing.signal);
    expect(linked.signal.aborted).to.equal(false);
    closing.abort('role closing');
    expect(linked.signal.aborted).to.equal(true);
    expect(linked.signal.reason).to.equal('role closing');
  });

  it('is aborted at once when a source already is', () => {
    const closing = new AbortController();
    closing.abort('closed');
    const linked = linkedSignal(new AbortController().signal, closing.signal);
    expect([linked.signal.aborted, linked.signal.reason]).to.deep.equal([true, 'closed']);
  });

  it('once released, leaves a long-lived source as it found it, and no longer follows it', () => {
    const closing = new AbortController();
    const released = Array.from({ length: 1_000 }, () => {
      const linked = linkedSignal(new AbortController().signal, closing.signal);
      linked.release();
      return linked.signal;
    });
    expect(getEventListeners(closing.signal, 'abort')).to.have.length(0);
    closing.abort();
    expect(released.some((signal) => signal.aborted)).to.equal(false);
  });
});
