import { expect } from 'chai';
import fc from 'fast-check';
import { mailboxOf } from '../../shared/site/mailbox.js';

describe('mailboxOf: the mailbox a sign-in budget is kept for', () => {
  it('drops case and +tags everywhere, and the dots of Gmail addresses only', () => {
    expect(mailboxOf('V+1@Example.org')).to.equal('v@example.org');
    expect(mailboxOf('v+a+b@example.org')).to.equal('v@example.org');
    expect(mailboxOf('v.i.c@example.org')).to.equal('v.i.c@example.org');
    expect(mailboxOf('V.i.C+x@gmail.com')).to.equal('vic@gmail.com');
    expect(mailboxOf('vic@googlemail.com')).to.equal('vic@gmail.com');
  });

  it('gives every tagged, dotted or cased spelling of a Gmail address its mailbox, and is idempotent', () => {
    const local = fc.stringMatching(/^[a-z0-9]{1,12}$/);
    const tag = fc.stringMatching(/^[a-z0-9.+-]{0,10}$/);
    fc.assert(
      fc.property(local, tag, fc.array(fc.nat(12), { maxLength: 4 }), fc.boolean(), (name, suffix, dots, upper) => {
        let spelled = name;
        for (const at of dots) spelled = `${spelled.slice(0, at)}.${spelled.slice(at)}`;
        const address = `${upper ? spelled.toUpperCase() : spelled}+${suffix}@gmail.com`;
        expect(mailboxOf(address)).to.equal(`${name}@gmail.com`);
        expect(mailboxOf(mailboxOf(address))).to.equal(mailboxOf(address));
      }),
    );
  });
});
