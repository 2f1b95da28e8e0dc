import { expect } from 'chai';
import { DomainError } from '../shared/domain-error.ts';
import { assertStrongPassword, unmetPasswordRequirements } from './password-policy.ts';

describe('new password policy', () => {
  it('accepts 8 characters with upper, lower, digit and special', () => expect(unmetPasswordRequirements('Abcdef1!')).to.deep.equal([]));
  it('refuses fewer than 8 characters', () => expect(unmetPasswordRequirements('Abcde1!')).to.deep.equal(['min_length']));
  it('accepts 128 characters and refuses 129', () => {
    expect(unmetPasswordRequirements(`Aa1!${'x'.repeat(124)}`)).to.deep.equal([]);
    expect(unmetPasswordRequirements(`Aa1!${'x'.repeat(125)}`)).to.deep.equal(['max_length']);
  });
  it('requires an upper-case letter', () => expect(unmetPasswordRequirements('abcdef1!')).to.deep.equal(['uppercase']));
  it('requires a lower-case letter', () => expect(unmetPasswordRequirements('ABCDEF1!')).to.deep.equal(['lowercase']));
  it('requires a digit', () => expect(unmetPasswordRequirements('Abcdefg!')).to.deep.equal(['digit']));
  it('requires a special character', () => expect(unmetPasswordRequirements('Abcdefg1')).to.deep.equal(['special']));
  it('counts Slovak letters by case and characters by code point', () => {
    expect(unmetPasswordRequirements('Čšťžýáí1!')).to.deep.equal([]);
    expect(unmetPasswordRequirements('Aa1!😀😀😀')).to.deep.equal(['min_length']);
  });
  it('lists every unmet requirement at once', () => expect(unmetPasswordRequirements('')).to.deep.equal(['min_length', 'uppercase', 'lowercase', 'digit', 'special']));
  it('refuses a weak password with 422 weak_password and the unmet list', () => {
    let caught: unknown;
    try {
      assertStrongPassword('abc');
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(DomainError);
    expect(caught).to.include({ code: 'weak_password' });
    expect((caught as DomainError).extra).to.deep.equal({ unmet: ['min_length', 'uppercase', 'digit', 'special'] });
  });
  it('passes a strong password', () => expect(() => assertStrongPassword('Správne-heslo-42')).not.to.throw());
});
