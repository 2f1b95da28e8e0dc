import { expect } from 'chai';
import { Secret } from 'otpauth';
import { newTotpSecret, totpCode, totpUri, verifyTotp } from '../../src/modules/identity/totp.ts';

// RFC 6238 appendix B: SHA1 secret "12345678901234567890", T = 59 s gives 94287082 (8 digits; 287082 as 6)
const rfcSecret = Secret.fromUTF8('12345678901234567890').base32;

describe('TOTP', () => {
  const at = new Date('2026-11-22T10:00:15Z');
  const step = Math.floor(at.getTime() / 30_000);

  it('makes 160-bit base32 secrets', () => {
    const secret = newTotpSecret();
    expect(secret).to.match(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.to.equal(secret);
  });
  it('computes the RFC 6238 codes (SHA1, 6 digits, 30 s)', () => {
    expect(totpCode(rfcSecret, new Date(59_000))).to.equal('287082');
    expect(verifyTotp(rfcSecret, '287082', new Date(59_000))).to.equal(1);
  });
  it('accepts the current code and answers its time step', () => {
    const secret = newTotpSecret();
    expect(verifyTotp(secret, totpCode(secret, at), at)).to.equal(step);
  });
  it('accepts a code one step early or late, answering that step', () => {
    const secret = newTotpSecret();
    expect(verifyTotp(secret, totpCode(secret, new Date(at.getTime() - 30_000)), at)).to.equal(step - 1);
    expect(verifyTotp(secret, totpCode(secret, new Date(at.getTime() + 30_000)), at)).to.equal(step + 1);
  });
  it('refuses a code two steps away', () => {
    const secret = newTotpSecret();
    expect(verifyTotp(secret, totpCode(secret, new Date(at.getTime() - 60_000)), at)).to.equal(null);
    expect(verifyTotp(secret, totpCode(secret, new Date(at.getTime() + 60_000)), at)).to.equal(null);
  });
  it('refuses a wrong code and anything not six digits, forgiving spaces', () => {
    const secret = newTotpSecret();
    const code = totpCode(secret, at);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect(verifyTotp(secret, wrong, at)).to.equal(null);
    expect(verifyTotp(secret, `${code}0`, at)).to.equal(null);
    expect(verifyTotp(secret, '', at)).to.equal(null);
    expect(verifyTotp(secret, `${code.slice(0, 3)} ${code.slice(3)}`, at)).to.equal(step);
  });
  it('writes an otpauth:// URI an authenticator app reads', () => {
    const secret = newTotpSecret();
    const uri = totpUri({ issuer: 'SK e-faktúry', account: 'jana@firma.sk', secret });
    expect(uri).to.match(/^otpauth:\/\/totp\//);
    const url = new URL(uri);
    expect(url.searchParams.get('secret')).to.equal(secret);
    expect(url.searchParams.get('issuer')).to.equal('SK e-faktúry');
    expect(url.searchParams.get('algorithm')).to.equal('SHA1');
    expect(url.searchParams.get('digits')).to.equal('6');
    expect(url.searchParams.get('period')).to.equal('30');
    expect(decodeURIComponent(url.pathname)).to.contain('jana@firma.sk');
  });
});
