import { expect } from 'chai';
import fc from 'fast-check';
import { nearestClusters } from '../../shared/ai/brief-service.js';
import { parseProviderReply } from '../../shared/ai/provider-analyst.js';

describe('/ai pieces: the provider reply check and the nearest clusters', () => {
  it('takes a well-formed reply, fenced or not, and refuses what does not fit', () => {
    const plan = { bias: 'short', entry: 100, stop: 104, targets: [96, 92], leverage: 5 };
    expect(parseProviderReply(JSON.stringify({ answer: 'Short it.', plan }))).to.deep.equal({ answer: 'Short it.', plan });
    expect(parseProviderReply('```json\n{"answer":"Wait.","plan":null}\n```')).to.deep.equal({ answer: 'Wait.', plan: null });
    expect(parseProviderReply('{"answer":"No plan field."}')).to.deep.equal({ answer: 'No plan field.', plan: null });
    expect(() => parseProviderReply(undefined)).to.throw('without message content');
    expect(() => parseProviderReply('Buy now!')).to.throw('not JSON');
    expect(() => parseProviderReply('{"answer":""}')).to.throw('does not fit');
    expect(() => parseProviderReply(JSON.stringify({ answer: 'x', plan: { ...plan, stop: 99 } }))).to.throw('wrong side');
    expect(() => parseProviderReply(JSON.stringify({ answer: 'x', plan: { ...plan, targets: [101] } }))).to.throw('wrong side');
  });

  it('never lets through a plan with its stop or a target on the wrong side, whatever the provider says', () => {
    const anyPlan = fc.record({
      bias: fc.constantFrom('long', 'short', 'up'),
      entry: fc.double({ min: -10, max: 1e6, noNaN: true }),
      stop: fc.double({ min: -10, max: 1e6, noNaN: true }),
      targets: fc.array(fc.double({ min: -10, max: 1e6, noNaN: true }), { maxLength: 4 }),
      leverage: fc.double({ min: -1, max: 2000, noNaN: true }),
    });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          anyPlan.map((p) => JSON.stringify({ answer: 'a', plan: p })),
        ),
        (content) => {
          let reply;
          try {
            reply = parseProviderReply(content);
          } catch (error) {
            expect(error).to.be.instanceOf(Error);
            return;
          }
          if (!reply.plan) return;
          const sign = reply.plan.bias === 'long' ? 1 : -1;
          expect(sign * (reply.plan.entry - reply.plan.stop)).to.be.above(0);
          for (const target of reply.plan.targets) expect(sign * (target - reply.plan.entry)).to.be.above(0);
        },
      ),
    );
  });

  it('keeps the two nearest clusters on each side of the price, nearest first', () => {
    // price 100: above 101 (+1%), 103 (+3%), 110 (+10%); below 98 (-2%), 95 (-5%), 90 (-10%)
    const clusters = [110, 103, 101, 98, 95, 90].map((price) => ({
      price,
      side: price > 100 ? ('short' as const) : ('long' as const),
      est_notional: 1e6,
    }));
    expect(nearestClusters(clusters, 100).map((c) => [c.price, c.distance_pct])).to.deep.equal([
      [101, 1],
      [98, -2],
      [103, 3],
      [95, -5],
    ]);
  });
});
